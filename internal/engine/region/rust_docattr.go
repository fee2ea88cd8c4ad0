package region

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"
)

// rustdoc builds an item's documentation from fragments in attribute
// order: each `///` line (a sugared fragment, its text after the marker)
// and each `#[doc = ...]` attribute (a raw fragment, the string's value).
// It unindents them together (rustc_resolve::rustdoc::unindent_doc_fragments)
// and appends each fragment's lines with a line break (add_doc_fragment);
// the result is one Markdown document, so a fence opened by an attribute's
// text holds the `///` lines that follow. That joining is replayed here:
//
//   - a literal value (a string or raw string) takes part as the text it
//     holds; the literal itself stays runtime, as every literal;
//   - a value this file does not hold (include_str!, concat!, a macro
//     metavariable) leaves every later doc line of the item conservative,
//     and so does a line of the paragraph just before it that could open
//     an inline construct the included text closes (a code span, HTML, a
//     link); and when it could lower the common indentation, all of them;
//   - a doc in `cfg_attr` (or any other attribute) may be there or not:
//     every combination is read (up to rustMaxCondDocs of them), and a doc
//     line whose regions differ between two readings is conservative.

// rustAttrPath is the first word of an attribute.
type rustAttrPath uint8

const (
	attrPathNone rustAttrPath = iota
	attrPathDoc
	attrPathOther
)

// rustMaxCondDocs bounds the conditional #[doc] attributes of one item
// whose readings are all tried: 2^4 Markdown passes over one item's docs.
const rustMaxCondDocs = 4

// rustRawDoc is one #[doc = ...] attribute.
type rustRawDoc struct {
	text   []byte // the string's value, when it is a literal
	opaque bool   // the value is not in this file
	cond   bool   // in cfg_attr or another attribute: present or not
	cfg    []byte // the cfg_attr predicate, spaces removed
}

// attrWord handles a word inside an attribute whose end is at j: the
// attribute's path, or `doc = VALUE`, which adds VALUE to the item's doc;
// #[doc(hidden)] and #[doc(alias = ...)] do not.
func (s *rustScanner) attrWord(word string, j int) {
	if s.attrPath == attrPathNone && s.attrDepth == 1 {
		s.attrPath, s.attrCfg = attrPathOther, nil
		switch word {
		case "doc":
			s.attrPath = attrPathDoc
		case "cfg_attr":
			s.attrCfg = cfgPredicate(s.src, j)
		}
	}
	if word != "doc" {
		return
	}
	src := s.src
	k := skipRustSpace(src, j)
	if k >= len(src) || src[k] != '=' || (k+1 < len(src) && src[k+1] == '=') {
		return
	}
	raw := rustRawDoc{cond: s.attrPath != attrPathDoc || s.attrDepth != 1, cfg: s.attrCfg}
	val, end, ok := rustStrValue(src, skipRustSpace(src, k+1))
	if e := skipRustSpace(src, end); ok && e < len(src) && (src[e] == ',' || src[e] == ']' || src[e] == ')') {
		raw.text = val
	} else {
		raw.opaque = true
	}
	s.addRawDoc(raw)
}

// macroAttr handles `#[$meta]` in a macro body: whatever the macro is
// given, a doc too.
func (s *rustScanner) macroAttr() {
	s.attrPath, s.macroRep = attrPathOther, true
	s.addRawDoc(rustRawDoc{opaque: true, cond: true})
}

func (s *rustScanner) addRawDoc(raw rustRawDoc) {
	run := &s.outer
	if s.attrInner {
		run = &s.inner
	}
	run.raws = append(run.raws, raw)
	run.lines = append(run.lines, rustDocLine{raw: len(run.raws)})
}

