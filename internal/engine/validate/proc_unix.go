//go:build unix

package validate

import (
	"errors"
	"os/exec"
	"syscall"
)

// group is the process group a command runs in: its own, led by the
// command, so that killing it also kills everything the command spawned.
type group struct{ cmd *exec.Cmd }

func newGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = groupAttr()
	return &group{cmd: cmd}
}

func (g *group) started(*exec.Cmd) {}

// kill sends SIGKILL to the whole group. The child joins its group before
// it execs, so the group exists as soon as cmd.Process does. A group that
// is already gone is not an error.
func (g *group) kill() error {
	if g.cmd.Process == nil || g.cmd.Process.Pid <= 0 {
		return nil
	}
	err := syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

func (g *group) close() {}
