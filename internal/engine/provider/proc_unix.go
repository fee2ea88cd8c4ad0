//go:build unix

package provider

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the provider in its own process group so a timeout
// kills everything it started, not just the direct child.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
