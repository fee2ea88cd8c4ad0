//go:build unix

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNoFollow opens path for reading without following a final symlink and
// without blocking on a FIFO that was swapped in after the Lstat.
func openNoFollow(path string) (*os.File, error) { return openInput(path, false) }

// openInput opens path for reading without blocking on a FIFO or device
// (O_NONBLOCK changes nothing for a regular file) and, unless follow, without
// following a final symlink.
func openInput(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}

// openWrite opens path for writing, creating it 0600, without blocking on
// a FIFO and, unless follow, without following a final symlink.
func openWrite(path string, extra int, follow bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | syscall.O_NONBLOCK | extra
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0o600)
}

func isSymlinkOpenErr(err error) bool { return errors.Is(err, syscall.ELOOP) }

func linkCount(fi fs.FileInfo, _ *os.File) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

func identityOf(fi fs.FileInfo, _ *os.File) Identity {
	id := Identity{Mode: fi.Mode(), Size: fi.Size(), ModTime: fi.ModTime(), Nlink: 1}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino, id.HasID, id.Nlink = uint64(st.Dev), uint64(st.Ino), true, uint64(st.Nlink)
	}
	return id
}

// keepOwner gives the new file the owner and group of the one it replaces.
// Only root (or a member of the group) may do this; failure is not an error
// because an unprivileged user's file already has the user as owner.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	nfi, err := f.Stat()
	if err != nil {
		return
	}
	nst, ok := nfi.Sys().(*syscall.Stat_t)
	if !ok || (nst.Uid == st.Uid && nst.Gid == st.Gid) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

// syncDir makes a rename or unlink in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	// Some filesystems (and some CI sandboxes) refuse fsync on a directory;
	// the rename itself has happened, so that is not a failure of the swap.
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return nil
	}
	return err
}

func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// linkNoReplace moves oldpath to newpath only if newpath does not exist, by
// hard-linking (which fails with EEXIST) and then unlinking the old name.
func linkNoReplace(oldpath, newpath string) error {
	if err := os.Link(oldpath, newpath); err != nil {
		return err
	}
	return os.Remove(oldpath)
}

func isUnsupported(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// IsPlaceholder reports a file that claims a size but has no blocks on this disk: a cloud-sync
// placeholder (iCloud, OneDrive, Dropbox online-only files) whose data is elsewhere.
func IsPlaceholder(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && fi.Size() > 0 && st.Blocks == 0
}
