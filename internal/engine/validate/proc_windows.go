//go:build windows

package validate

import (
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is a job object holding the command and, from the moment it is
// assigned, every process it spawns; terminating the job kills them all.
// A child spawned before the assignment escapes it: the window is the few
// instructions between CreateProcess and AssignProcessToJobObject.
type group struct {
	cmd *exec.Cmd
	job windows.Handle
}

func newGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	return &group{cmd: cmd}
}

func (g *group) started(cmd *exec.Cmd) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return
	}
	g.job = job
}

// kill terminates the job, or the process alone when no job could be
// created.
func (g *group) kill() error {
	if g.job != 0 {
		return windows.TerminateJobObject(g.job, 1)
	}
	if g.cmd.Process != nil && g.cmd.ProcessState == nil {
		return g.cmd.Process.Kill()
	}
	return nil
}

func (g *group) close() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
