// Package recipes runs the documented CI and hook-manager recipes of docs/ci.md (GitHub Actions, lefthook, husky with lint-staged) for real, copied from the page itself, so the documentation cannot drift from what works.
package recipes
