package validate

import "syscall"

// groupAttr puts the command in its own process group. On Linux the
// leader also dies with the thread that started it, so a prosewash killed
// with SIGKILL mid-validation does not leave the command running against
// files that recovery is restoring.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
