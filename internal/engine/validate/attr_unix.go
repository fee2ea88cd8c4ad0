//go:build unix && !linux

package validate

import "syscall"

// groupAttr puts the command in its own process group.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
