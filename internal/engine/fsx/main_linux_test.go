package fsx

import (
	"os"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/holdfile"
)

// TestMain lets the test binary act as a process that holds a file (a
// mapping, a read-only descriptor it reopens) for the lost-write tests.
func TestMain(m *testing.M) { os.Exit(holdfile.TestMain(m)) }
