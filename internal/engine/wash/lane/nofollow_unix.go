//go:build unix

package lane

import "syscall"

// syscallNoFollow refuses to open a state slot that is a symbolic link.
const syscallNoFollow = syscall.O_NOFOLLOW
