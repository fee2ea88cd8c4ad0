//go:build linux

package main

import (
	"os"

	"github.com/prosewash/prosewash/internal/testkit/holdfile"
)

func main() { os.Exit(holdfile.Main(os.Args[1:], os.Stdout, os.Stderr)) }
