package walk

import (
	"bytes"
	"io"
	"os"
	"unicode/utf8"
)

// probeThreshold is the size above which a file is read in two steps, the
// first BinaryPrefix bytes and then the rest, so that a large binary (an
// archive, a static library) costs one short read instead of a full one.
// Smaller files are read with a single read call.
const probeThreshold = 64 << 10

// minBuffer is the smallest file buffer a worker allocates.
const minBuffer = 64 << 10

// load reads a file whose stat size is size through read into the worker's
// buffer. It returns the content, or a skip reason: binary, or too large
// (also when the file grows past limit while being read; limit < 0 means
// none). A file is normally
// read with one read call of size+1 bytes: the extra byte detects growth.
func load(read func([]byte) (int, error), size, limit int64, ws *workerState) (data []byte, reason SkipReason, n int64, err error) {
	if limit >= 0 && size > limit {
		return nil, SkipTooLarge, size, nil
	}
	want := int(size) + 1
	got := 0
	if size > probeThreshold {
		// Probe before growing the buffer to the full size: most large
		// files in a source tree are binaries.
		if cap(ws.buf) < BinaryPrefix {
			ws.buf = make([]byte, BinaryPrefix)
		}
		got, err = readFull(read, ws.buf[:BinaryPrefix])
		if err != nil {
			return nil, SkipError, 0, err
		}
		if looksBinary(ws.buf[:got], false, ws.nulText) {
			return nil, SkipBinary, size, nil
		}
	}
	if cap(ws.buf) < want {
		// Grow geometrically so that a walk meeting ever larger files
		// reallocates a few times, not once per file; the waste is at most
		// half the largest file.
		nb := make([]byte, max(want, cap(ws.buf)*3/2, minBuffer))
		copy(nb, ws.buf[:got])
		ws.buf = nb
	}
	buf := ws.buf[:cap(ws.buf)]
	// One read of the expected size plus one byte. When that single read
	// returns exactly size bytes we are at the end: a regular file returns
	// short only at its end. Once a read has come back short anywhere else
	// the filesystem is not behaving like that, so read on until it says
	// end of file.
	for first := true; got < want; first = false {
		k, rerr := read(buf[got:want])
		if rerr != nil {
			return nil, SkipError, 0, rerr
		}
		if k == 0 {
			break
		}
		got += k
		if first && got == int(size) {
			break
		}
	}
	if got == want {
		// The file grew since it was stat'ed: read on to its real end.
		for {
			if limit >= 0 && int64(got) > limit {
				return nil, SkipTooLarge, int64(got), nil
			}
			if got == len(buf) {
				grown := 2 * len(buf)
				if limit >= 0 && int64(grown) > limit+1 {
					grown = int(limit + 1)
				}
				nb := make([]byte, grown)
				copy(nb, buf[:got])
				buf, ws.buf = nb, nb
			}
			k, rerr := read(buf[got:])
			if rerr != nil {
				return nil, SkipError, 0, rerr
			}
			if k == 0 {
				break
			}
			got += k
		}
	}
	data = buf[:got]
	if looksBinary(data, true, ws.nulText) {
		return nil, SkipBinary, int64(got), nil
	}
	return data, "", int64(got), nil
}

// looksBinary applies git's rule, a NUL byte within the first BinaryPrefix
// bytes; with nulText a file is binary only when it is also not valid UTF-8
// (NUL itself is valid UTF-8). data is the whole file when complete, else
// its first bytes, whose last character may be cut short.
func looksBinary(data []byte, complete, nulText bool) bool {
	if bytes.IndexByte(data[:min(len(data), BinaryPrefix)], 0) < 0 {
		return false
	}
	if !nulText {
		return true
	}
	if !complete {
		data = trimPartialRune(data)
	}
	return !utf8.Valid(data)
}

// trimPartialRune drops a character cut short at the end of a prefix.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// readFull reads until p is full or the file ends.
func readFull(read func([]byte) (int, error), p []byte) (int, error) {
	got := 0
	for got < len(p) {
		k, err := read(p[got:])
		if err != nil {
			return got, err
		}
		if k == 0 {
			break
		}
		got += k
	}
	return got, nil
}

// osReadFile is the portable readFile: it goes through package os.
func osReadFile(path string, ws *workerState, limit int64) ([]byte, SkipReason, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, SkipError, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, SkipError, 0, err
	}
	if !fi.Mode().IsRegular() {
		// Replaced since the directory was listed.
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil, SkipSymlink, 0, nil
		}
		return nil, SkipNotRegular, 0, nil
	}
	read := func(p []byte) (int, error) {
		k, err := f.Read(p)
		if err == io.EOF {
			err = nil
		}
		return k, err
	}
	data, reason, n, err := load(read, fi.Size(), limit, ws)
	if err != nil {
		err = &os.PathError{Op: "read", Path: path, Err: err}
	}
	return data, reason, n, err
}

// osListDir is the portable listDir: it goes through package os.
func osListDir(path string, ws *workerState) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range list {
		off := len(ws.names)
		ws.names = append(ws.names, e.Name()...)
		ws.raw = append(ws.raw, rawEnt{off: off, end: len(ws.names), typ: osTypeOf(e.Type())})
	}
	return nil
}

// Binary reports whether a whole file's content is binary by the rule Walk
// skips files by, for content that does not come from a walk (standard
// input): a NUL byte within the first BinaryPrefix bytes, and with nulText
// also invalid UTF-8.
func Binary(data []byte, nulText bool) bool { return looksBinary(data, true, nulText) }
