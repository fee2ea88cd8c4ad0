package fsx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// ErrBusy is matched by every [BusyError].
var ErrBusy = errors.New("file open for writing by another process")

// BusyError says another process has the file open for writing (or opened
// it during the swap): replacing or removing the file now would send what
// that process writes next into a file nobody sees any more, so it is left
// as it is.
type BusyError struct {
	Path    string
	Holders []Holder // the writers found, when they could be named
	During  bool     // it was opened while the swap was being made
	// Preserved, as in ConflictError.
	Preserved string
}

// Holder is a process that has a file open.
type Holder struct {
	PID     int
	Command string
}

func (e *BusyError) Error() string {
	who := "another process"
	if len(e.Holders) > 0 {
		var names []string
		for _, h := range e.Holders {
			names = append(names, fmt.Sprintf("pid %d (%s)", h.PID, h.Command))
		}
		who = strings.Join(names, ", ")
	}
	msg := fmt.Sprintf("%s: open for writing by %s; not replaced, so nothing it writes is lost (try again once it is closed)", e.Path, who)
	if e.During {
		msg = fmt.Sprintf("%s: opened by %s during the swap; left as it was, so nothing it writes is lost", e.Path, who)
	}
	if e.Preserved != "" {
		msg += "; other content is kept at " + e.Preserved
	}
	return msg
}

// Is matches [ErrBusy].
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// held is the original of a compare-and-swap, held open from the moment it
// is hashed until the swap is over, so that the swap can tell whether the
// very file it hashed was written meanwhile: a process that had the file
// open writes into the old file, which the swap then takes out of sight.
// Where the platform allows (Linux), a write lease is held on it too: it
// can only be taken while no other process has the file open, and any
// open by another process while it is held is seen as a broken lease.
type held struct {
	path   string
	expect Hash
	f      *os.File
	fi     fs.FileInfo // the original as it was when hashed
	leased bool
}

// hold opens the file at path, makes sure no other process has it open for
// writing and that it hashes to expect, and keeps it open. The refusal
// rules of [Replace] apply (symlink, not regular, hard-linked).
func hold(path string, expect Hash) (*held, error) {
	conflict := func() error {
		cur, _, _ := HashFile(path)
		return &ConflictError{Path: path, Expected: expect, Actual: cur}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, &ConflictError{Path: path, Expected: expect}
		}
		return nil, err
	}
	if err := checkFile(path, fi, nil, 0); err != nil {
		return nil, err
	}
	f, err := openNoFollow(path)
	if err != nil {
		switch {
		case os.IsNotExist(err):
			return nil, &ConflictError{Path: path, Expected: expect}
		case isSymlinkOpenErr(err):
			return nil, &RefusedError{Path: path, Kind: Symlink}
		}
		return nil, err
	}
	h := &held{path: path, expect: expect, f: f}
	if h.fi, err = f.Stat(); err != nil {
		h.close()
		return nil, err
	}
	if !os.SameFile(fi, h.fi) {
		h.close()
		return nil, conflict()
	}
	if err := checkFile(path, h.fi, f, 0); err != nil {
		h.close()
		return nil, err
	}
	if takeLease(f) {
		h.leased = true
	} else if w := openWriters(h.fi); len(w) > 0 {
		// Readers also keep a lease from being taken (as do filesystems
		// without leases); only a writer makes the file busy.
		h.close()
		return nil, &BusyError{Path: path, Holders: w}
	}
	cur, err := h.hash()
	if err != nil {
		h.close()
		return nil, err
	}
	if cur != expect {
		h.close()
		return nil, &ConflictError{Path: path, Expected: expect, Actual: cur}
	}
	// The reference for "not written since" is taken after the hash.
	if h.fi, err = f.Stat(); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// hash reads the held file from the start. It never opens the file again:
// with a lease held, a second open would break it.
func (h *held) hash() (Hash, error) {
	if _, err := h.f.Seek(0, io.SeekStart); err != nil {
		return Hash{}, err
	}
	sum, err := HashReader(h.f)
	if err != nil {
		return Hash{}, fmt.Errorf("hash %s: %w", h.path, err)
	}
	return sum, nil
}

// is reports whether p is the held file, with its single name.
func (h *held) is(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && os.SameFile(fi, h.fi) && linkCount(fi, nil) == 1
}

// written reports whether the held file was written since it was hashed:
// its size or modification time moved.
func (h *held) written() bool {
	now, err := h.f.Stat()
	return err != nil || now.Size() != h.fi.Size() || !now.ModTime().Equal(h.fi.ModTime())
}

// opened reports whether another process opened the held file for writing
// while the lease was held (the kernel then starts breaking the lease); a
// reader's open is let through.
func (h *held) opened() bool { return h.leased && leaseBroken(h.f) }

// unlease gives the lease back: a process waiting to open the file goes on.
func (h *held) unlease() {
	if h.leased {
		releaseLease(h.f)
		h.leased = false
	}
}

func (h *held) close() {
	h.unlease()
	_ = h.f.Close()
}

// settledBefore is the check before a swap that cannot be undone (a plain
// rename over the original): not opened by another process, not written.
func (h *held) settledBefore() error {
	if h.opened() {
		return &BusyError{Path: h.path, Holders: openWriters(h.fi), During: true}
	}
	if h.written() {
		return h.changedError()
	}
	return nil
}

// settled is the last look before the swapped-out original goes: not
// opened during the swap (lease) and not written since it was hashed, both
// before and after the lease is given back (a process that was waiting on
// the lease may write at once). It returns nil, or the error to report
// after the swap is undone.
func (h *held) settled() error {
	if err := h.settledBefore(); err != nil {
		return err
	}
	h.unlease()
	if h.written() {
		return h.changedError()
	}
	return nil
}

// changedError is the conflict of a held file written during the swap.
func (h *held) changedError() error {
	cur, _ := h.hash()
	return &ConflictError{Path: h.path, Expected: h.expect, Actual: cur, Written: true}
}

// putBack runs when the original was written after a plain rename took it
// out of sight: its content now (the writer's bytes included) goes back in
// place of data through the same compare-and-swap, or, when that fails, is
// kept beside the file. why is returned, either way: the file was not
// cleaned.
func (h *held) putBack(path string, data []byte, why error) error {
	old, err := h.readAll()
	if err == nil {
		if err = ReplaceVia(path, old, SHA256(data), ""); err == nil {
			return why
		}
	}
	if keep, terr := TempName(path, "tmp"); terr == nil && WriteNew(keep, old) == nil {
		preserved(why, keep)
	}
	return why
}

// readAll reads the held file from the start.
func (h *held) readAll() ([]byte, error) {
	if _, err := h.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(h.f)
}

// swappedOut judges what a swap moved aside from path to moved: nil when it
// is the held original, not opened for writing and not written since it was
// hashed; otherwise the error to report once the swap is undone (a file
// that replaced the original between the check and the swap is a conflict).
func (h *held) swappedOut(moved, path string, expect Hash) error {
	if h.is(moved) {
		return h.settled()
	}
	old, _, _ := HashFile(moved)
	return &ConflictError{Path: path, Expected: expect, Actual: old}
}
