package fsx

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// takeLease takes a write lease on f. The kernel grants it only while no
// other open file description refers to the file, readers and mappings
// included (a mapping keeps the description it was made from, even once
// its descriptor is closed); it is refused with EAGAIN then, and with
// other errors on filesystems without leases and for files the process
// does not own (without CAP_LEASE). A process that opens the file while
// the lease is held waits until it is given back (or the kernel's
// lease-break-time passes), and the holder sees the lease as breaking.
// O_PATH descriptors count for nothing here: the kernel does not see them
// as opens.
func takeLease(f *os.File) leaseOutcome {
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_WRLCK)
	switch {
	case err == nil:
		return leaseGranted
	case errors.Is(err, unix.EAGAIN):
		return leaseInUse
	}
	return leaseUnavailable
}

// leaseBroken reports whether another process asked to open the file since
// the lease was taken. While a break is pending, F_GETLEASE gives the type
// the breaker needs the lease lowered to: F_RDLCK for an opener that only
// reads, F_UNLCK for one that may write (or truncate), which would write
// into the swapped-out original. A reader counts only when readers do:
// once it has the original open it could reopen it for writing through
// /proc/PID/fd. Go ignores the SIGIO that comes with a break.
func leaseBroken(f *os.File, readers bool) bool {
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	if err != nil {
		return true
	}
	if readers {
		return t != unix.F_WRLCK
	}
	return t != unix.F_WRLCK && t != unix.F_RDLCK
}

func releaseLease(f *os.File) { _, _ = unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK) }

// openersOf lists the processes other than this one that have the file fi
// describes (path names it) open, through a descriptor of any kind, or
// mapped, from /proc/PID/fd, /proc/PID/fdinfo, /proc/PID/maps and, for a
// shared mapping that is read-only now, /proc/PID/smaps (whether it may be
// made writable). own is this process's descriptor of the file, which is
// not counted; selfToo says this process has the file open elsewhere as
// well. blind counts the processes whose entries could not be read (other
// users', without privilege): what they hold is unknown.
func openersOf(path string, fi fs.FileInfo, own uintptr) (out []Holder, selfToo bool, blind int) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false, 0
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false, 0
	}
	want := fileID{dev: uint64(st.Dev), ino: st.Ino}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		want.path = real
	}
	self := os.Getpid()
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", p.Name())
		skip := -1
		if pid == self {
			skip = int(own)
		}
		acc, readable := procAccess(dir, want, skip)
		switch {
		case !readable:
			blind++
		case acc == 0:
		case pid == self:
			selfToo = true
		default:
			comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
			out = append(out, Holder{PID: pid, Command: strings.TrimSpace(string(comm)), Access: acc})
		}
	}
	return out, selfToo, blind
}

// fileID is what a /proc entry is matched on.
type fileID struct {
	dev, ino uint64
	path     string // resolved, for filesystems whose maps show another device (btrfs subvolumes)
}

// procAccess is the strongest hold the process whose /proc directory is
// dir has on the file (0 for none), and whether its entries could be read
// at all. Descriptor skip is not counted.
func procAccess(dir string, want fileID, skip int) (Access, bool) {
	acc, fdsRead := fdAccess(dir, want, skip)
	macc, mapsRead := mapAccess(dir, want)
	return stronger(acc, macc), fdsRead || mapsRead
}

// stronger is the access that can lose more: a writer before a reader.
func stronger(a, b Access) Access {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
}

// fdAccess looks through a process's descriptors for the file.
func fdAccess(dir string, want fileID, skip int) (Access, bool) {
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return 0, false
	}
	var acc Access
	for _, fd := range fds {
		if n, err := strconv.Atoi(fd.Name()); err == nil && n == skip {
			continue
		}
		var s unix.Stat_t
		if unix.Stat(filepath.Join(dir, "fd", fd.Name()), &s) != nil || uint64(s.Dev) != want.dev || s.Ino != want.ino {
			continue
		}
		acc = stronger(acc, fdFlags(filepath.Join(dir, "fdinfo", fd.Name())))
	}
	return acc, true
}

// fdFlags reads the open flags in an fdinfo file (octal) and says what the
// descriptor can do. Unreadable means it might write.
func fdFlags(fdinfo string) Access {
	f, err := os.Open(fdinfo)
	if err != nil {
		return OpenForWriting
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "flags:")
		if !ok {
			continue
		}
		flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
		switch {
		case err != nil, flags&unix.O_ACCMODE != unix.O_RDONLY:
			return OpenForWriting
		case flags&unix.O_PATH != 0:
			return OpenPath
		}
		return OpenForReading
	}
	return OpenForWriting
}

// mapAccess looks through a process's mappings (/proc/PID/maps: "start-end
// perms offset major:minor inode path") for the file. A shared mapping
// writable now writes the file; one read-only now may still be made
// writable with mprotect when it was mapped from a descriptor open for
// writing, which smaps tells (VmFlags "mw", may write). A private mapping
// never writes the file.
func mapAccess(dir string, want fileID) (Access, bool) {
	f, err := os.Open(filepath.Join(dir, "maps"))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var acc Access
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		rng, perms, ok := mapsMatch(sc.Bytes(), want)
		if !ok {
			continue
		}
		switch {
		case perms[3] != 's':
			acc = stronger(acc, Mapped)
		case perms[1] == 'w' || mayWrite(dir, rng):
			acc = stronger(acc, MappedForWriting)
		default:
			acc = stronger(acc, Mapped)
		}
	}
	if sc.Err() != nil {
		// A maps file cut short may hide a mapping: assume the worst.
		acc = stronger(acc, MappedForWriting)
	}
	return acc, true
}

// mapsMatch parses one maps line and reports whether it maps the file,
// with its address range and permissions.
func mapsMatch(line []byte, want fileID) (rng, perms string, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 5 || len(fields[1]) != 4 {
		return "", "", false
	}
	ino, err := strconv.ParseUint(string(fields[4]), 10, 64)
	if err != nil || ino != want.ino || ino == 0 {
		return "", "", false
	}
	maj, mnr, found := bytes.Cut(fields[3], []byte(":"))
	ma, err1 := strconv.ParseUint(string(maj), 16, 32)
	mi, err2 := strconv.ParseUint(string(mnr), 16, 32)
	sameDev := found && err1 == nil && err2 == nil && unix.Mkdev(uint32(ma), uint32(mi)) == want.dev
	// The path is what the kernel prints for the mapped file; past the
	// fifth field it may hold spaces.
	samePath := false
	if want.path != "" && len(fields) >= 6 {
		if i := bytes.Index(line, []byte(" /")); i >= 0 {
			samePath = string(bytes.TrimSpace(line[i:])) == want.path
		}
	}
	if !sameDev && !samePath {
		return "", "", false
	}
	return string(fields[0]), string(fields[1]), true
}

// mayWrite reports whether the mapping at address range rng may be made
// writable (smaps VmFlags "mw"); unreadable means it may.
func mayWrite(dir, rng string) bool {
	f, err := os.Open(filepath.Join(dir, "smaps"))
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if r, _, ok := strings.Cut(line, " "); ok && strings.Contains(r, "-") && !strings.HasSuffix(r, ":") {
			in = r == rng
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Contains(" "+v+" ", " mw ")
		}
	}
	return true
}
