// Command mutate checks that the test suite guards the invariants the
// README promises: it applies each curated mutant to a copy of the
// repository and requires the named tests to fail.
//
// A mutant is a txtar file in testdata/mutants: its comment holds
// "file:", "test:" (packages, space separated) and optional "run:" (a
// -run pattern) lines and a why; its "old" and "new" sections are the
// exact text replaced, which must occur exactly once, so a mutant that no
// longer matches the code is reported as stale instead of silently
// passing. Usage:
//
//	go run ./tools/mutate [-only NAME] [-timeout 10m]
package main
