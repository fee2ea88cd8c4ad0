//go:build !unix

package provider

import "os/exec"

// setProcessGroup on systems without process groups kills the direct child
// only (exec.CommandContext's default).
func setProcessGroup(cmd *exec.Cmd) {}
