package fsx

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// takeLease takes a write lease on f. The kernel grants it only while no
// other open file description refers to the file, readers included; it
// fails as well on filesystems without leases and for files the process
// does not own (without CAP_LEASE). A process that opens the file while
// the lease is held waits until it is given back (or the kernel's
// lease-break-time passes), and the holder sees the lease as breaking.
func takeLease(f *os.File) bool {
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_WRLCK)
	return err == nil
}

// leaseBroken reports whether another process asked to open the file for
// writing (or to truncate it) since the lease was taken. While a break is
// pending, F_GETLEASE gives the type the breaker needs the lease lowered
// to: F_RDLCK for an opener that only reads, which can lose nothing (after
// the swap it reads the original as it was), F_UNLCK for one that may
// write, which would write into the swapped-out original. Go ignores the
// SIGIO that comes with a break.
func leaseBroken(f *os.File) bool {
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	return err != nil || (t != unix.F_WRLCK && t != unix.F_RDLCK)
}

func releaseLease(f *os.File) { _, _ = unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK) }

// openWriters lists the processes, other than this one, that have the file
// open for writing, from /proc/PID/fd and /proc/PID/fdinfo. Processes of
// other users cannot be looked into and are not listed.
func openWriters(fi fs.FileInfo) []Holder {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []Holder
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		dir := filepath.Join("/proc", p.Name())
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			var s unix.Stat_t
			if unix.Stat(filepath.Join(dir, "fd", fd.Name()), &s) != nil || uint64(s.Dev) != uint64(st.Dev) || s.Ino != st.Ino {
				continue
			}
			if !fdWrites(filepath.Join(dir, "fdinfo", fd.Name())) {
				continue
			}
			comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
			out = append(out, Holder{PID: pid, Command: strings.TrimSpace(string(comm))})
			break
		}
	}
	return out
}

// fdWrites reads the open flags in an fdinfo file (octal) and reports
// whether the descriptor can write. Unreadable means it might.
func fdWrites(fdinfo string) bool {
	f, err := os.Open(fdinfo)
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err != nil || flags&unix.O_ACCMODE != unix.O_RDONLY
		}
	}
	return true
}
