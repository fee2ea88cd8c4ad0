//go:build unix

package ccharness

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the CLI lead a new process group so a timeout can
// end it together with the hooks it spawned.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killProcessGroup ends whatever the session left running (a lingering
// hook); the group id is the CLI's pid, which stays reserved while any
// member lives, so this only reaches processes this run started.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH when nothing is left
	}
}
