//go:build linux

package holdfile

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// Mode is how the file is held.
type Mode string

// The holds.
const (
	// MapWrite maps the file MAP_SHARED, readable and writable, from a
	// descriptor open for reading and writing, then closes the
	// descriptor; each write fills the next Slot through the mapping.
	MapWrite Mode = "map-write"
	// MapProtect is MapWrite with the mapping read-only between writes:
	// each write makes it writable with mprotect first (possible because
	// it was mapped from a descriptor open for writing), then read-only
	// again.
	MapProtect Mode = "map-mprotect"
	// MapRead maps the file MAP_SHARED and read-only from a read-only
	// descriptor, closed; it can never write, and writes are refused.
	MapRead Mode = "map-read"
	// Reopen keeps a read-only descriptor; each write reopens it through
	// /proc/self/fd/N for appending and appends "holder line N".
	Reopen Mode = "reopen-append"
	// Read keeps a read-only descriptor and never writes.
	Read Mode = "read"
)

// Slot is the placeholder a mapping write fills: the file must hold one
// per write, and each write turns the first one left into Filled.
const (
	Slot   = "______"
	Filled = "filled"
)

// Line is what the n-th Reopen write appends.
func Line(n int) string { return fmt.Sprintf("holder line %d\n", n) }

// Main runs the holder: it holds FILE as -mode says, creates -ready once
// the hold is in place (a mapping's descriptor closed), waits -after, then
// writes (up to -count times, every -every, until -stop exists), appending
// the number of each write to -log once it is done, and exits 0. Exit 2
// is a bad invocation, 1 a hold or write that failed.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("holdfile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mode := fs.String("mode", string(MapWrite), "map-write, map-mprotect, map-read, reopen-append or read")
	ready := fs.String("ready", "", "file to create once the file is held")
	logPath := fs.String("log", "", "file the number of each finished write is appended to")
	stop := fs.String("stop", "", "stop writing (and exit) once this file exists")
	after := fs.Duration("after", 0, "wait this long after the hold before the first write")
	every := fs.Duration("every", 10*time.Millisecond, "time between writes")
	count := fs.Int("count", 1, "writes to make; 0 means until -stop exists")
	hold := fs.Duration("hold", 0, "keep holding this long after the last write")
	step := fs.String("step", "", "before write N, wait until this file holds a number of at least N (written by whoever asks for writes)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: holdfile [flags] FILE")
		return 2
	}
	h, err := open(Mode(*mode), fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "holdfile: %v\n", err)
		return 1
	}
	if *ready != "" {
		if err := os.WriteFile(*ready, nil, 0o600); err != nil {
			fmt.Fprintf(stderr, "holdfile: %v\n", err)
			return 1
		}
	}
	time.Sleep(*after)
	n, err := h.loop(pacing{count: *count, every: *every, stop: *stop, step: *step}, *logPath)
	fmt.Fprintf(stdout, "holdfile: %d writes\n", n)
	if err != nil {
		fmt.Fprintf(stderr, "holdfile: %v\n", err)
		return 1
	}
	time.Sleep(*hold)
	return 0
}

// holder is a file held one way.
type holder struct {
	mode Mode
	fd   int    // the read-only descriptor (Read, Reopen)
	mem  []byte // the mapping (Map*)
}

func open(mode Mode, path string) (*holder, error) {
	h := &holder{mode: mode, fd: -1}
	flags, prot := unix.O_RDWR, unix.PROT_READ|unix.PROT_WRITE
	switch mode {
	case Read, Reopen:
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		h.fd = fd
		return h, nil
	case MapWrite:
	case MapProtect:
		prot = unix.PROT_READ
	case MapRead:
		flags, prot = unix.O_RDONLY, unix.PROT_READ
	default:
		return nil, fmt.Errorf("unknown mode %q", mode)
	}
	fd, err := unix.Open(path, flags|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd) // the mapping outlives its descriptor
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Size == 0 {
		return nil, errors.New("cannot map an empty file")
	}
	h.mem, err = unix.Mmap(fd, 0, int(st.Size), prot, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	return h, nil
}

// pacing says when the writes come.
type pacing struct {
	count int           // 0: until stop exists
	every time.Duration // between two writes
	stop  string        // stop once this file exists
	step  string        // write N only once this file holds N or more
}

// next waits for the time of write n (from 1) and reports whether it comes.
func (pc pacing) next(n int) bool {
	for {
		if pc.count > 0 && n > pc.count {
			return false
		}
		if pc.stop != "" {
			if _, err := os.Stat(pc.stop); err == nil {
				return false
			}
		}
		if pc.step == "" {
			if n > 1 {
				time.Sleep(pc.every)
			}
			return true
		}
		if b, err := os.ReadFile(pc.step); err == nil {
			if k, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil && k >= n {
				return true
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// loop makes the writes and returns how many were made. A hold that
// cannot write makes none: it waits for stop (or its first write's time,
// with a count) instead.
func (h *holder) loop(pc pacing, logPath string) (int, error) {
	if h.mode == Read || h.mode == MapRead {
		pc.next(1)
		return 0, nil
	}
	n := 0
	for pc.next(n + 1) {
		if err := h.write(n + 1); err != nil {
			return n, err
		}
		n++
		if logPath != "" {
			if err := appendLine(logPath, strconv.Itoa(n)+"\n"); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// write makes the n-th write.
func (h *holder) write(n int) error {
	switch h.mode {
	case Reopen:
		// The descriptor is read-only; /proc/self/fd/N opens the file it
		// refers to anew, whatever name it has (or none).
		fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(h.fd), unix.O_WRONLY|unix.O_APPEND|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("reopen: %w", err)
		}
		defer unix.Close(fd)
		_, err = unix.Write(fd, []byte(Line(n)))
		return err
	case MapWrite, MapProtect:
		i := bytes.Index(h.mem, []byte(Slot))
		if i < 0 {
			return fmt.Errorf("write %d: no slot left in the mapping", n)
		}
		if h.mode == MapProtect {
			if err := unix.Mprotect(h.mem, unix.PROT_READ|unix.PROT_WRITE); err != nil {
				return fmt.Errorf("mprotect: %w", err)
			}
		}
		copy(h.mem[i:], Filled)
		if err := msync(h.mem); err != nil {
			return err
		}
		if h.mode == MapProtect {
			return unix.Mprotect(h.mem, unix.PROT_READ)
		}
		return nil
	}
	return fmt.Errorf("a %s hold cannot write", h.mode)
}

func msync(b []byte) error {
	if err := unix.Msync(b, unix.MS_SYNC); err != nil {
		return fmt.Errorf("msync: %w", err)
	}
	return nil
}

func appendLine(p, s string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
