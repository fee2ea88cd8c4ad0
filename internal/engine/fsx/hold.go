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
var ErrBusy = errors.New("file in use by another process")

// BusyError says another process has the file open or mapped in a way that
// could write it (or opened it during the swap): replacing or removing the
// file now would send what that process writes next into a file nobody
// sees any more, so it is left as it is. With [Swap.RefuseOtherOpeners]
// any other opener makes the file busy, a reader too.
type BusyError struct {
	Path    string
	Holders []Holder // the processes found, when they could be named
	During  bool     // it was opened while the swap was being made
	// Unseen says the kernel reports the file in use (its write lease
	// was refused) while no process that could be looked into holds it:
	// another user's, or one outside this PID namespace.
	Unseen bool
	// Preserved, as in ConflictError.
	Preserved string
}

// Holder is a process that has a file open or mapped.
type Holder struct {
	PID     int
	Command string
	Access  Access
}

// Access is how a process holds a file, the holds that can write first.
type Access uint8

// The holds [Holder.Access] tells apart.
const (
	// OpenForWriting: a descriptor open for writing.
	OpenForWriting Access = iota + 1
	// MappedForWriting: a shared mapping that writes the file, now or
	// once mprotect makes it writable (it was mapped from a descriptor
	// open for writing), even after that descriptor was closed.
	MappedForWriting
	// OpenForReading: a read-only descriptor. It cannot write, but the
	// process can reopen it for writing through /proc/PID/fd/N.
	OpenForReading
	// OpenPath: an O_PATH descriptor, which can be reopened the same way.
	OpenPath
	// Mapped: a private mapping, or a shared one that can never write.
	Mapped
)

// Writes reports whether the hold itself can write the file.
func (a Access) Writes() bool { return a == OpenForWriting || a == MappedForWriting }

func (a Access) String() string {
	switch a {
	case OpenForWriting:
		return "open for writing"
	case MappedForWriting:
		return "mapped for writing"
	case OpenForReading:
		return "open for reading"
	case OpenPath:
		return "open (O_PATH)"
	case Mapped:
		return "mapped read-only"
	}
	return "in use"
}

func (e *BusyError) Error() string {
	var msg string
	switch {
	case e.Unseen:
		msg = fmt.Sprintf("%s: in use by a process that cannot be looked into (another user's, or outside this PID namespace); not replaced, so nothing it writes is lost (try again once it is closed)", e.Path)
	case e.During:
		msg = fmt.Sprintf("%s: opened by %s during the swap; left as it was, so nothing it writes is lost", e.Path, e.who())
	default:
		msg = fmt.Sprintf("%s: %s; not replaced, so nothing it writes is lost (try again once it is closed)", e.Path, e.holds())
	}
	if e.Preserved != "" {
		msg += "; other content is kept at " + e.Preserved
	}
	return msg
}

// who names the holders, or "another process".
func (e *BusyError) who() string {
	if len(e.Holders) == 0 {
		return "another process"
	}
	var names []string
	for _, h := range e.Holders {
		names = append(names, fmt.Sprintf("pid %d (%s)", h.PID, h.Command))
	}
	return strings.Join(names, ", ")
}

// holds says what each holder has, grouped by the kind of hold: "open for
// writing by pid 7 (sh); mapped for writing by pid 9 (python3)". A hold
// that cannot write itself says why it still counts.
func (e *BusyError) holds() string {
	if len(e.Holders) == 0 {
		return "open for writing by another process"
	}
	var parts []string
	for a := OpenForWriting; a <= Mapped; a++ {
		var names []string
		for _, h := range e.Holders {
			if h.Access == a {
				names = append(names, fmt.Sprintf("pid %d (%s)", h.PID, h.Command))
			}
		}
		if len(names) == 0 {
			continue
		}
		part := a.String() + " by " + strings.Join(names, ", ")
		if a == OpenForReading || a == OpenPath {
			part += ", which can reopen it for writing through /proc"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// Is matches [ErrBusy].
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// leaseOutcome is what asking for a write lease gave.
type leaseOutcome uint8

const (
	leaseGranted     leaseOutcome = iota + 1
	leaseInUse                    // refused: another open file description or mapping exists
	leaseUnavailable              // refused for another reason (no leases here, not the owner)
)

// held is the original of a compare-and-swap, held open from the moment it
// is hashed until the swap is over, so that the swap can tell whether the
// very file it hashed was written meanwhile: a process that had the file
// open writes into the old file, which the swap then takes out of sight.
// Where the platform allows (Linux), a write lease is held on it too: it
// can only be taken while no other process has the file open or mapped,
// and any open by another process while it is held is seen as a broken
// lease.
type held struct {
	path     string
	expect   Hash
	f        *os.File
	fi       fs.FileInfo // the original as it was when hashed
	leased   bool
	readers  bool // any other opener counts, a reader too (Swap.RefuseOtherOpeners)
	deferDir bool // the caller fsyncs the directory of a completed swap (Swap.DeferDirSync)
}

// hold opens the file at path, makes sure no other process has it open or
// mapped in a way that could write it (with readers, open or mapped at
// all) and that it hashes to expect, and keeps it open. The refusal rules
// of [ReplaceWith] apply (symlink, not regular, hard-linked).
func hold(path string, expect Hash, sw Swap) (*held, error) {
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
	h := &held{path: path, expect: expect, f: f, readers: sw.RefuseOtherOpeners, deferDir: sw.DeferDirSync}
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
	if err := h.lease(); err != nil {
		h.close()
		return nil, err
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

// lease takes the write lease, or, when the kernel refuses it (another
// process has the file open or mapped, or there are no leases here),
// looks for the holders in /proc: one whose hold can write makes the file
// busy, and so does any other with readers. With readers, a lease refused
// as in use while nobody can be seen holding the file is busy too: the
// holder is a process /proc does not show.
func (h *held) lease() error {
	got := takeLease(h.f)
	if got == leaseGranted {
		h.leased = true
		return nil
	}
	others, selfToo, _ := openersOf(h.path, h.fi, h.f.Fd())
	return busyOf(h.path, got, others, selfToo, h.readers)
}

// busyOf decides from what /proc showed after the lease was refused (got):
// a holder that can write makes the file busy, with readers any holder
// does, and with readers so does a lease refused as in use when no
// process (this one aside) can be seen holding the file.
func busyOf(path string, got leaseOutcome, others []Holder, selfToo, readers bool) error {
	var busy []Holder
	for _, o := range others {
		if readers || o.Access.Writes() {
			busy = append(busy, o)
		}
	}
	switch {
	case len(busy) > 0:
		return &BusyError{Path: path, Holders: busy}
	case readers && got == leaseInUse && len(others) == 0 && !selfToo:
		return &BusyError{Path: path, Unseen: true}
	}
	return nil
}

// syncDone makes a completed swap in dir durable, unless the caller does.
func (h *held) syncDone(dir string) error {
	if h.deferDir {
		return nil
	}
	return syncDir(dir)
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

// opened reports whether another process opened the held file while the
// lease was held (the kernel then starts breaking the lease): for writing,
// or at all with readers; otherwise a reader's open is let through.
func (h *held) opened() bool { return h.leased && leaseBroken(h.f, h.readers) }

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
		others, _, _ := openersOf(h.path, h.fi, h.f.Fd())
		return &BusyError{Path: h.path, Holders: others, During: true}
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
		if err = ReplaceWith(path, old, SHA256(data), Swap{RefuseOtherOpeners: h.readers}); err == nil {
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