// cfgPredicate returns the predicate of the cfg_attr whose name ends at j,
// its spaces removed ("not(unix)"), or nil.
func cfgPredicate(src []byte, j int) []byte {
	j = skipRustSpace(src, j)
	if j >= len(src) || src[j] != '(' {
		return nil
	}
	var p []byte
	depth := 0
	for k := j + 1; k < len(src); k++ {
		c := src[k]
		switch {
		case c == '"':
			e := bytes.IndexByte(src[k+1:], '"')
			if e < 0 || bytes.IndexByte(src[k+1:k+1+e], '\\') >= 0 {
				return nil
			}
			p = append(p, src[k:k+2+e]...)
			k += 1 + e
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			return p
		case c == ']' || depth < 0:
			return nil
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		p = append(p, c)
	}
	return nil
}

func skipRustSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// rustStrValue returns the value of the string or raw string literal at i
// and the offset after it; false for anything else, or a literal whose
// value it cannot tell (a bare \r, an escape it does not know).
func rustStrValue(src []byte, i int) ([]byte, int, bool) {
	if i < len(src) && src[i] == 'r' {
		h := i + 1
		for h < len(src) && src[h] == '#' {
			h++
		}
		if h >= len(src) || src[h] != '"' {
			return nil, i, false
		}
		closer := append([]byte{'"'}, bytes.Repeat([]byte{'#'}, h-i-1)...)
		e := bytes.Index(src[h+1:], closer)
		if e < 0 {
			return nil, i, false
		}
		v := src[h+1 : h+1+e]
		return crlfToLF(v), h + 1 + e + len(closer), !hasBareCR(v)
	}
	if i >= len(src) || src[i] != '"' {
		return nil, i, false
	}
	return rustUnescape(src, i+1)
}

// rustUnescape decodes a string literal's body from i to its closing quote.
func rustUnescape(src []byte, i int) ([]byte, int, bool) {
	var v []byte
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return v, i + 1, true
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			i++ // rustc reads \r\n as \n
		case c == '\r':
			return nil, i, false
		case c == '\\':
			r, next, ok := rustEscape(src, i)
			if !ok {
				return nil, i, false
			}
			if r >= 0 {
				v = utf8.AppendRune(v, r)
			}
			i = next
		default:
			v = append(v, c)
			i++
		}
	}
	return nil, i, false
}

// rustEscape decodes the escape at the backslash at i: its rune (-1 for a
// line continuation, which skips the line break and the whitespace after
// it) and the offset after it.
func rustEscape(src []byte, i int) (rune, int, bool) {
	if i+1 >= len(src) {
		return 0, i, false
	}
	switch src[i+1] {
	case 'n':
		return '\n', i + 2, true
	case 'r':
		return '\r', i + 2, true
	case 't':
		return '\t', i + 2, true
	case '0':
		return 0, i + 2, true
	case '\\', '\'', '"':
		return rune(src[i+1]), i + 2, true
	case '\n', '\r':
		return -1, skipRustSpace(src, i+1), true
	case 'x':
		if i+4 > len(src) {
			return 0, i, false
		}
		n, err := strconv.ParseUint(string(src[i+2:i+4]), 16, 8)
		return rune(n), i + 4, err == nil && n < 0x80
	case 'u':
		e := bytes.IndexByte(src[i:min(len(src), i+12)], '}')
		if i+2 >= len(src) || src[i+2] != '{' || e < 0 {
			return 0, i, false
		}
		hex := bytes.ReplaceAll(src[i+3:i+e], []byte("_"), nil)
		n, err := strconv.ParseUint(string(hex), 16, 32)
		return rune(n), i + e + 1, err == nil && utf8.ValidRune(rune(n))
	}
	return 0, i, false
}

func hasBareCR(v []byte) bool {
	for k, c := range v {
		if c == '\r' && (k+1 >= len(v) || v[k+1] != '\n') {
			return true
		}
	}
	return false
}

func crlfToLF(v []byte) []byte {
	if bytes.IndexByte(v, '\r') < 0 {
		return v
	}
	return bytes.ReplaceAll(v, []byte("\r\n"), []byte("\n"))
}

