// Command prosewash cleans invisible Unicode carriers from the prose regions of
// the files an AI coding agent wrote, and keeps its always-loaded memory lean.
package main

import (
	"os"

	"github.com/prosewash/prosewash/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
