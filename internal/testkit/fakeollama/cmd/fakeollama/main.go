package main

import (
	"os"

	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

func main() {
	os.Exit(fakeollama.Main(os.Args[1:], os.Stdout, os.Stderr))
}
