//go:build !unix

package ccharness

import "os/exec"

// setProcessGroup is a no-op where process groups do not exist; the default
// Cancel kills only the CLI.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup is a no-op where process groups do not exist.
func killProcessGroup(cmd *exec.Cmd) {}
