// Package scope keeps per-session attribution records (path and hash, never content) and decides which files a run may touch.
package scope
