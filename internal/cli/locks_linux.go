package cli

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// holdsLocks reports whether this process holds a file lock or lease
// (/proc/locks): prosewash takes them only around a transaction's
// critical work (its run lock, the end-of-turn lock, the swap's lease).
// Waiting for a lock is not holding one.
func holdsLocks() bool {
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return false
	}
	pid := []byte(strconv.Itoa(os.Getpid()))
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		// "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END"; a waiter
		// has "->" after the number.
		if len(f) > 4 && !bytes.Equal(f[1], []byte("->")) && bytes.Equal(f[4], pid) {
			return true
		}
	}
	return false
}
