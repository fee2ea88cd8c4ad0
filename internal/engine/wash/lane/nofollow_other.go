//go:build !unix

package lane

// syscallNoFollow is not available: the state dir itself is private.
const syscallNoFollow = 0
