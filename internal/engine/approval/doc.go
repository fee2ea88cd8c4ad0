// Package approval records the user's answer to "may prosewash run on its own?" with a fingerprint of exactly what was approved, and decides which clean mode applies now.
package approval
