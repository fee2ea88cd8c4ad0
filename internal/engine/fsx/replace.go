package fsx

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// errNoExchange says the platform or filesystem cannot swap two names
// atomically; ReplaceWith then falls back to re-hash-then-rename.
var errNoExchange = errors.New("atomic exchange not supported")

// tempMarker appears in every temporary name fsx creates beside a user file,
// so recovery can find leftovers of a killed process (see Leftovers).
const tempMarker = ".prosewash-"

// keepBits are the mode bits a replacement inherits from the file it replaces.
const keepBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Swap says how [ReplaceWith] and [RemoveWith] go about a file.
type Swap struct {
	// Temp is the temporary name of the swap (from [TempName]), which the
	// caller records first (a journal), so that what a process killed in
	// the middle of the swap leaves can be found and removed; "" picks a
	// fresh one. It must not exist.
	Temp string
	// RefuseOtherOpeners makes a file busy ([*BusyError]) when any other
	// process has it open or mapped at all, a reader included, and undoes
	// the swap when one opens it meanwhile. A read-only descriptor cannot
	// write, but its process can reopen it for writing through
	// /proc/PID/fd/N after the swap, into the replaced file; only the
	// process itself knows whether it will. Unattended callers set it:
	// nobody is there to see the refusal as a mistake and run again.
	// Without it, only holds that can write make a file busy: editors'
	// watchers, language servers and pagers read files all the time.
	RefuseOtherOpeners bool
	// DeferDirSync leaves out the directory fsync that makes a completed
	// swap durable: the caller makes many swaps in one directory and
	// fsyncs it once ([SyncDir]) before it relies on any of them (a
	// journal says them done, a backup goes). A swap that is undone
	// still fsyncs at once.
	DeferDirSync bool
}

// ReplaceWith puts data at path when, and only when, the file there still
// hashes to expect: a compare-and-swap, done as sw says. The new file
// inherits the mode bits (and, where permitted, the owner) of the file it
// replaces. Symlinks and hard-linked files are refused with a
// [*RefusedError]; a content mismatch is a [*ConflictError] and the file is
// left exactly as found.
//
// The swap is a temporary file in the same directory (written, fsynced,
// chmodded) renamed over the target, then a directory fsync. Where the
// platform can exchange two names atomically (Linux renameat2
// RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP) the check is exact: the
// files are exchanged, the swapped-out file is hashed, and if it is not the
// expected original it is swapped back. Elsewhere (other Unix, filesystems
// without exchange, Windows) the file is re-hashed immediately before a plain
// rename, which leaves a window of microseconds in which a write by another
// process would be replaced. A write made after the swap through a
// descriptor or mapping made before it would go into the old file: where
// the platform shows them (Linux), a process holding the file so is looked
// for first and the file refused ([*BusyError], [Swap]).
func ReplaceWith(path string, data []byte, expect Hash, sw Swap) error {
	h, err := hold(path, expect, sw)
	if err != nil {
		return err
	}
	defer h.close()
	tmp, err := writeTemp(path, sw.Temp, "tmp", data, h.fi.Mode(), h.fi)
	if err != nil {
		return err
	}
	if exchangeSupported {
		err := exchange(tmp, path)
		if err == nil {
			return finishExchange(path, tmp, data, expect, h)
		}
		if !errors.Is(err, errNoExchange) {
			_ = os.Remove(tmp)
			return err
		}
	}
	return renameChecked(path, tmp, data, expect, h)
}

