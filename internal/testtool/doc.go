// Package testtool finds or installs the real tools and third-party corpora
// that tests drive, and decides whether a missing one skips the test or fails it.
package testtool
