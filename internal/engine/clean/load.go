package clean

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// Target is a file a run may touch.
type Target struct {
	Path string // absolute
	Rel  string // as shown to the user
	// Expect is the hex SHA-256 an attribution record holds for the file;
	// empty for an explicit target (the user's instruction, not a claim).
	Expect string
}

// DefaultMaxSize bounds what clean reads: prose files larger than this are
// not agent output worth cleaning in place.
const DefaultMaxSize = 8 << 20

// Load reads and checks a target. A file that cannot be cleaned safely comes
// back Refused with the reason; it is never half-read.
func Load(t Target, maxSize int64) *File {
	f := &File{Path: t.Path, Rel: t.Rel}
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	data, _, err := fsx.ReadFile(t.Path, maxSize)
	if err != nil {
		var re *fsx.RefusedError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			f.refuse("does not exist")
		case errors.Is(err, fsx.ErrSymlink):
			f.refuse("is a symlink; name the file it points to")
		case errors.As(err, &re) && re.Kind == fsx.NotRegular:
			if fi, serr := os.Stat(t.Path); serr == nil && fi.IsDir() {
				f.refuse("is a directory; name the files to clean")
			} else {
				f.refuse("is not a regular file")
			}
		case errors.Is(err, fsx.ErrHardLinked):
			f.refuse("has several hard links; replacing it would break them")
		case errors.Is(err, fsx.ErrTooLarge):
			f.refuse("is over the %s limit ([clean] max_file_size)", human(maxSize))
		default:
			f.refuse("cannot read: %v", fsx.Cause(err))
		}
		return f
	}
	if t.Expect != "" {
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != t.Expect {
			f.Orig, f.Cur = data, data
			f.refuse("changed since it was recorded (someone else edited it); skipped")
			return f
		}
	}
	prepare(f, t.Path, data, flawsOf)
	return f
}

// NewFile is a File for data as Load would read it from path, without
// reading anything: check uses it to run the engine's decision in memory.
func NewFile(path, rel string, data []byte) *File {
	f := &File{Path: path, Rel: rel}
	prepare(f, path, data, flawsOf)
	return f
}

// NewFile is clean.NewFile for this engine. With Specials, the one scan
// that finds them also finds the file's NUL bytes and bytes that are not
// valid UTF-8 (each is one), which cost a pass each otherwise, and the
// stages read the file with the same list.
func (e *Engine) NewFile(path, rel string, data []byte) *File {
	if e.Specials == nil {
		return NewFile(path, rel, data)
	}
	f := &File{Path: path, Rel: rel}
	if region.Language(path, data) == "" {
		prepare(f, path, data, flawsOf) // refused without a look at the bytes
		return f
	}
	f.specials, f.specialsOK = e.Specials(data)
	f.specialsOf = data
	if !f.specialsOK {
		prepare(f, path, data, flawsOf)
		return f
	}
	prepare(f, path, data, func([]byte) flaws { return flawsAt(data, f.specials) })
	return f
}

// flaws are where a file first holds a NUL byte and a byte that is not
// valid UTF-8, -1 for none; invalid is only looked for without a NUL.
type flaws struct{ nul, invalid int }

func flawsOf(data []byte) flaws {
	fl := flaws{nul: bytes.IndexByte(data, 0), invalid: -1}
	if fl.nul < 0 && !utf8.Valid(data) {
		fl.invalid = textpos.FirstInvalid(data)
	}
	return fl
}

// flawsAt is flawsOf read off specials, a list of offsets of data that
// holds every NUL byte and every byte that does not start valid UTF-8
// (ucarrier.Specials).
func flawsAt(data []byte, specials []int) flaws {
	fl := flaws{nul: -1, invalid: -1}
	for _, i := range specials {
		if data[i] == 0 {
			return flaws{nul: i, invalid: -1}
		}
		if r, n := utf8.DecodeRune(data[i:]); fl.invalid < 0 && r == utf8.RuneError && n == 1 {
			fl.invalid = i
		}
	}
	return fl
}

// prepare classifies data, or refuses it with the reason; scan says where
// it holds a NUL byte or is not valid UTF-8.
func prepare(f *File, path string, data []byte, scan func([]byte) flaws) {
	f.Orig, f.Cur = data, data
	f.Lang = region.Language(path, data)
	t := Target{Path: path}
	if f.Lang == "" {
		ext := extOf(t.Path)
		if ext == "" {
			ext = "extension-less"
		}
		f.refuse("no classifier for %s files; refused, not treated as prose", ext)
		return
	}
	fl := scan(data)
	if i := fl.nul; i >= 0 {
		line, col := textpos.LineCol(data, i)
		f.refuse("contains a NUL byte at %d:%d; binary files are not cleaned", line, col)
		return
	}
	if off := fl.invalid; off >= 0 {
		line, col := textpos.LineCol(data, off)
		f.refuse("invalid UTF-8 at %d:%d (byte %d); not cleaned", line, col, off)
		return
	}
	m, err := region.Classify(t.Path, data)
	if err != nil {
		f.refuse("%v", err)
		return
	}
	f.origMap = m
}

// Map is the classification of the original, nil for a refused file.
func (f *File) Map() *region.Map { return f.origMap }

func extOf(p string) string {
	for i := len(p) - 1; i >= 0 && p[i] != '/' && p[i] != os.PathSeparator; i-- {
		if p[i] == '.' {
			return p[i:]
		}
	}
	return ""
}

func human(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
