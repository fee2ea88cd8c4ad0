package approval

import (
	"bytes"
	"fmt"

	"golang.org/x/sys/unix"
)

// ancestors walks the parent chain from pid with sysctl: kern.proc.pid for
// the parent and name, kern.procargs2 for the executable, command line and
// environment (readable for the user's own processes).
func ancestors(pid int) ([]Process, error) {
	var out []Process
	for n := 0; pid > 1 && n < maxAncestors; n++ {
		kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil {
			if n == 0 {
				return nil, fmt.Errorf("read the parent process: %w", err)
			}
			break
		}
		name := kp.Proc.P_comm[:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		p := Process{PID: pid, Name: string(name)}
		if raw, err := unix.SysctlRaw("kern.procargs2", pid); err == nil {
			p.Exe, p.Argv, p.Environ = parseProcArgs(raw)
		}
		out = append(out, p)
		pid = int(kp.Eproc.Ppid)
	}
	return out, nil
}
