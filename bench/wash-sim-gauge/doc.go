// Command wash-sim-gauge measures what the session-start gauge costs against `git rev-parse HEAD`, the budget a SessionStart hook has to stay within (1.5x).
//
// Usage:
//
//	go run ./bench/wash-sim-gauge [-runs 41] [-notes 40] [-prosewash PATH]
//
// It builds a realistic project in a temporary directory (a git repository of 300 files, a
// CLAUDE.md, an AGENTS.md, three rules files, a memory index with 80 entries and 40 recall-only
// notes), then times, as medians over -runs runs: the `git rev-parse HEAD` process; the
// `prosewash wash gauge --json` process, which does what the hook does (discovery, reading,
// the Quick plan that prices the fat, the band, the state write) plus printing; and the
// in-process lane.SessionStart call the hook adapter makes. Without -prosewash it builds the
// binary with `go build`.
package main