// docFragments classifies one item's `///` lines with the #[doc]
// attributes among them, in every reading of its conditional ones.
func (s *rustScanner) docFragments(run *rustDocRun) {
	conds, negs := rustCondVars(run.raws)
	if len(conds) > rustMaxCondDocs {
		s.markDocLines(run, "doc comment joined with more than four conditional #[doc] attributes (not modelled)")
		return
	}
	present := make([]bool, len(run.raws))
	var first [][]Region
	differs := make([]bool, len(run.lines))
	for mask := range 1 << len(conds) {
		for k, raw := range run.raws {
			present[k] = !raw.cond
		}
		for b, k := range conds {
			present[k] = mask&(1<<b) != 0
			if n := negs[b]; n >= 0 {
				present[n] = !present[k]
			}
		}
		regs := s.docReading(run, present)
		if first == nil {
			first = regs
			continue
		}
		for k := range regs {
			differs[k] = differs[k] || !slices.Equal(regs[k], first[k])
		}
	}
	for k, l := range run.lines {
		switch {
		case l.raw != 0:
		case differs[k]:
			s.mark(l.start, l.end, Runtime, "doc comment whose reading depends on a cfg_attr #[doc] attribute")
		default:
			for _, r := range first[k] {
				s.mark(r.Start, r.End, r.Kind, r.Why)
			}
		}
	}
}

// rustCondVars returns the conditional attributes that vary independently
// and, for each, the index of the attribute whose predicate is its
// negation, or -1: `cfg_attr(unix, doc = ...)` and `cfg_attr(not(unix),
// doc = ...)` are never both there nor both missing.
func rustCondVars(raws []rustRawDoc) (conds, negs []int) {
	paired := make([]bool, len(raws))
	for k, raw := range raws {
		if !raw.cond || paired[k] {
			continue
		}
		neg := -1
		for n := k + 1; n < len(raws) && raw.cfg != nil; n++ {
			o := raws[n]
			if o.cond && !paired[n] && o.cfg != nil && (negates(raw.cfg, o.cfg) || negates(o.cfg, raw.cfg)) {
				neg = n
				paired[n] = true
				break
			}
		}
		conds = append(conds, k)
		negs = append(negs, neg)
	}
	return conds, negs
}

// negates reports whether predicate a is "not(b)".
func negates(a, b []byte) bool {
	return len(a) == len(b)+5 && bytes.HasPrefix(a, []byte("not(")) && a[len(a)-1] == ')' && bytes.Equal(a[4:len(a)-1], b)
}

// markDocLines marks every `///` line of run runtime for why.
func (s *rustScanner) markDocLines(run *rustDocRun, why string) {
	for _, l := range run.lines {
		if l.raw == 0 {
			s.mark(l.start, l.end, Runtime, why)
		}
	}
}

const (
	rustWhyAfterOpaque  = "doc comment after a #[doc] attribute whose text is not in this file"
	rustWhyBeforeOpaque = "doc comment that a #[doc] attribute's text, not in this file, could continue"
	rustWhyIndentOpaque = "doc comment whose indentation a #[doc] attribute's text, not in this file, could change"
)

