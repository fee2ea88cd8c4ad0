package approval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ancestors walks the parent chain from pid through /proc. It stops at
// init (pid 1) or at the first process it cannot read (another user's,
// under hidepid): an agent runs as the user, so its processes are readable.
func ancestors(pid int) ([]Process, error) {
	var out []Process
	for n := 0; pid > 1 && n < maxAncestors; n++ {
		dir := filepath.Join("/proc", strconv.Itoa(pid))
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			if n == 0 {
				return nil, fmt.Errorf("read the parent process: %w", err)
			}
			break
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		end := bytes.LastIndexByte(stat, ')')
		start := bytes.IndexByte(stat, '(')
		if end < 0 || start < 0 || start > end {
			break
		}
		fields := strings.Fields(string(stat[end+1:]))
		if len(fields) < 2 {
			break
		}
		ppid, err := strconv.Atoi(fields[1])
		if err != nil {
			break
		}
		p := Process{PID: pid, Name: string(stat[start+1 : end])}
		if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
			p.Argv = splitNUL(b)
		}
		p.Exe, _ = os.Readlink(filepath.Join(dir, "exe"))
		if b, err := os.ReadFile(filepath.Join(dir, "environ")); err == nil {
			p.Environ = splitNUL(b)
		}
		out = append(out, p)
		pid = ppid
	}
	return out, nil
}

func splitNUL(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0}) {
		out = append(out, string(f))
	}
	return out
}
