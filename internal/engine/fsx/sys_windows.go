package fsx

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// exchangeSupported is false: Windows has no atomic swap of two names, so
// ReplaceWith re-hashes and then renames (see ReplaceWith for the residual window).
const exchangeSupported = false

func exchange(a, b string) error { return errNoExchange }

// openNoFollow cannot refuse a reparse point at open time on Windows; the
// caller compares the opened file with the Lstat result instead.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

// openInput is os.Open: Windows has no FIFOs in the file namespace that an
// open could block on, and callers compare what they opened with Lstat.
func openInput(path string, _ bool) (*os.File, error) { return os.Open(path) }

// openWrite opens path for writing, creating it: Windows has no FIFOs an
// open could block on, and the caller checks what it opened.
func openWrite(path string, extra int, _ bool) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|extra, 0o600)
}

func isSymlinkOpenErr(error) bool { return false }

// linkCount needs an open handle on Windows; without one it assumes one link
// and the check is repeated once the file is open.
func linkCount(_ fs.FileInfo, f *os.File) uint64 {
	if f == nil {
		return 1
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return 1
	}
	return uint64(info.NumberOfLinks)
}

func identityOf(fi fs.FileInfo, f *os.File) Identity {
	id := Identity{Mode: fi.Mode(), Size: fi.Size(), ModTime: fi.ModTime(), Nlink: 1}
	if f == nil {
		return id
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err == nil {
		id.Dev = uint64(info.VolumeSerialNumber)
		id.Ino = uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow)
		id.HasID = true
		id.Nlink = uint64(info.NumberOfLinks)
	}
	return id
}

func keepOwner(*os.File, fs.FileInfo) {}

// syncDir is a no-op: Windows cannot open a directory for FlushFileBuffers
// through os.Open, and NTFS journals the rename metadata itself.
func syncDir(string) error { return nil }

// rename retries while another process (an editor, the indexer, antivirus)
// holds the target open without FILE_SHARE_DELETE. MoveFileEx with
// MOVEFILE_REPLACE_EXISTING is not guaranteed atomic (golang/go#22397).
func rename(oldpath, newpath string) error {
	delay := time.Millisecond
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := os.Rename(oldpath, newpath)
		if err == nil || !retryable(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
		if delay < 128*time.Millisecond {
			delay *= 2
		}
	}
}

func retryable(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
}

// renameNoReplace renames without MOVEFILE_REPLACE_EXISTING, so an existing
// target makes it fail.
func renameNoReplace(a, b string) error {
	from, err := windows.UTF16PtrFromString(a)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(b)
	if err != nil {
		return err
	}
	if err := windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH); err != nil {
		if errors.Is(err, windows.ERROR_ALREADY_EXISTS) || errors.Is(err, windows.ERROR_FILE_EXISTS) {
			return &os.LinkError{Op: "rename", Old: a, New: b, Err: fs.ErrExist}
		}
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
	return nil
}

// IsPlaceholder reports a cloud-sync placeholder; Windows marks them with a recall attribute
// this build does not read, so it reports none (the archive refuses nothing here on that
// ground, and reading such a file downloads it).
func IsPlaceholder(fs.FileInfo) bool { return false }
