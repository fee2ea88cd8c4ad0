package provider

import (
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// execFile is the path that executes the descriptor a child inherits at
// position i of ExtraFiles (descriptor 3+i): /proc/self/fd/N names the open
// file itself, whatever its path names by then. ok is false without /proc.
func execFile(i int) (string, bool) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return "", false
	}
	return "/proc/self/fd/" + strconv.Itoa(3+i), true
}

// sameChangeTime compares the inode change times: a write, a chmod or a
// rename moves it, and nothing a user runs can set it back.
func sameChangeTime(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Ctim == sb.Ctim
}
