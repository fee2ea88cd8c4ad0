package fsx

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// Identity is what prosewash remembers about a file it read, so that a later
// step can tell whether it is still the same file with the same content.
type Identity struct {
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	// Dev and Ino identify the file where the platform exposes them (HasID).
	Dev, Ino uint64
	HasID    bool
	Nlink    uint64
	Hash     Hash
}

// ReadFile reads a regular file that prosewash may later replace. It refuses
// symbolic links, non-regular files, hard-linked files and files over limit
// (limit <= 0 means no limit) with a [*RefusedError] naming the path.
func ReadFile(path string, limit int64) ([]byte, Identity, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, Identity{}, err
	}
	if err := checkFile(path, fi, nil, limit); err != nil {
		return nil, Identity{}, err
	}
	f, err := openNoFollow(path)
	if err != nil {
		if isSymlinkOpenErr(err) {
			return nil, Identity{}, &RefusedError{Path: path, Kind: Symlink}
		}
		return nil, Identity{}, err
	}
	defer f.Close()
	fi2, err := f.Stat()
	if err != nil {
		return nil, Identity{}, err
	}
	if !os.SameFile(fi, fi2) {
		return nil, Identity{}, &RefusedError{Path: path, Kind: Changed}
	}
	if err := checkFile(path, fi2, f, limit); err != nil {
		return nil, Identity{}, err
	}
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, Identity{}, fmt.Errorf("read %s: %w", path, err)
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, Identity{}, &RefusedError{Path: path, Kind: TooLarge, Size: int64(len(data)), Limit: limit}
	}
	id := identityOf(fi2, f)
	id.Hash = SHA256(data)
	return data, id, nil
}

// HashFile returns the digest of the regular file at path without following
// a symlink there; ok is false when nothing exists at path. Unlike ReadFile it
// streams, has no size limit and accepts hard links: it only answers "what
// is there now", which recovery needs even for files it would not replace.
func HashFile(path string) (h Hash, ok bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return Hash{}, false, nil
		}
		return Hash{}, false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return Hash{}, true, &RefusedError{Path: path, Kind: Symlink}
	}
	if !fi.Mode().IsRegular() {
		return Hash{}, true, &RefusedError{Path: path, Kind: NotRegular}
	}
	f, err := openNoFollow(path)
	if err != nil {
		if os.IsNotExist(err) {
			return Hash{}, false, nil
		}
		if isSymlinkOpenErr(err) {
			return Hash{}, true, &RefusedError{Path: path, Kind: Symlink}
		}
		return Hash{}, true, err
	}
	defer f.Close()
	fi2, err := f.Stat()
	if err != nil {
		return Hash{}, true, err
	}
	if !fi2.Mode().IsRegular() {
		return Hash{}, true, &RefusedError{Path: path, Kind: NotRegular}
	}
	h, err = HashReader(f)
	if err != nil {
		return Hash{}, true, fmt.Errorf("hash %s: %w", path, err)
	}
	return h, true, nil
}

// checkFile applies the refusal rules to what Lstat or Fstat returned.
// f, when not nil, is the open file (Windows needs a handle to count links).
func checkFile(path string, fi fs.FileInfo, f *os.File, limit int64) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &RefusedError{Path: path, Kind: Symlink}
	}
	if !fi.Mode().IsRegular() {
		return &RefusedError{Path: path, Kind: NotRegular}
	}
	if n := linkCount(fi, f); n > 1 {
		return &RefusedError{Path: path, Kind: HardLinked, Links: n}
	}
	if limit > 0 && fi.Size() > limit {
		return &RefusedError{Path: path, Kind: TooLarge, Size: fi.Size(), Limit: limit}
	}
	return nil
}
