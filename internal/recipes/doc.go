// Package recipes runs the README's hook-manager recipes (lefthook, husky
// with lint-staged) for real, copied from the README itself, so the
// documentation cannot drift from what works.
package recipes
