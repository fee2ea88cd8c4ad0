package clean

import (
	"fmt"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// A transform may change the text of the regions it was given and nothing
// else; the outside-bytes proof shows that. It must not change what the
// rest of the file *is* either: removing a carrier can turn a paragraph line
// into a list item or indented code, make a Markdown hard line break, close
// a comment early, turn a comment into a directive or create a link. The
// proof below re-classifies the candidate and compares it with the input
// byte by byte through the edits, so it holds for every classifier without
// knowing any language.

// proveStructure classifies cand, the input in (classified as m) with
// edits applied, and returns the first difference in structure: in the
// classification (compareStructure) or, for Markdown, in GFM's reading
// (compareGFM); nil when there is none. carriersOnly says the edits only
// remove carriers or turn them into spaces, so the text GFM renders must
// stay the same too; a rewrite may change words, never the structure.
func proveStructure(path string, in []byte, m *region.Map, cand []byte, edits []splice, carriersOnly bool) *structDiff {
	cm, err := region.Classify(path, cand)
	if err != nil {
		return &structDiff{was: region.Region{Why: "the file"}, now: region.Region{Why: "unclassifiable: " + err.Error()}}
	}
	if d := compareStructure(m, cm, edits); d != nil {
		return d
	}
	if m.Lang == "markdown" {
		for _, src := range [][]byte{in, cand} {
			if why := gfmUnreadable(src); why != "" {
				return &structDiff{unproved: "GFM's reading is not proved: " + why}
			}
		}
		return compareGFM(gfmParser(), in, cand, carriersOnly)
	}
	return nil
}

// structDiff is the first place where a candidate's map disagrees with its
// input's.
type structDiff struct {
	in       int // offset in the input the difference maps back to
	was, now region.Region
	// unproved says why the structure could not be compared at all: no
	// edit is to blame, so every carrier is kept.
	unproved string
}

// describe says what the difference is, with the input's line and column.
func (d *structDiff) describe(in []byte) string {
	if d.unproved != "" {
		return d.unproved
	}
	line, col := textpos.LineCol(in, d.in)
	return fmt.Sprintf("%d:%d would be %s (%s) instead of %s (%s)", line, col, d.now.Kind, d.now.Why, d.was.Kind, d.was.Why)
}

// sameRegion compares what a byte is: its kind and the reason that names
// it (a comment that becomes a doc comment, a label that appears).
func sameRegion(a, b region.Region) bool { return a.Kind == b.Kind && a.Why == b.Why }

// compareStructure walks the candidate's map (cand) and the input's map
// (in) together through the edits (sorted, disjoint spans of the input,
// each replaced by its text): every input byte outside an edit must have
// the same kind and reason in the candidate, and every byte an edit wrote
// the kind and reason of the input byte where the edit starts. It returns
// nil when they agree. An edit that inserts bytes without replacing any is
// judged by the region at its position.
func compareStructure(in, cand *region.Map, edits []splice) *structDiff {
	shift := 0
	pos := 0 // next input byte not yet compared
	check := func(inLo, inHi, candLo int, fixed bool) *structDiff {
		// Compare input bytes [inLo, inHi) at candidate offset candLo
		// onwards; fixed compares every candidate byte with input byte inLo.
		n := inHi - inLo
		for k := 0; k < n; {
			inOff := inLo + k
			if fixed {
				inOff = inLo
			}
			was := in.At(inOff)
			now := cand.At(candLo + k)
			if !sameRegion(was, now) {
				return &structDiff{in: inOff, was: was, now: now}
			}
			step := now.End - (candLo + k)
			if !fixed {
				step = min(step, was.End-inOff)
			}
			k += max(step, 1)
		}
		return nil
	}
	for _, e := range edits {
		if d := check(pos, e.start, pos+shift, false); d != nil {
			return d
		}
		if len(e.text) > 0 {
			at := e.start
			if at >= in.Size && at > 0 {
				at = in.Size - 1
			}
			if d := check(at, at+len(e.text), e.start+shift, true); d != nil {
				d.in = e.start
				return d
			}
		}
		shift += len(e.text) - (e.end - e.start)
		pos = e.end
	}
	if d := check(pos, in.Size, pos+shift, false); d != nil {
		return d
	}
	if in.Size+shift != cand.Size {
		return &structDiff{in: in.Size, was: region.Region{Why: "end of file"}, now: region.Region{Why: "a different length"}}
	}
	return nil
}
