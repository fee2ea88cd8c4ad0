package fsx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// RemoveIdentical deletes path when, and only when, it is still the file want describes: a
// plain regular file with one link, the same size and modification time, the same device and
// inode (where the platform has them) and the same content hash. The identity is checked by a
// stat, then [RemoveWith] holds the file, hashes it as a stream (no size limit, bounded memory),
// renames it aside to sw.Temp (recorded by the caller first; "" picks a name) and unlinks it only
// if it is still that file, unopened and unwritten; a file that turns out different is put back
// (never over a file that appeared meanwhile) and reported as a [*ConflictError].
func RemoveIdentical(path string, want Identity, sw Swap) error {
	if want.Hash.IsZero() {
		return fmt.Errorf("remove %s: no expected hash", path)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return &ConflictError{Path: path, Expected: want.Hash}
		}
		return err
	}
	if err := checkFile(path, fi, nil, 0); err != nil {
		return err
	}
	if !sameIdentity(identityOf(fi, nil), want) {
		return &ConflictError{Path: path, Expected: want.Hash}
	}
	return RemoveWith(path, want.Hash, sw)
}

// sameIdentity compares what a stat can tell without reading: size, modification time and,
// when both sides have them, device and inode.
func sameIdentity(got, want Identity) bool {
	if got.Size != want.Size || !got.ModTime.Equal(want.ModTime) {
		return false
	}
	if got.HasID && want.HasID && (got.Dev != want.Dev || got.Ino != want.Ino) {
		return false
	}
	return true
}

// Stat returns what prosewash remembers of a regular file without reading it (Hash unset):
// a symlink, a non-regular file, a hard-linked file and a cloud placeholder are refused.
func Stat(path string) (Identity, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Identity{}, err
	}
	if err := checkFile(path, fi, nil, 0); err != nil {
		return Identity{}, err
	}
	if IsPlaceholder(fi) {
		return Identity{}, &RefusedError{Path: path, Kind: Placeholder}
	}
	return identityOf(fi, nil), nil
}

// CreateFrom writes what r yields to path only if nothing exists there, and only if it hashes
// to want: streamed through a temporary file beside path (tmp, recorded by the caller first,
// or a fresh name when ""; fsynced, given mode's permission
// bits and the modification time mtime when it is not zero), then moved into place without
// replacing anything, then the directory is fsynced. A hash mismatch removes the temporary
// file and writes nothing; an existing file is a [*ConflictError].
func CreateFrom(path string, r io.Reader, want Hash, mode fs.FileMode, mtime time.Time, tmp string) error {
	if _, err := os.Lstat(path); err == nil {
		h, _, _ := HashFile(path)
		return &ConflictError{Path: path, Actual: h}
	} else if !os.IsNotExist(err) {
		return err
	}
	tmp, err := writeTempFrom(path, tmp, r, want, mode)
	if err != nil {
		return err
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(tmp, mtime, mtime); err != nil {
			_ = os.Remove(tmp)
			return err
		}
	}
	if err := MoveNew(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeTempFrom streams r into a temporary file beside target (at name when given, which
// must not exist, else at a fresh name), hashing it; the file is fsynced and chmodded, and
// removed again unless its hash is want.
func writeTempFrom(target, name string, r io.Reader, want Hash, mode fs.FileMode) (string, error) {
	if name == "" {
		n, err := TempName(target, "tmp")
		if err != nil {
			return "", err
		}
		name = n
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		_ = f.Close()
		_ = os.Remove(name)
		return "", err
	}
	h := newHasher()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		return fail(err)
	}
	if got := h.sum(); got != want {
		return fail(fmt.Errorf("%s: the content to write hashes to %s, not %s", target, got.Short(), want.Short()))
	}
	if err := f.Chmod(mode & keepBits); err != nil {
		return fail(err)
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

// WriteStream streams r into a fresh temporary file beside target (0600, fsynced) and returns
// its name and the hash of what was written; the caller moves it into place (MoveNew) or
// removes it. Its name is one [Leftovers] finds.
func WriteStream(target string, r io.Reader) (string, Hash, error) {
	name, err := TempName(target, "tmp")
	if err != nil {
		return "", Hash{}, err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", Hash{}, err
	}
	h := newHasher()
	_, err = io.Copy(io.MultiWriter(f, h), r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", Hash{}, err
	}
	return name, h.sum(), nil
}

// MoveNew renames tmp to path only if nothing exists at path; when it cannot, tmp is removed
// and a file already at path is a [*ConflictError]. The directory is not fsynced: the caller
// syncs it (SyncDir) before it relies on the move.
func MoveNew(tmp, path string) error {
	if err := renameNoReplace(tmp, path); err != nil {
		_ = os.Remove(tmp)
		if errors.Is(err, fs.ErrExist) {
			h, _, _ := HashFile(path)
			return &ConflictError{Path: path, Actual: h}
		}
		return err
	}
	return nil
}
