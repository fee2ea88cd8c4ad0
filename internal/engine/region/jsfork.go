package region

import (
	"fmt"

	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// Where the lexer cannot tell how a token reads ("/" after a "}" that may
// close a block or an object literal, "<" after a TypeScript type, "<!--" in
// a file that may be a script or a module), it reads the file both ways from
// that token on, in lock step by offset, until the readings meet again in
// equal states (then they lex the rest of the file identically), or all but
// one fail to lex. Where they meet, each byte gets the riskier of the kinds
// the readings gave it, so a byte is prose only if every reading calls it a
// comment. Readings that stay apart past the end of the line are refused:
// guessing there could hand code to a cleaner.

// maxReadings bounds how many readings may be alive at once.
const maxReadings = 8

// syntaxError refuses src at byte offset off, placed as editors count
// lines (U+2028 and U+2029, line breaks for JavaScript, are not shown as
// such).
func syntaxError(path string, src []byte, off int, reason string) *RefusedError {
	line, col := textpos.LineCol(src, off)
	return &RefusedError{Path: path, Pos: fmt.Sprintf("%d:%d", line, col), Reason: reason}
}

func classifyJS(path string, src []byte) (*Map, error) {
	d := jsDialectOf(path)
	lang := "javascript"
	if d.ts {
		lang = "typescript"
	}
	m, e := lexJS(src, d, lang)
	if e != nil {
		return nil, syntaxError(path, src, e.off, e.reason)
	}
	return m, nil
}

// lexJS classifies src as dialect d.
func lexJS(src []byte, d jsDialect, lang string) (*Map, *jsErr) {
	return lexJSPolicy(src, d, lang, 0)
}

func lexJSPolicy(src []byte, d jsDialect, lang string, policy uint8) (*Map, *jsErr) {
	lx := &jsLexer{src: src, d: d, policy: policy}
	base := newReading(len(src))
	for !base.done {
		amb, e := lx.step(base)
		if e != nil {
			return nil, e
		}
		if amb != nil {
			if e := lx.fork(base, amb); e != nil {
				return nil, e
			}
		}
	}
	return mapFromMarks(len(src), base.marks, "code", lang), nil
}

// newReading starts the reading of a file of size bytes with room for its
// marks: a JS file or a JSON document (a string every few dozen bytes)
// marks a region about every 48 bytes, and growing the slice to that
// copied it about twice over (8 TypeScript diagnosticMessages files: 8.7 MB
// allocated, 5.1 MB with the room reserved).
func newReading(size int) *jsReading {
	return &jsReading{marks: make([]Region, 0, min(size/48+4, 1<<16))}
}

// mapFromMarks builds a Map from marks that a reading produced, hence in
// order, without copying them into a Builder first.
func mapFromMarks(size int, marks []Region, gapWhy, lang string) *Map {
	b := NewBuilder(0)
	b.size, b.gapWhy, b.marks = size, gapWhy, marks
	for i := 1; i < len(marks); i++ {
		if marks[i].Start < marks[i-1].End {
			b.ordered = false
			break
		}
	}
	return b.Map(lang)
}

// fork reads the file both ways from the ambiguity amb of base, and leaves
// base in the state where the readings met, with their regions merged.
func (lx *jsLexer) fork(base *jsReading, amb *jsAmb) *jsErr {
	from := amb.pos
	// crossed reports whether a line terminator lies in [from, pos); the
	// laggard's offset only grows, so the scan is linear in the fork's span.
	scanned, found := from, false
	crossed := func(pos int) bool {
		if !found && pos > scanned {
			found = jsLineEnd(lx.src[:pos], scanned) < pos
			scanned = pos
		}
		return found
	}
	// The work of all readings together is bounded, so no input makes the
	// classifier superlinear: past the bound the file is refused.
	budget := 4*len(lx.src) + 1<<16
	split := func(r *jsReading, a *jsAmb, choice uint8) *jsReading {
		lx.forkWork += len(r.st.stack) + len(r.marks)
		forces := append(append([]jsForce(nil), r.forces...), jsForce{pos: a.pos, what: a.what, choice: choice})
		return &jsReading{st: r.st.clone(), marks: append([]Region(nil), r.marks...), forces: forces}
	}
	set := []*jsReading{
		split(&jsReading{st: base.st, forces: base.forces}, amb, amb.a),
		split(&jsReading{st: base.st, forces: base.forces}, amb, amb.b),
	}
	var failed *jsErr
	for {
		alive := set[:0]
		for _, r := range set {
			if r.err == nil {
				alive = append(alive, r)
			} else if failed == nil || r.err.off > failed.off {
				failed = r.err
			}
		}
		set = alive
		switch len(set) {
		case 0:
			return failed
		case 1:
			lx.join(base, set[0])
			return nil
		}
		var lag *jsReading
		for _, r := range set {
			if !r.done && (lag == nil || r.st.pos < lag.st.pos) {
				lag = r
			}
		}
		if lag == nil {
			// Every reading reached the end of the file.
			merged := set[0]
			for _, r := range set[1:] {
				merged.marks = mergeReadings(merged.marks, r.marks, from, len(lx.src), amb.short)
			}
			lx.join(base, merged)
			return nil
		}
		if crossed(lag.st.pos) {
			return &jsErr{from, amb.why + ", and the two readings still differ at the end of the line"}
		}
		before := lag.st.pos
		a2, e := lx.step(lag)
		lx.forkWork += lag.st.pos - before + 1
		if lx.forkWork > budget {
			return &jsErr{from, "too many ambiguous tokens to classify safely"}
		}
		switch {
		case e != nil:
			lag.err = e
			continue
		case a2 != nil:
			if len(set) >= maxReadings {
				return &jsErr{a2.pos, a2.why + ", with too many other readings open"}
			}
			set = append(set, split(lag, a2, a2.b))
			*lag = *split(lag, a2, a2.a)
			continue
		}
		for _, o := range set {
			if o != lag && !o.done && o.err == nil && o.st.equal(&lag.st) {
				lag.marks = mergeReadings(lag.marks, o.marks, from, lag.st.pos, amb.short)
				set = dropReading(set, o)
				break
			}
		}
	}
}

// dropReading removes o from set.
func dropReading(set []*jsReading, o *jsReading) []*jsReading {
	for i, r := range set {
		if r == o {
			return append(set[:i], set[i+1:]...)
		}
	}
	return set
}

// join continues base as reading r.
func (lx *jsLexer) join(base, r *jsReading) {
	base.st = r.st
	base.done = r.done
	// A reading left alone before it passed its own split point still
	// needs the choice it was split with.
	base.forces = base.forces[:0]
	for _, f := range r.forces {
		if f.pos >= r.st.pos {
			base.forces = append(base.forces, f)
		}
	}
	for _, m := range r.marks {
		base.mark(m.Start, m.End, m.Kind, m.Why)
	}
}

// mergeReadings combines the regions two readings found over [from, to):
// each byte gets the riskier kind (unmarked bytes are code, so runtime). A
// reason both readings share is kept; otherwise bytes that end up runtime
// are labelled with why.
func mergeReadings(a, b []Region, from, to int, why string) []Region {
	var out []Region
	add := func(r Region) {
		if n := len(out); n > 0 && out[n-1].End == r.Start && out[n-1].Kind == r.Kind && out[n-1].Why == r.Why {
			out[n-1].End = r.End
			return
		}
		out = append(out, r)
	}
	at := func(list []Region, i *int, pos int) (Region, int, bool) {
		for *i < len(list) && list[*i].End <= pos {
			*i++
		}
		if *i < len(list) && list[*i].Start <= pos {
			return list[*i], list[*i].End, true
		}
		end := to
		if *i < len(list) {
			end = list[*i].Start
		}
		return Region{}, end, false
	}
	ia, ib := 0, 0
	for pos := from; pos < to; {
		ra, ea, oka := at(a, &ia, pos)
		rb, eb, okb := at(b, &ib, pos)
		end := min(ea, eb, to)
		switch {
		case !oka && !okb:
			// code in both
		case oka && okb && ra.Kind == rb.Kind && ra.Why == rb.Why:
			add(Region{Start: pos, End: end, Kind: ra.Kind, Why: ra.Why})
		case oka && okb && ra.Kind != Runtime && rb.Kind != Runtime:
			r := ra
			if risk(rb.Kind) > risk(ra.Kind) {
				r = rb
			}
			add(Region{Start: pos, End: end, Kind: r.Kind, Why: r.Why})
		default:
			add(Region{Start: pos, End: end, Kind: Runtime, Why: why})
		}
		pos = end
	}
	return out
}
