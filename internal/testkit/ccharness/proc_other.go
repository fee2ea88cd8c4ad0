//go:build !unix

package ccharness

import (
	"os/exec"
	"time"
)

// setProcessGroup is a no-op where process groups do not exist; the default
// Cancel kills only the CLI.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup is a no-op where process groups do not exist.
func killProcessGroup(cmd *exec.Cmd) {}

// settleProcessGroup returns at once where process groups do not exist.
func settleProcessGroup(cmd *exec.Cmd, d time.Duration) {}
