package clean

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// keepWhy says why a carrier stays: user when people asked for it ([clean]
// allow, a keep marker), otherwise the structure proof found it risky.
type keepWhy struct {
	user bool
	why  string
}

// Carrier is one carrier a stage found and what the run does with it. It
// is what check prints, so check and clean cannot disagree.
type Carrier struct {
	Stage     int
	Offset    int // in the text the stage read (the original, for the stages before any transform)
	Line, Col int
	Finding   carrier.Finding // Offset relative to its region, as the provider sent it
	Region    region.Region
	// Action is what happens to it: remove, replace, report, or keep
	// (people asked to keep it).
	Action string
	// Reason says why a carrier stays: the reason of the region it sits
	// in when that is not prose ("string literal"), what removing it
	// would change, or who asked to keep it.
	Reason string
}

// ActionKeep is a Carrier's action when people asked to keep it.
const ActionKeep = "keep"

// keepMarkers returns, per 1-based line, the code points the keep markers
// on that line name ("prosewash: keep U+200B").
func keepMarkers(in []byte) map[int][]rune {
	marker := []byte(carrier.KeepMarker)
	if indexKeepMarker(in) < 0 {
		return nil
	}
	out := map[int][]rune{}
	lc := textpos.NewCounter(in)
	for from := 0; ; {
		k := indexKeepMarker(in[from:])
		if k < 0 {
			return out
		}
		at := from + k
		line, _ := lc.At(at)
		end := at + len(marker)
		eol := end
		for eol < len(in) && in[eol] != '\n' && in[eol] != '\r' {
			eol++
		}
		out[line] = append(out[line], carrier.ParseKeepMarker(in[end:eol])...)
		from = end
	}
}

// indexKeepMarker is bytes.Index(in, carrier.KeepMarker), found by the
// marker's last four bytes, "keep": bytes.Index steps from one occurrence
// of a pattern's first byte to the next, and in source text "p" is four
// times as common as "k" (the 17 files holding a carrier in the npm
// corpus: 1.64% of their bytes against 0.39%). Every file check decides
// is searched: most hold no marker at all.
func indexKeepMarker(in []byte) int {
	tail := carrier.KeepMarker[len(carrier.KeepMarker)-4:]
	head := carrier.KeepMarker[:len(carrier.KeepMarker)-4]
	for from := len(head); from <= len(in); {
		k := bytes.Index(in[from:], []byte(tail))
		if k < 0 {
			return -1
		}
		if at := from + k - len(head); string(in[at:from+k]) == head {
			return at
		}
		from += k + 1
	}
	return -1
}

// userKeep says whether people asked to keep r on line: [clean] allow for
// this file, or a keep marker on the same or the previous line.
func (e *Engine) userKeep(f *File, markers map[int][]rune, r rune, line int) (string, bool) {
	for _, a := range e.Allow {
		if a.Covers(r, f.ProjectRel) {
			return "allowed by [clean] allow " + a.String(), true
		}
	}
	for _, l := range [...]int{line, line - 1} {
		for _, x := range markers[l] {
			if x == r {
				return fmt.Sprintf("kept by the keep marker on line %d", l), true
			}
		}
	}
	return "", false
}

// userKeeps finds, in the regions a transform is about to get, the
// carriers people asked to keep, as input offsets. It looks at every code
// point that is not printable ASCII: which of them are carriers is the
// provider's business, and an offset that holds none is ignored.
func (e *Engine) userKeeps(f *File, in []byte, regions []region.Region) map[int]keepWhy {
	markers := f.keepMarkers(in)
	if len(e.Allow) == 0 && len(markers) == 0 {
		return nil
	}
	keep := map[int]keepWhy{}
	lc := textpos.NewCounter(in)
	for _, rg := range regions {
		if carrier.Plain(in[rg.Start:rg.End]) {
			continue
		}
		for i := rg.Start; i < rg.End; {
			r, n := utf8.DecodeRune(in[i:])
			if r >= 0x20 && r < 0x7f || r == '\n' || r == '\t' || r == '\r' {
				i += n
				continue
			}
			line, _ := lc.At(i)
			if why, ok := e.userKeep(f, markers, r, line); ok {
				keep[i] = keepWhy{user: true, why: why}
			}
			i += n
		}
	}
	return keep
}

// record notes what the run does with one finding of a stage: a Carrier
// for check, and a report line when a carrier is left for people to look
// at (outside prose, or in prose where removing it is not safe).
func (e *Engine) record(s *sent, r region.Region, fd carrier.Finding, kept keepWhy, isKept bool) {
	f := s.file
	off := r.Start + fd.Offset
	if s.lc == nil {
		s.lc = textpos.NewCounter(s.in)
	}
	line, col := s.lc.At(off)
	c := Carrier{Stage: s.stage, Offset: off, Line: line, Col: col, Finding: fd, Region: r, Action: string(fd.Action)}
	if r.Kind != region.Prose && !isKept {
		if why, ok := e.userKeep(f, f.keepMarkers(s.in), fd.Rune, line); ok {
			kept, isKept = keepWhy{user: true, why: why}, true
		}
	}
	switch {
	case isKept && kept.user:
		c.Action, c.Reason = ActionKeep, kept.why
	case isKept:
		c.Action, c.Reason = string(carrier.Report), kept.why
	case r.Kind != region.Prose:
		c.Action, c.Reason = string(carrier.Report), r.Why
	case fd.Action == carrier.Report:
		c.Reason = "reported, never removed"
	}
	f.Carriers = append(f.Carriers, c)
	if c.Action == string(carrier.Report) && (r.Kind != region.Prose || isKept) {
		rf := report.Finding{Line: line, Col: col, Code: fd.Code(), Name: fd.Name, Class: fd.Class, Region: r.Kind.String(), Why: r.Why, Severity: string(fd.Severity), Hidden: fd.Hidden}
		if r.Kind == region.Prose {
			rf.Reason = kept.why
		}
		f.Reported = append(f.Reported, rf)
	}
}
