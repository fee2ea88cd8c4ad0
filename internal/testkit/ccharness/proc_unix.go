//go:build unix

package ccharness

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup makes the CLI lead a new process group and makes a timeout
// end the CLI together with the hooks it spawned. The CLI starts each hook in
// a session of its own, so the group alone does not reach them: the tree is
// walked by parent pid where the platform allows it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		pid := cmd.Process.Pid
		// A few rounds catch children forked while the previous round ran.
		for range 3 {
			kids := descendants(pid)
			for _, k := range kids {
				_ = syscall.Kill(k, syscall.SIGKILL) // ESRCH when it already ended
			}
			if len(kids) == 0 {
				break
			}
		}
		return syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// killProcessGroup ends whatever is left in the CLI's group after it exited;
// the group id is the CLI's pid, which stays reserved while any member lives,
// so this reaches only processes this run started.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH when nothing is left
	}
}

// settleProcessGroup waits until no process is left in cmd's group, or d
// has passed: signal 0 probes the group without touching it.
func settleProcessGroup(cmd *exec.Cmd, d time.Duration) {
	if cmd.Process == nil {
		return
	}
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(-cmd.Process.Pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
	}
}
