package cli

import (
	"fmt"
	"runtime"
)

func runVersion(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintf(e.stdout, "prosewash %s (%s, %s/%s)\n", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