// renameChecked is the fallback without exchange: check the held original
// is still at path, untouched, then rename over it. A write that lands on
// the original after that (through a descriptor opened before) is put back
// through the same compare-and-swap, or kept aside when that fails.
func renameChecked(path, tmp string, data []byte, expect Hash, h *held) error {
	if !h.is(path) {
		_ = os.Remove(tmp)
		cur, _, _ := HashFile(path)
		return &ConflictError{Path: path, Expected: expect, Actual: cur}
	}
	if err := h.settledBefore(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if why := h.settled(); why != nil {
		return h.putBack(path, data, why)
	}
	return h.syncDone(filepath.Dir(path))
}

// finishExchange runs after tmp and path were exchanged: tmp now holds what
// was at path at that instant. It must be the held original, unopened and
// unwritten since it was hashed; otherwise it goes back.
func finishExchange(path, tmp string, data []byte, expect Hash, h *held) error {
	dir := filepath.Dir(path)
	why := h.swappedOut(tmp, path, expect)
	if why == nil {
		if err := os.Remove(tmp); err != nil {
			return fmt.Errorf("replace %s: remove the swapped-out original: %w", path, err)
		}
		return h.syncDone(dir)
	}
	if err := exchange(tmp, path); err != nil {
		preserved(why, tmp)
		return fmt.Errorf("replace %s: swap back: %v: %w", path, err, why)
	}
	// tmp holds our data again, unless someone wrote into it while it was
	// in place: then it is theirs and stays.
	if sum, ok, err := HashFile(tmp); err == nil && ok && sum == SHA256(data) {
		_ = os.Remove(tmp)
	} else {
		preserved(why, tmp)
	}
	_ = syncDir(dir)
	return why
}

// preserved records where content that could not be put back is kept.
func preserved(err error, p string) {
	var ce *ConflictError
	var be *BusyError
	switch {
	case errors.As(err, &ce):
		ce.Preserved = p
	case errors.As(err, &be):
		be.Preserved = p
	}
}

// CreateWith writes data to path only if nothing exists there, with mode's
// permission bits, as sw says (Temp and DeferDirSync apply). An existing
// file is a [*ConflictError] with Expected zero.
func CreateWith(path string, data []byte, mode fs.FileMode, sw Swap) error {
	if fi, err := os.Lstat(path); err == nil {
		var h Hash
		if fi.Mode().IsRegular() {
			h, _, _ = HashFile(path)
		}
		return &ConflictError{Path: path, Actual: h}
	} else if !os.IsNotExist(err) {
		return err
	}
	tmp, err := writeTemp(path, sw.Temp, "tmp", data, mode, nil)
	if err != nil {
		return err
	}
	if err := MoveNew(tmp, path); err != nil {
		return err
	}
	if sw.DeferDirSync {
		return nil
	}
	return syncDir(filepath.Dir(path))
}

// Remove deletes path when, and only when, it still hashes to expect. The file
// is first renamed aside (atomic), the renamed file is hashed, and only then
// unlinked; a file that turns out different is renamed back (never over a
// file that appeared meanwhile) and reported as a [*ConflictError].
func Remove(path string, expect Hash) error { return RemoveWith(path, expect, Swap{}) }

// RemoveWith is [Remove] as sw says (Temp is the name the file is renamed
// to before it goes).
func RemoveWith(path string, expect Hash, sw Swap) error {
	h, err := hold(path, expect, sw)
	if err != nil {
		return err
	}
	defer h.close()
	grave := sw.Temp
	if grave == "" {
		if grave, err = TempName(path, "del"); err != nil {
			return err
		}
	} else if _, err := os.Lstat(grave); !os.IsNotExist(err) {
		return fmt.Errorf("remove %s: temporary name %s is taken", path, grave)
	}
	if err := rename(path, grave); err != nil {
		if os.IsNotExist(err) {
			return &ConflictError{Path: path, Expected: expect}
		}
		return err
	}
	return finishRemove(path, grave, expect, h)
}

// finishRemove runs after path was renamed to grave: grave holds what was at
// path at that instant. It must be the held original, unopened and
// unwritten; then it goes, otherwise it goes back (never over a file that
// appeared meanwhile).
func finishRemove(path, grave string, expect Hash, h *held) error {
	dir := filepath.Dir(path)
	why := h.swappedOut(grave, path, expect)
	if why == nil {
		if err := os.Remove(grave); err != nil {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		return h.syncDone(dir)
	}
	if err := renameNoReplace(grave, path); err != nil {
		preserved(why, grave)
	}
	_ = syncDir(dir)
	return why
}

// WriteFileAtomic replaces path with data unconditionally (no compare): temp
// file in the same directory, fsync, rename, directory fsync. A regular file
// already at path keeps its mode bits (and, where permitted, its owner); a
// new one gets perm. It is meant for files prosewash owns or installs
// (journals, records, approvals, hooks, settings), never for a user's file,
// which only [ReplaceWith] may change.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	mode, old := perm, fs.FileInfo(nil)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		mode, old = fi.Mode(), fi
	}
	tmp, err := writeTemp(path, "", "tmp", data, mode, old)
	if err != nil {
		return err
	}
	if err := rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// SyncDir fsyncs a directory so that renames and unlinks in it are durable.
func SyncDir(dir string) error { return syncDir(dir) }

// Leftovers lists temporary files that a killed prosewash process may have
// left beside path (by ReplaceWith, CreateWith or RemoveWith). They hold either the new
// content or the old; the caller decides by hash what to do with them.
func Leftovers(path string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return LeftoversAmong(path, names), nil
}

// LeftoversAmong is [Leftovers] from names, the entries of path's directory
// as the caller listed them (once for many files of one directory).
func LeftoversAmong(path string, names []string) []string {
	dir := filepath.Dir(path)
	prefix := "." + truncName(filepath.Base(path)) + tempMarker
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && IsTempFor(path, filepath.Join(dir, n)) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// IsTempFor reports whether tmp is a name [TempName] could have given for
// path: beside it, with its (shortened) name, 16 hex digits and .tmp or
// .del. Recovery deletes nothing a journal names unless it passes this.
func IsTempFor(path, tmp string) bool {
	if filepath.Dir(tmp) != filepath.Dir(path) {
		return false
	}
	prefix := "." + truncName(filepath.Base(path)) + tempMarker
	rest, ok := strings.CutPrefix(filepath.Base(tmp), prefix)
	if !ok {
		return false
	}
	hexPart, suffix, ok := strings.Cut(rest, ".")
	if !ok || (suffix != "tmp" && suffix != "del") || len(hexPart) != 16 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil && strings.ToLower(hexPart) == hexPart
}

// writeTemp writes data to a temporary file beside target, at name (which
// must not exist) or, when name is "", at a fresh name, and returns the
// name. The file is fsynced and has mode's kept bits before it is used.
func writeTemp(target, name, suffix string, data []byte, mode fs.FileMode, old fs.FileInfo) (string, error) {
	var f *os.File
	if name != "" {
		var err error
		if f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
			return "", err
		}
	}
	for i := 0; f == nil && i < 10; i++ {
		n, err := TempName(target, suffix)
		if err != nil {
			return "", err
		}
		f, err = os.OpenFile(n, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			name = n
			break
		}
		if !os.IsExist(err) {
			return "", err
		}
	}
	if f == nil {
		return "", fmt.Errorf("create temporary file beside %s: too many collisions", target)
	}
	fail := func(err error) (string, error) {
		_ = f.Close()
		_ = os.Remove(name)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(mode & keepBits); err != nil {
		return fail(err)
	}
	if old != nil {
		keepOwner(f, old)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return "", err
	}
	return name, nil
}

// TempName returns a random temporary name beside target, the kind
// [Leftovers] finds: suffix is "tmp" for new content, "del" for a file
// being removed.
func TempName(target, suffix string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	dir := filepath.Dir(target)
	return filepath.Join(dir, "."+truncName(filepath.Base(target))+tempMarker+hex.EncodeToString(b[:])+"."+suffix), nil
}

// truncName keeps temporary names under the 255-byte name limit without
// cutting a UTF-8 sequence (macOS refuses invalid UTF-8 names).
func truncName(base string) string {
	const max = 200
	if len(base) <= max {
		return base
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut--
	}
	return base[:cut]
}

// WriteNew creates a private (0600) file that must not exist yet, writes it
// and fsyncs it: for backups and bin entries, which are never overwritten.
func WriteNew(p string, b []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
