//go:build linux

// Command holdfile holds a file as a lost write needs it held (see package holdfile).
package main

import (
	"os"

	"github.com/prosewash/prosewash/internal/testkit/holdfile"
)

func main() { os.Exit(holdfile.Main(os.Args[1:], os.Stdout, os.Stderr)) }
