// Package holdfile is a real process that holds a file the ways a swap can lose a write through:
// mapped shared for writing with its descriptor closed, or open read-only and reopened for
// appending through /proc/self/fd/N, writing while (and after) prosewash replaces the file.
package holdfile
