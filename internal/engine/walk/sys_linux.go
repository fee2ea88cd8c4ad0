//go:build linux

package walk

import (
	"encoding/binary"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// On Linux the walk talks to the kernel directly: package os registers every
// opened file with the network poller (an extra epoll_ctl that fails for
// regular files), allocates an *os.File with a cleanup per file and allocates
// one DirEntry per directory entry. Bare syscalls make a file cost exactly
// open, fstat, read, close, and let O_NOFOLLOW refuse a symlink swapped in
// after the directory was listed.

// dirBufSize is the getdents buffer; large enough that most directories are
// listed in one call.
const dirBufSize = 64 << 10

// linux_dirent64 field offsets.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

func listDir(path string, ws *workerState) error {
	fd, err := openRetry(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if ws.dbuf == nil {
		ws.dbuf = make([]byte, dirBufSize)
	}
	for {
		n, err := syscall.ReadDirent(fd, ws.dbuf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return nil
		}
		parseDirents(ws.dbuf[:n], ws)
	}
}

// parseDirents appends the names and types of the linux_dirent64 records in
// buf to ws.
func parseDirents(buf []byte, ws *workerState) {
	for len(buf) >= direntName {
		reclen := int(binary.NativeEndian.Uint16(buf[direntReclen:]))
		if reclen < direntName || reclen > len(buf) {
			return
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		if binary.NativeEndian.Uint64(rec) == 0 {
			continue // no inode: a deleted entry
		}
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		var typ entType
		switch rec[direntType] {
		case syscall.DT_REG:
			typ = typeFile
		case syscall.DT_DIR:
			typ = typeDir
		case syscall.DT_LNK:
			typ = typeSymlink
		case syscall.DT_UNKNOWN:
			typ = typeUnknown
		default:
			typ = typeOther
		}
		off := len(ws.names)
		ws.names = append(ws.names, name...)
		ws.raw = append(ws.raw, rawEnt{off: off, end: len(ws.names), typ: typ})
	}
}

func readFile(path string, ws *workerState, limit int64) ([]byte, SkipReason, int64, error) {
	// O_NONBLOCK keeps a FIFO swapped in for a regular file from blocking
	// the open; it has no effect on regular files.
	fd, err := openNoAlloc(path, ws, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK)
	if err != nil {
		if err == syscall.ELOOP {
			return nil, SkipSymlink, 0, nil
		}
		return nil, SkipError, 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, SkipError, 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, SkipNotRegular, 0, nil
	}
	read := func(p []byte) (int, error) {
		for {
			n, err := syscall.Read(fd, p)
			if err == syscall.EINTR {
				continue
			}
			if n < 0 {
				n = 0
			}
			return n, err
		}
	}
	data, reason, n, err := load(read, st.Size, limit, ws)
	if err != nil {
		err = &os.PathError{Op: "read", Path: path, Err: err}
	}
	return data, reason, n, err
}

func openRetry(path string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// openNoAlloc is syscall.Open without its per-call allocation: the
// NUL-terminated path is built in the worker's scratch buffer.
func openNoAlloc(path string, ws *workerState, flags int) (int, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return -1, syscall.EINVAL
	}
	ws.cpath = append(append(ws.cpath[:0], path...), 0)
	atFDCWD := -100 // AT_FDCWD: relative paths resolve from the working directory
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD),
			uintptr(unsafe.Pointer(&ws.cpath[0])), uintptr(flags|syscall.O_LARGEFILE), 0, 0, 0)
		switch errno {
		case 0:
			return int(fd), nil
		case syscall.EINTR:
			continue
		}
		return -1, errno
	}
}
