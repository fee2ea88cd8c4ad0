// Package archivetest generates Claude Code transcript stores for the archive's tests and benchmark: sessions of every shape the store holds, old and live.
package archivetest
