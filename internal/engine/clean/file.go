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
	// specials and specialsOK are Engine.Specials of specialsOf, the text
	// they were found in.
	specials   []int
	specialsOK bool
	specialsOf []byte
	// markers are the keep markers of markersOf, found once for every
	// stage and round that reads the same text: finding them is a search
	// of the whole file.
	markers   map[int][]rune
	markersOf []byte
}

// keepMarkers returns the keep markers of in, the file's text at some
// stage, found once per text.
func (f *File) keepMarkers(in []byte) map[int][]rune {
	if !sameBytes(f.markersOf, in) {
		f.markers, f.markersOf = keepMarkers(in), in
	}
	return f.markers
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

// candidate builds a transform's output from its input in, classified as
// m: the map's regions in order, each region of sent replaced by the text
// the provider returned for it (texts, in the same order), every other
// region copied byte for byte. So nothing outside the regions sent can
// change, by construction, and no proof needs to run after it: a proof
// that re-checked the result against the same regions and texts could
// never fail. FuzzOutsideProof holds this function to an oracle of its
// own on arbitrary maps. It fails, building nothing, when m does not
// partition in (a gap, an overlap, a region out of range) or a region of
// sent is not one of m's, in order. It also returns the splices of the
// regions whose text changed.
func candidate(in []byte, m *region.Map, sent []region.Region, texts [][]byte) ([]byte, []splice, error) {
	if len(sent) != len(texts) {
		return nil, nil, fmt.Errorf("%d regions sent, %d texts", len(sent), len(texts))
	}
	out := make([]byte, 0, len(in))
	var sp []splice
	pos, j := 0, 0
	for _, r := range m.Regions {
		if r.Start != pos || r.End < r.Start || r.End > len(in) {
			return nil, nil, fmt.Errorf("region %d-%d does not continue the map at byte %d of %d", r.Start, r.End, pos, len(in))
		}
		pos = r.End
		if j < len(sent) && sent[j].Start == r.Start && sent[j].End == r.End {
			out = append(out, texts[j]...)
			if !bytes.Equal(texts[j], in[r.Start:r.End]) {
				sp = append(sp, splice{start: r.Start, end: r.End, text: texts[j]})
			}
			j++
			continue
		}
		out = append(out, in[r.Start:r.End]...)
	}
	if pos != len(in) {
		return nil, nil, fmt.Errorf("the map ends at byte %d of %d", pos, len(in))
	}
	if j != len(sent) {
		return nil, nil, fmt.Errorf("sent region %d-%d is not a region of the map", sent[j].Start, sent[j].End)
	}
	return out, sp, nil
}
