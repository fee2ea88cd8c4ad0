package clean

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/region"
	"github.com/prosewash/prosewash/engine/report"
)

// Status is where a file ended up.
type Status string

const (
	Unchanged Status = "unchanged" // nothing to clean
	Changed   Status = "changed"   // a candidate differs from the original
	Refused   Status = "refused"   // not touched; Reason says why
)

// File is one file's way through the stages. Orig is never modified.
type File struct {
	Path string // absolute
	Rel  string // as shown to the user
	Lang string
	Orig []byte
	Cur  []byte // the candidate so far

	Status Status
	Reason string

	Stages []report.Stage
	// Reported are carriers left in place: in directive or runtime
	// regions, or in files or regions no transform may touch.
	Reported []report.Finding
	// TouchedKinds are the region kinds a transform changed.
	TouchedKinds map[region.Kind]bool
	// Validation is the minimum validation's verdict: ok, unchecked or failed.
	Validation     string
	ValidationNote string

	origMap *region.Map
}

func (f *File) refuse(format string, args ...any) {
	if f.Status == Refused {
		return
	}
	f.Status = Refused
	f.Reason = fmt.Sprintf(format, args...)
	f.Cur = f.Orig
}

// Alive reports whether later stages should still work on the file.
func (f *File) Alive() bool { return f.Status != Refused }

// around returns up to n bytes before start and after end, cut on rune
// boundaries, for a provider's context-aware decisions.
func around(b []byte, start, end, n int) (before, after []byte) {
	lo := start - n
	if lo < 0 {
		lo = 0
	}
	for lo < start && !utf8.RuneStart(b[lo]) {
		lo++
	}
	hi := end + n
	if hi > len(b) {
		hi = len(b)
	}
	for hi > end && hi < len(b) && !utf8.RuneStart(b[hi]) {
		hi--
	}
	return b[lo:start], b[end:hi]
}

// splice is one replaced span of the old text.
type splice struct {
	start, end int // in the old text
	text       []byte
}

// applySplices builds the new text. Spans must be sorted and disjoint.
func applySplices(old []byte, sp []splice) []byte {
	var out bytes.Buffer
	out.Grow(len(old))
	pos := 0
	for _, s := range sp {
		out.Write(old[pos:s.start])
		out.Write(s.text)
		pos = s.end
	}
	out.Write(old[pos:])
	return out.Bytes()
}

// outsideUnchanged is the proof that every byte outside the spliced spans is
// identical. It is written independently of applySplices on purpose: it
// walks both texts and compares each gap where it must now sit.
func outsideUnchanged(old, cand []byte, sp []splice) error {
	shift := 0
	pos := 0
	for _, s := range sp {
		if s.start < pos || s.end < s.start || s.end > len(old) {
			return fmt.Errorf("span %d-%d out of order", s.start, s.end)
		}
		gapOld := old[pos:s.start]
		lo := pos + shift
		if lo+len(gapOld) > len(cand) || !bytes.Equal(cand[lo:lo+len(gapOld)], gapOld) {
			return fmt.Errorf("byte %d outside the cleaned regions changed", pos)
		}
		shift += len(s.text) - (s.end - s.start)
		pos = s.end
	}
	tail := old[pos:]
	lo := pos + shift
	if lo < 0 || lo+len(tail) != len(cand) || !bytes.Equal(cand[lo:], tail) {
		return fmt.Errorf("bytes after offset %d outside the cleaned regions changed", pos)
	}
	return nil
}

// structure returns, in order, the bytes of every region whose kind is not
// touchable. Two versions of a file with the same structure have the same
// code, directives and literals; only touchable text differs. Concatenating
// (rather than comparing run by run) lets a prose region vanish entirely,
// while any byte that changed kind - prose turned into an indented code
// block, say - still shows up as a difference.
func structure(m *region.Map, b []byte, touchable map[region.Kind]bool) []byte {
	var out []byte
	for _, r := range m.Regions {
		if !touchable[r.Kind] {
			out = append(out, b[r.Start:r.End]...)
		}
	}
	return out
}