// docReading returns the regions of each `///` line of run (nil for the
// attributes) when the attributes present[k] are there.
func (s *rustScanner) docReading(run *rustDocRun, present []bool) [][]Region {
	src := s.src
	regs := make([][]Region, len(run.lines))
	whole := func(k int, why string) {
		l := run.lines[k]
		regs[k] = []Region{{Start: l.start, End: l.end, Kind: Runtime, Why: why}}
	}
	minIndent, add, cut := s.rustdocIndent(run, present)
	if cut < len(run.lines) && minIndent > add {
		for k, l := range run.lines {
			if l.raw == 0 {
				whole(k, rustWhyIndentOpaque)
			}
		}
		return regs
	}
	var doc []byte
	var segs []rustDocSeg
	var at, lineOf []int
	lastBlank := -1 // index in segs of the first line after the last blank doc line
	for k, l := range run.lines[:cut] {
		if l.raw != 0 {
			if !present[l.raw-1] {
				continue
			}
			for _, line := range rustDocTextLines(run.raws[l.raw-1].text) {
				if hasNonSpace(line) {
					doc = append(doc, line[min(len(line), max(minIndent-add, 0)):]...)
				} else {
					doc = append(doc, line...)
					lastBlank = len(segs)
				}
				doc = append(doc, '\n')
			}
			continue
		}
		text := src[l.start+3 : l.end]
		from := l.start + 3
		if hasNonSpace(text) {
			from += minIndent
		} else {
			lastBlank = len(segs) + 1
		}
		at = append(at, len(doc))
		lineOf = append(lineOf, k)
		segs = append(segs, rustDocSeg{l.start, from, l.end})
		doc = append(doc, src[from:l.end]...)
		doc = append(doc, '\n')
	}
	s.markdownOnto(doc, segs, at, func(g int) (string, bool) {
		l := run.lines[lineOf[g]]
		return matchAfterRemoval(src[l.start:l.end], rustDirective)
	}, func(g int, r Region) { regs[lineOf[g]] = append(regs[lineOf[g]], r) })
	if cut == len(run.lines) {
		return regs
	}
	for g := max(lastBlank, 0); g < len(segs); g++ {
		if bytes.ContainsAny(src[segs[g].from:segs[g].end], "`<[]:") {
			whole(lineOf[g], rustWhyBeforeOpaque)
		}
	}
	for k := cut; k < len(run.lines); k++ {
		if run.lines[k].raw == 0 {
			whole(k, rustWhyAfterOpaque)
		}
	}
	return regs
}

// rustdocIndent returns what rustdoc cuts from the lines of the present
// fragments: minIndent from each `///` line that holds text and, for an
// attribute's line, minIndent-add, where add is 1 when sugared and raw
// fragments mix (rustdoc counts an attribute's line one column deeper, as
// if it had the space after `///`). cut is the index in run.lines of the
// first present attribute whose text is not in this file (len(run.lines)
// when none is); its lines can only count add or more.
func (s *rustScanner) rustdocIndent(run *rustDocRun, present []bool) (minIndent, add, cut int) {
	cut = len(run.lines)
	sugared, prevRaw, mixed := false, -1, false
	for k, l := range run.lines {
		isRaw := l.raw != 0
		if isRaw && !present[l.raw-1] {
			continue
		}
		if isRaw && run.raws[l.raw-1].opaque && cut == len(run.lines) {
			cut = k
		}
		sugared = sugared || !isRaw
		r := 0
		if isRaw {
			r = 1
		}
		mixed = mixed || (prevRaw >= 0 && prevRaw != r)
		prevRaw = r
	}
	if sugared && mixed {
		add = 1
	}
	minIndent = -1
	note := func(line []byte, extra int) {
		if !hasNonSpace(line) {
			return
		}
		w := 0
		for w < len(line) && (line[w] == ' ' || line[w] == '\t') {
			w++
		}
		if minIndent < 0 || w+extra < minIndent {
			minIndent = w + extra
		}
	}
	for _, l := range run.lines {
		switch {
		case l.raw == 0:
			note(s.src[l.start+3:l.end], 0)
		case present[l.raw-1] && !run.raws[l.raw-1].opaque:
			for _, line := range rustDocTextLines(run.raws[l.raw-1].text) {
				note(line, add)
			}
		}
	}
	return max(minIndent, 0), add, cut
}

// rustDocTextLines splits an attribute's text as Rust's str::lines does
// (a final line break ends the last line; \r\n is a line break), with one
// empty line for empty text, as add_doc_fragment writes it.
func rustDocTextLines(t []byte) [][]byte {
	if len(t) == 0 {
		return [][]byte{nil}
	}
	t = bytes.TrimSuffix(t, []byte("\n"))
	lines := bytes.Split(t, []byte("\n"))
	for k, l := range lines {
		lines[k] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}
