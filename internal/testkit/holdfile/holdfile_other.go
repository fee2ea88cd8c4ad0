//go:build !linux

package holdfile

import (
	"fmt"
	"io"
)

// Main needs Linux (/proc/self/fd and the mappings the tests look for):
// elsewhere it says so and exits 2.
func Main(_ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "holdfile: needs Linux")
	return 2
}
