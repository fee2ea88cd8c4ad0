package fsx

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// OpenRegular opens an input file (a configuration, a memory file, a file
// to classify or verify) without ever blocking and without reading
// anything but a regular file: anything Lstat shows as not regular is
// refused before it is opened (opening some devices has effects), the open
// itself is non-blocking (a FIFO swapped in meanwhile opens at once instead
// of waiting for a writer) and fstat of the open file must say regular.
// follow=false refuses a final symbolic link. Refusals are [*RefusedError];
// a missing file is the open error (fs.ErrNotExist).
func OpenRegular(path string, follow bool) (*os.File, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if !follow {
			return nil, nil, &RefusedError{Path: path, Kind: Symlink}
		}
		if fi, err = os.Stat(path); err != nil {
			return nil, nil, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &RefusedError{Path: path, Kind: NotRegular}
	}
	f, err := openInput(path, follow)
	if err != nil {
		if isSymlinkOpenErr(err) {
			return nil, nil, &RefusedError{Path: path, Kind: Symlink}
		}
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &RefusedError{Path: path, Kind: NotRegular}
	}
	return f, fi, nil
}

// OpenWriteRegular opens a state or record file (a session record, a
// state slot, a log) for writing, creating it 0600, with extra flags
// (os.O_APPEND), without ever blocking or writing anything but a regular
// file: the open is non-blocking (a FIFO put there opens at once, or fails
// for want of a reader, instead of waiting for one) and fstat of the open
// file must say regular. follow=false refuses a final symbolic link.
func OpenWriteRegular(path string, extra int, follow bool) (*os.File, error) {
	// What is there already is named before the open, which for a FIFO
	// without a reader would only say ENXIO.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &RefusedError{Path: path, Kind: NotRegular}
	}
	f, err := openWrite(path, extra, follow)
	if err != nil {
		if isSymlinkOpenErr(err) {
			return nil, &RefusedError{Path: path, Kind: Symlink}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &RefusedError{Path: path, Kind: NotRegular}
	}
	return f, nil
}

// ReadRegular reads an input file through [OpenRegular]. limit > 0 refuses
// a file whose size is over it before a byte is read, and never reads more
// than limit+1 bytes (files such as those in /proc report size 0).
func ReadRegular(path string, limit int64, follow bool) ([]byte, error) {
	f, fi, err := OpenRegular(path, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if limit > 0 && fi.Size() > limit {
		return nil, &RefusedError{Path: path, Kind: TooLarge, Size: fi.Size(), Limit: limit}
	}
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, &RefusedError{Path: path, Kind: TooLarge, Size: int64(len(data)), Limit: limit}
	}
	return data, nil
}
