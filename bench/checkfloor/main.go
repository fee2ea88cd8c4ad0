package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/prosewash/prosewash/internal/engine/walk"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: checkfloor PATH...")
		os.Exit(2)
	}
	var files, bytes atomic.Int64
	// The options check passes (internal/cli/cmd_check.go), without an
	// exclude list: the benchmark gives check none either.
	opt := walk.Options{NULText: true}
	process := func(f walk.File) (any, error) {
		files.Add(1)
		bytes.Add(int64(len(f.Data)))
		return nil, nil
	}
	emit := func(string, any, error) error { return nil }
	if err := walk.Walk(context.Background(), os.Args[1:], opt, process, emit, nil); err != nil {
		fmt.Fprintln(os.Stderr, "checkfloor:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes\n", files.Load(), bytes.Load())
}
