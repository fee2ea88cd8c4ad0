package clean

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
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

	// ProjectRel is the path relative to the project root, '/'-separated,
	// that [clean] allow patterns match; Rel when empty.
	ProjectRel string

	Stages []report.Stage
	// Reported are carriers left in place: in directive or runtime
	// regions, or in prose where removing them is not safe.
	Reported []report.Finding
	// Carriers are every carrier the stages found, with what the run does
	// with each: what check prints.
	Carriers []Carrier
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

// paragraphAround returns the context a provider gets around [start, end):
// the rest of the paragraph on each side (back to the first line after a
// blank line, on to the line break that ends the last line before one), at
// most n bytes each, cut on rune boundaries. A paragraph holds every
// comment line of the code around it, so a provider can narrow it to the
// unit its language needs.
func paragraphAround(b []byte, start, end, n int) (before, after []byte) {
	lo, hi := start, end
	for lo > 0 && start-lo < n {
		c := b[lo-1]
		if (c == '\n' || c == '\r') && blankLineEndingAt(b, lo-1) {
			break
		}
		lo--
	}
	for hi < len(b) && hi-end < n {
		c := b[hi]
		if (c == '\n' || c == '\r') && blankLineAfterBreak(b, hi) {
			hi = min(hi+lineBreakLen(b, hi), end+n)
			break
		}
		hi++
	}
	return around(b, start, end, max(start-lo, 0), max(hi-end, 0))
}

// blankLineEndingAt reports whether the line that the break at i ends is
// blank (spaces and tabs), or i starts the text: the paragraph after it
// starts fresh. A \n after a \r is part of the same break.
func blankLineEndingAt(b []byte, i int) bool {
	if b[i] == '\n' && i > 0 && b[i-1] == '\r' {
		i--
	}
	return blankTo(b, i-1, -1)
}

// blankLineAfterBreak reports whether the line after the break at i is
// blank or the text ends.
func blankLineAfterBreak(b []byte, i int) bool { return blankTo(b, i+lineBreakLen(b, i), 1) }

// blankTo reports whether only spaces and tabs lie from i, walking by step,
// to the next line break or the edge of b.
func blankTo(b []byte, i, step int) bool {
	for ; i >= 0 && i < len(b); i += step {
		switch b[i] {
		case '\n', '\r':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

func lineBreakLen(b []byte, i int) int {
	if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		return 2
	}
	return 1
}

// around returns up to nb bytes before start and na after end, cut on rune
// boundaries.
func around(b []byte, start, end, nb, na int) (before, after []byte) {
	lo := start - nb
	if lo < 0 {
		lo = 0
	}
	for lo < start && !utf8.RuneStart(b[lo]) {
		lo++
	}
	hi := end + na
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

// provenOutside is the proof that a stage changed nothing but the regions
// it sent. It never looks at the splices the candidate was built from: it
// walks the map of the stage's input, and requires every region that was
// not sent to appear unchanged where it must now sit, and every sent region
// (matched by its bounds in the map) to appear as the text the provider
// returned for it. A wrong splice, a changed region that was not sent, a
// dropped or added byte anywhere fails it.
func provenOutside(in, cand []byte, m *region.Map, sent []region.Region, texts [][]byte) error {
	if len(sent) != len(texts) {
		return fmt.Errorf("%d regions sent, %d texts", len(sent), len(texts))
	}
	pos, j := 0, 0
	for _, r := range m.Regions {
		if r.Start < 0 || r.End > len(in) || r.End < r.Start {
			return fmt.Errorf("region %d-%d outside the input", r.Start, r.End)
		}
		want := in[r.Start:r.End]
		what := "byte %d outside the cleaned regions changed"
		if j < len(sent) && sent[j].Start == r.Start && sent[j].End == r.End {
			want, what = texts[j], "region at byte %d is not the text the provider returned"
			j++
		}
		if pos+len(want) > len(cand) || !bytes.Equal(cand[pos:pos+len(want)], want) {
			return fmt.Errorf(what, r.Start+mismatch(cand[pos:], want))
		}
		pos += len(want)
	}
	if j != len(sent) {
		return fmt.Errorf("sent region %d-%d is not a region of the map", sent[j].Start, sent[j].End)
	}
	if pos != len(cand) {
		return fmt.Errorf("%d bytes added after the end of the input", len(cand)-pos)
	}
	return nil
}

// mismatch returns the first index where got and want differ.
func mismatch(got, want []byte) int {
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			return i
		}
	}
	return len(want)
}
