package ucarrier

import (
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/class"
)

// policy holds what stays true across the passes over one text.
type policy struct {
	before, after []byte
	strict        bool
	markdown      bool
	// paragraphs says that the unit a right-to-left mark is judged in is a
	// paragraph (lines up to a blank line), as in Markdown and text; in
	// every other language it is the line (of a comment).
	paragraphs bool
	seps       lineSeps // which of NEL, LS, PS end a line in this language
	fileStart  bool
	kind       string
	keep       map[int]bool
}

// lineSeps is a set of the code points beyond LF and CR that end a line.
type lineSeps uint8

const (
	sepNEL lineSeps = 1 << iota // U+0085
	sepLS                       // U+2028
	sepPS                       // U+2029
)

func (s lineSeps) has(r rune) bool {
	switch r {
	case 0x85:
		return s&sepNEL != 0
	case 0x2028:
		return s&sepLS != 0
	case 0x2029:
		return s&sepPS != 0
	}
	return false
}

// lineSeparators says which line separators end a line (and with it a line
// comment) in a language: ECMAScript's LineTerminator holds LS and PS
// (JavaScript, TypeScript, JSON5, and JSONC as its parsers read it); YAML
// 1.1 readers (libyaml, PyYAML, yaml.v3) and C# also end lines at NEL.
// Python, Go, Rust, shell, TOML, Markdown, HTML and CSS end lines at LF and
// CR only.
func lineSeparators(lang string) lineSeps {
	switch lang {
	case "javascript", "typescript", "json", "jsonc", "json5":
		return sepLS | sepPS
	case "yaml", "csharp":
		return sepNEL | sepLS | sepPS
	}
	return 0
}

func newPolicy(before, text, after []byte, opt Options) *policy {
	p := &policy{before: before, after: after, fileStart: opt.FileStart, kind: opt.Kind}
	p.strict = opt.Profile == carrier.Strict
	p.seps = lineSeparators(opt.Lang)
	switch opt.Lang {
	case "markdown":
		p.markdown, p.paragraphs = true, true
	case "text", "":
		p.paragraphs = true
	}
	if len(opt.Keep) > 0 {
		p.keep = make(map[int]bool, len(opt.Keep))
		for _, k := range opt.Keep {
			p.keep[k] = true
		}
	}
	return p
}

func (p *policy) kept(off int) bool { return p.keep[off] }

// severity ranks a finding where it sits (see carrier.Severity).
func (p *policy) severity(h hit) carrier.Severity {
	switch {
	case h.c == class.Tag, p.kind == "directive", p.seps.has(h.r):
		return carrier.High
	case h.c == class.VariationSelector && h.hidden != "":
		return carrier.High
	case h.c == class.BidiControl && p.kind != "prose":
		return carrier.High
	case h.c == class.Space, h.c == class.PrivateUse, h.c == class.SoftHyphen && h.a == carrier.Report:
		return carrier.Low
	}
	return carrier.Medium
}

// scanner is one pass over one text.
type scanner struct {
	*policy
	v       view
	hits    []hit
	invalid bool

	// right-to-left cache: the unit [rtlLo, rtlHi) holds a strong
	// right-to-left letter when rtlRes.
	rtlLo, rtlHi int
	rtlRes       bool

	// trailing-whitespace cache: positions in [trailLo, trailHi] share trailRes.
	trailLo, trailHi int
	trailRes         bool
	// leading-whitespace state: the line starting at leadLine holds only
	// blanks up to leadPos when leadBlank.
	leadLine, leadPos int
	leadBlank         bool
	leadInit          bool
	// seqLead bytes at the start of text continue an escape sequence
	// that begins before the region (see leadIn): kept and reported.
	seqLead int
}

// hit is a finding before it is dressed with its name and class strings.
type hit struct {
	off, n int
	r      rune
	c      class.Class
	a      carrier.Action
	hidden string
}

func (h hit) finding() carrier.Finding {
	return carrier.Finding{Offset: h.off, Len: h.n, Rune: h.r, Name: Name(h.r), Class: h.c.String(), Action: h.a, Hidden: h.hidden}
}

// pass scans text from start (the bytes before it are plain) and returns its
// hits, and whether text is not valid UTF-8.
func (p *policy) pass(text []byte, start int) ([]hit, bool) {
	s := &scanner{policy: p, v: view{p.before, text, p.after}, trailLo: 1, trailHi: 0, rtlLo: 1, seqLead: leadIn(p.before, text)}
	n := len(text)
	for i := start; i < n; {
		if i = nextSpecial(text, i); i >= n {
			break
		}
		c := text[i]
		if c < utf8.RuneSelf {
			if c == 0x1B {
				if l, a := s.sequence(i, 1); l > 1 || a == carrier.Report {
					s.emit(i, l, 0x1B, class.ANSIEscape, a)
					i += l
					continue
				}
			}
			i = s.decide(i, rune(c), 1)
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if size == 1 && r == utf8.RuneError {
			s.invalid = true
			i++
			continue
		}
		if isEscIntro(r) {
			if l, a := s.sequence(i, 2); l > 2 || a == carrier.Report {
				s.emit(i, l, r, class.ANSIEscape, a)
				i += l
				continue
			}
		}
		i = s.decide(i, r, size)
	}
	return s.hits, s.invalid
}

// nextSpecial returns the offset of the first byte at or after i that may
// start a carrier: an ASCII control or DEL, a byte that is not valid
// UTF-8, or a rune isCandidate accepts; len(text) when there is none. It
// is the hot path of every scan. Two-byte sequences (Latin, Greek,
// Cyrillic, Hebrew, Arabic) are decoded inline; three-byte ones (CJK,
// Indic, punctuation) are checked against the BMP prefilter from their
// first two bytes, so a block without carriers needs no decoding; the emoji
// plane U+1F000..U+1FFFD holds no carrier.
func nextSpecial(text []byte, i int) int {
	n := len(text)
	for i < n {
		c := text[i]
		if c < utf8.RuneSelf {
			if isPlain(c) {
				i += plainLen(text[i:])
				continue
			}
			return i
		}
		if c >= 0xC2 && c < 0xE0 && i+1 < n && text[i+1]&0xC0 == 0x80 {
			// Most two-byte blocks (Greek, Cyrillic, Hebrew) hold no
			// candidate at all: their empty set needs no call.
			if r := rune(c&0x1F)<<6 | rune(text[i+1]&0x3F); candBMPIndex[r>>8] != 0 && isCandidate(r) {
				return i
			}
			i += 2
			continue
		}
		if c == 0xF0 && i+3 < n && text[i+1] == 0x9F && text[i+2]&0xC0 == 0x80 && text[i+3]&0xC0 == 0x80 &&
			!(text[i+2] == 0xBF && text[i+3] >= 0xBE) {
			i += 4
			continue
		}
		if c >= 0xE0 && c < 0xF0 && i+2 < n {
			b1, b2 := text[i+1], text[i+2]
			lo, hi := byte(0x80), byte(0xBF)
			switch c {
			case 0xE0:
				lo = 0xA0
			case 0xED:
				hi = 0x9F
			}
			if b1 >= lo && b1 <= hi && b2&0xC0 == 0x80 {
				// A valid three-byte character, decoded here: its block's
				// set answers, an empty one without a look at the bits.
				r := rune(c&0x0F)<<12 | rune(b1&0x3F)<<6 | rune(b2&0x3F)
				if candBMPIndex[r>>8] != 0 && isCandidate(r) {
					return i
				}
				i += 3
				continue
			}
		}
		r, size := utf8.DecodeRune(text[i:])
		if (size == 1 && r == utf8.RuneError) || isCandidate(r) {
			return i
		}
		i += size
	}
	return n
}

func (s *scanner) emit(off, n int, r rune, c class.Class, a carrier.Action) {
	if off < s.seqLead {
		a = carrier.Report // part of a sequence begun before the region
	}
	s.hits = append(s.hits, hit{off: off, n: n, r: r, c: c, a: a})
}

// sequence returns the length of the escape sequence at text[i], whose
// introducer is intro bytes long, and what to do with it: remove it, or,
// when the region's end cuts it after more than its introducer (see
// cutAtEnd), report the rest of the region, kept whole with what follows.
// An introducer alone at the region's end still goes: what follows it is
// another region's own text (a rustdoc code span, a Markdown link), which
// it only seemed to start a sequence in.
func (s *scanner) sequence(i, intro int) (int, carrier.Action) {
	text := s.v.text
	n, open := seqLen(text[i:])
	if open && len(text)-i > intro && cutAtEnd(text[i:], s.v.after) {
		return len(text) - i, carrier.Report
	}
	return n, carrier.Remove
}

// decide judges the carrier r at i and returns where scanning resumes (after
// the carrier, or after a whole run judged at once).
func (s *scanner) decide(i int, r rune, size int) int {
	c := class.Of(r)
	next := i + size
	switch c {
	case class.PrivateUse:
		s.emit(i, size, r, c, carrier.Report)
		return next
	case class.BOM:
		if !(s.fileStart && i == 0 && len(s.v.before) == 0) {
			s.emit(i, size, r, c, carrier.Remove)
		}
		return next
	case class.LineSeparator:
		if s.seps.has(r) {
			s.emit(i, size, r, c, carrier.Report)
		} else {
			s.space(i, size, r, c)
		}
		return next
	case class.Space:
		if s.strict {
			s.space(i, size, r, c)
			return next
		}
		switch r {
		case 0x00A0, 0x202F:
			if !s.frenchSpace(i, size) {
				s.space(i, size, r, c)
			}
		case 0x3000:
			return s.run(i, r, c, isCJK)
		default:
			s.space(i, size, r, c)
		}
		return next
	}
	if c == class.Tag {
		return s.run(i, r, c, nil)
	}
	if c == class.SoftHyphen && !s.strict && s.inWord(i, size) {
		// A hyphenation point a typesetter or a CMS put into a long word
		// ("Donau\u00addampf\u00adschiff"): typography, not a carrier.
		// It stays, and is reported (low) so it is still seen.
		s.emit(i, size, r, c, carrier.Report)
		return next
	}
	if r == 0x2800 {
		return s.run(i, r, c, isBrailleDots)
	}
	if s.strict || !s.legit(i, r, size, c) {
		if c == class.VariationSelector {
			return s.selectorRun(i, r, size)
		}
		s.emit(i, size, r, c, carrier.Remove)
	}
	return next
}

// inWord reports whether the carrier at i (size bytes) stands between two
// letters of a word: letters of any script, neither of them a carrier (two
// soft hyphens in a row are no hyphenation point).
func (s *scanner) inWord(i, size int) bool {
	prev, _ := s.v.runeBefore(i)
	nxt, _ := s.v.runeAt(i + size)
	return isLetter(prev) && isLetter(nxt)
}

// selectorRun removes the variation selector r at i, and with it the
// selectors that follow it, as one finding: two or more selectors in a row
// are never a variation sequence but the usual way to smuggle bytes (U+FE00
// to U+FE0F stand for 0 to 15, U+E0100 to U+E01EF for 16 to 255), and the
// finding shows those bytes.
func (s *scanner) selectorRun(i int, r rune, size int) int {
	end := i + size
	payload := []byte{selectorByte(r)}
	for end < len(s.v.text) {
		x, n := s.v.runeAt(end)
		if !isPayloadSelector(x) || !isPayloadSelector(r) {
			break
		}
		payload = append(payload, selectorByte(x))
		end += n
	}
	h := hit{off: i, n: end - i, r: r, c: class.VariationSelector, a: carrier.Remove}
	if len(payload) > 1 {
		h.hidden = hexBytes(payload)
	}
	s.hits = append(s.hits, h)
	return end
}

// isPayloadSelector: the 256 selectors that the byte encoding uses
// (not the Mongolian free variation selectors).
func isPayloadSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF)
}

func selectorByte(r rune) byte {
	if r >= 0xE0100 {
		return byte(r - 0xE0100 + 16)
	}
	return byte(r - 0xFE00)
}

func hexBytes(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 3*len(b))
	for i, c := range b {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// legit reports whether the standard profile keeps carrier r at i as a
// legitimate use. Spaces, BOM, private use, line separators and runs are
// decided by decide.
func (s *scanner) legit(i int, r rune, size int, c class.Class) bool {
	prev, _ := s.v.runeBefore(i)
	nxt, _ := s.v.runeAt(i + size)
	switch c {
	case class.Control:
		// A form feed alone at the start of a line is a page break (^L).
		return r == 0x0C && (prev == -1 || prev == '\n' || prev == '\r')
	case class.BidiMark:
		if class.Of(prev) == class.BidiMark || class.Of(nxt) == class.BidiMark {
			return false // runs of marks carry bits, never typography
		}
		return s.unitHasRTL(i)
	case class.ZeroWidth:
		return r == 0x200B && isSA(prev) && isSA(nxt)
	case class.Joiner:
		return s.legitJoiner(i, r, size, prev, nxt)
	case class.VariationSelector:
		return keepVS(prev, r, nxt)
	case class.Filler:
		return legitFiller(r, prev, nxt)
	case class.Format:
		return legitFormat(r, prev, nxt)
	}
	return false
}

// legitJoiner keeps a combining grapheme joiner between marks (or a letter
// and a mark), a ZWJ in an emoji sequence, cursive joining or after a
// virama, and a ZWNJ in cursive joining or after a virama.
func (s *scanner) legitJoiner(i int, r rune, size int, prev, nxt rune) bool {
	switch r {
	case 0x034F: // CGJ: between combining marks, or letter and mark
		return isMark(nxt) && (isMark(prev) || isLetter(prev))
	case 0x200D:
		return s.emojiZWJ(i, size) || s.cursiveJoin(i, size) || s.viramaZWJ(i, size)
	case 0x200C:
		return s.cursiveJoin(i, size) || s.viramaZWNJ(i, size)
	}
	return false
}

// legitFiller keeps a Hangul filler standing in for a missing jamo of a
// real syllable.
func legitFiller(r, prev, nxt rune) bool {
	switch r {
	case 0x115F: // HANGUL CHOSEONG FILLER before a real vowel
		return isJamoV(nxt) && nxt != 0x1160
	case 0x1160: // HANGUL JUNGSEONG FILLER after a real leading consonant
		return isJamoL(prev) && prev != 0x115F
	}
	return false
}

// legitFormat keeps the format characters that are visible or that a
// script's own shaping needs next to its letters.
func legitFormat(r, prev, nxt rune) bool {
	switch {
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return true // visible: U+0600..U+0605, U+06DD, U+070F, U+0890, U+0891, U+08E2, U+110BD, U+110CD
	case r >= 0x13430 && r <= 0x1343F:
		return isEgyptian(prev) || isEgyptian(nxt)
	case r >= 0x1BCA0 && r <= 0x1BCA3:
		return isDuployan(prev) || isDuployan(nxt)
	case r >= 0x1D173 && r <= 0x1D17A:
		return isMusical(prev) || isMusical(nxt)
	case r == 0x180E: // MONGOLIAN VOWEL SEPARATOR before a final A or E
		return isMongolianLetter(prev) && (nxt == 0x1820 || nxt == 0x1821)
	}
	return false
}

// run judges a maximal run of the same carrier (U+3000, U+2800) or of tag
// characters at once, so a long run costs linear time. A run is kept when
// touches says one of its outer neighbours is right; tags use flagTags.
// Removed members of a space run are replaced like other spaces.
func (s *scanner) run(i int, r rune, c class.Class, touches func(rune) bool) int {
	member := func(x rune) bool { return x == r }
	if c == class.Tag {
		member = isTag
	}
	end := i
	for {
		x, n := s.v.runeAt(end)
		if n == 0 || !member(x) {
			break
		}
		end += n
		if x == 0xE007F {
			break // CANCEL TAG ends a tag sequence; tags after it are a new run
		}
	}
	keep := !s.strict
	if keep {
		if c == class.Tag {
			keep = s.flagTags(i)
		} else {
			keep = s.runTouches(i, r, touches)
		}
	}
	if end > len(s.v.text) {
		end = len(s.v.text)
	}
	if keep {
		return end
	}
	if c == class.Tag {
		s.hits = append(s.hits, hit{off: i, n: end - i, r: r, c: c, a: carrier.Remove, hidden: tagText(s.v.text[i:end])})
		return end
	}
	for j := i; j < end; {
		x, n := utf8.DecodeRune(s.v.text[j:])
		if c == class.Space {
			s.space(j, n, x, c)
		} else {
			s.emit(j, n, x, class.Of(x), carrier.Remove)
		}
		j += n
	}
	return end
}

// tagText is the ASCII text a run of tag characters spells: U+E0020 to
// U+E007E stand for U+0020 to U+007E; the language tag, the cancel tag and
// unassigned tags spell nothing.
func tagText(run []byte) string {
	var out []byte
	for j := 0; j < len(run); {
		x, n := utf8.DecodeRune(run[j:])
		if x >= 0xE0020 && x <= 0xE007E {
			out = append(out, byte(x-0xE0000))
		}
		j += n
	}
	return string(out)
}

// runTouches reports whether the maximal run of r around i has a neighbour
// for which touches is true.
func (s *scanner) runTouches(i int, r rune, touches func(rune) bool) bool {
	a := i
	for {
		x, n := s.v.runeBefore(a)
		if n == 0 || x != r {
			break
		}
		a -= n
	}
	b := i
	for {
		x, n := s.v.runeAt(b)
		if n == 0 || x != r {
			break
		}
		b += n
	}
	prev, _ := s.v.runeBefore(a)
	nxt, _ := s.v.runeAt(b)
	return touches(prev) || touches(nxt)
}

// space replaces an exotic space or line separator with U+0020, or removes
// it where a space would be trailing whitespace (a Markdown hard line break)
// or, in Markdown, leading whitespace (an indented code block).
func (s *scanner) space(i, size int, r rune, c class.Class) {
	a := carrier.Replace
	if s.trailing(i+size) || (s.markdown && s.leading(i)) {
		a = carrier.Remove
	}
	s.emit(i, size, r, c, a)
}

// blank reports whether r may sit in leading or trailing whitespace: a
// space, a tab or a carrier. Only carriers that are never removed count as
// content: private use, and the visible prepended concatenation marks that
// the standard profile always keeps.
func (s *scanner) blank(r rune) bool {
	if r == ' ' || r == '\t' {
		return true
	}
	if r < 0 || !isCandidate(r) || s.lineBreak(r) {
		return false
	}
	switch class.Of(r) {
	case class.PrivateUse:
		return false
	case class.Format:
		return s.strict || !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
	}
	return true
}

func (s *scanner) lineBreak(r rune) bool {
	return r == '\n' || r == '\r' || s.seps.has(r)
}

// unitHasRTL reports whether the unit holding position i holds a strong
// right-to-left letter (Bidi_Class R or AL): its paragraph in Markdown and
// text, its line in every other language (the line of a comment), as far
// as before, text and after reach. Removing carriers never removes a
// letter or a line break, so every pass gets the same answer.
func (s *scanner) unitHasRTL(i int) bool {
	if i >= s.rtlLo && i < s.rtlHi {
		return s.rtlRes
	}
	lo, hi := i, i
	for lo > s.v.start() {
		if n := s.breakBefore(lo); n > 0 && (!s.paragraphs || s.blankLineBefore(lo-n)) {
			break
		}
		_, n := s.v.runeBefore(lo)
		lo -= n
	}
	for hi < s.v.end() {
		if n := s.breakAt(hi); n > 0 && (!s.paragraphs || s.blankLineAfter(hi+n)) {
			break
		}
		_, n := s.v.runeAt(hi)
		hi += n
	}
	res := false
	for p := lo; p < hi; {
		r, n := s.v.runeAt(p)
		if isRTLLetter(r) {
			res = true
			break
		}
		p += n
	}
	s.rtlLo, s.rtlHi, s.rtlRes = lo, hi, res
	return res
}

// breakAt returns the length of the line break starting at p (CR LF is
// one), or 0.
func (s *scanner) breakAt(p int) int {
	r, n := s.v.runeAt(p)
	if n == 0 || !s.lineBreak(r) {
		return 0
	}
	if r == '\r' {
		if x, _ := s.v.runeAt(p + 1); x == '\n' {
			return 2
		}
	}
	return n
}

// breakBefore returns the length of the line break ending at p, or 0.
func (s *scanner) breakBefore(p int) int {
	r, n := s.v.runeBefore(p)
	if n == 0 || !s.lineBreak(r) {
		return 0
	}
	if r == '\n' {
		if x, _ := s.v.runeBefore(p - 1); x == '\r' {
			return 2
		}
	}
	return n
}

// blankLineBefore reports whether the line that ends at p (where a line
// break starts) is blank (spaces and tabs only) or the view starts there.
func (s *scanner) blankLineBefore(p int) bool {
	for p > s.v.start() {
		if s.breakBefore(p) > 0 {
			return true
		}
		r, n := s.v.runeBefore(p)
		if r != ' ' && r != '\t' {
			return false
		}
		p -= n
	}
	return true
}

// blankLineAfter reports whether the line that starts at p is blank or
// the view ends there.
func (s *scanner) blankLineAfter(p int) bool {
	for p < s.v.end() {
		if s.breakAt(p) > 0 {
			return true
		}
		r, n := s.v.runeAt(p)
		if r != ' ' && r != '\t' {
			return false
		}
		p += n
	}
	return true
}

// trailing reports whether only blanks follow position j up to the end of the
// line or of text+after.
func (s *scanner) trailing(j int) bool {
	if j >= s.trailLo && j <= s.trailHi {
		return s.trailRes
	}
	q := j
	res := true
	for {
		r, n := s.v.runeAt(q)
		if n == 0 || s.lineBreak(r) {
			break
		}
		if isEscIntro(r) {
			n = ansiLen(s.v.tail(q))
		} else if !s.blank(r) {
			res = false
			break
		}
		q += n
	}
	s.trailLo, s.trailHi, s.trailRes = j, q, res
	return res
}

// leading reports whether only blanks precede position i since the start of
// its line (or of before+text). The scan is forward, so escape sequences are
// skipped whole, and it resumes where the previous question stopped.
func (s *scanner) leading(i int) bool {
	if !s.leadInit || i < s.leadPos {
		s.leadInit = true
		s.leadLine = s.v.start()
		for p := i; p > s.v.start(); {
			r, n := s.v.runeBefore(p)
			if s.lineBreak(r) {
				s.leadLine = p
				break
			}
			p -= n
		}
		s.leadPos, s.leadBlank = s.leadLine, true
	}
	for s.leadPos < i {
		r, n := s.v.runeAt(s.leadPos)
		switch {
		case s.lineBreak(r):
			s.leadLine, s.leadBlank = s.leadPos+n, true
		case isEscIntro(r):
			n = ansiLen(s.v.tail(s.leadPos))
		case !s.blank(r):
			s.leadBlank = false
		}
		s.leadPos += n
	}
	return s.leadBlank
}

// frenchSpace reports the French typography uses of U+00A0 and U+202F: after
// an opening guillemet, before a closing one and before : ; ! ?, between
// digits (thousands separator) and between a number and a unit.
func (s *scanner) frenchSpace(i, size int) bool {
	prev, _ := s.v.runeBefore(i)
	nxt, _ := s.v.runeAt(i + size)
	switch {
	case prev == 0x00AB || prev == 0x2039: // << and <
		return true
	case nxt == 0x00BB || nxt == 0x203A || nxt == ':' || nxt == ';' || nxt == '!' || nxt == '?':
		return true
	case unicode.IsDigit(prev):
		return unicode.IsDigit(nxt) || s.unitAt(i+size)
	}
	return false
}

// unitAt reports whether a unit starts at j: a percent, per mille or degree
// sign, a currency symbol, or a word of one to four letters (km, kg, Mo, h).
func (s *scanner) unitAt(j int) bool {
	r, n := s.v.runeAt(j)
	switch {
	case r == '%' || r == 0x2030 || r == 0x00B0 || (r >= 0 && unicode.Is(unicode.Sc, r)):
		return true
	case !isLetter(r):
		return false
	}
	for k := 1; ; k++ {
		j += n
		r, n = s.v.runeAt(j)
		if !isLetter(r) {
			return k <= 4
		}
	}
}

// emojiZWJ: ZWJ between Extended_Pictographic, allowing a skin tone and
// U+FE0F after the first one (UTS #51 ZWJ sequences).
func (s *scanner) emojiZWJ(i, size int) bool {
	nxt, _ := s.v.runeAt(i + size)
	if !isExtPict(nxt) {
		return false
	}
	p := i
	for k := 0; k < 3; k++ {
		r, n := s.v.runeBefore(p)
		switch {
		case n == 0:
			return false
		case isExtPict(r):
			return true
		case k < 2 && (r == 0xFE0F || isEmojiModifier(r)):
			p -= n
		default:
			return false
		}
	}
	return false
}

// cursiveJoin is UAX #31 A1 for ZWNJ (and, here, ZWJ): a left-joining letter,
// transparent marks, the joiner, transparent marks, a right-joining letter.
func (s *scanner) cursiveJoin(i, size int) bool {
	p := i
	for {
		r, n := s.v.runeBefore(p)
		if n == 0 {
			return false
		}
		t := joiningType(r)
		if t == 'T' && !isCandidate(r) {
			p -= n
			continue
		}
		if t != 'D' && t != 'L' {
			return false
		}
		break
	}
	q := i + size
	for {
		r, n := s.v.runeAt(q)
		if n == 0 {
			return false
		}
		t := joiningType(r)
		if t == 'T' && !isCandidate(r) {
			q += n
			continue
		}
		return t == 'D' || t == 'R'
	}
}

// afterVirama matches $L $M* $V $M1* right before i (UAX #31 A2 and B).
func (s *scanner) afterVirama(i int) bool {
	p := i
	for {
		r, n := s.v.runeBefore(p)
		if n == 0 {
			return false
		}
		p -= n
		if isVirama(r) {
			break
		}
		if !isM1(r) {
			return false
		}
	}
	for {
		r, n := s.v.runeBefore(p)
		switch {
		case n == 0:
			return false
		case isLetter(r):
			return true
		case !isMark(r):
			return false
		}
		p -= n
	}
}

// viramaZWNJ is UAX #31 A2: $L $M* $V $M1* ZWNJ $M1* $L.
func (s *scanner) viramaZWNJ(i, size int) bool {
	if !s.afterVirama(i) {
		return false
	}
	q := i + size
	for {
		r, n := s.v.runeAt(q)
		if n == 0 {
			return false
		}
		if isM1(r) {
			q += n
			continue
		}
		return isLetter(r)
	}
}

// viramaZWJ is UAX #31 B: $L $M* $V $M1* ZWJ not followed by a dependent vowel.
func (s *scanner) viramaZWJ(i, size int) bool {
	nxt, _ := s.v.runeAt(i + size)
	return s.afterVirama(i) && !isVowelDependent(nxt)
}

// flagTags reports whether the run of tag characters holding i is the tag
// spec and terminator of a well-formed subdivision flag: U+1F3F4, then a
// subdivision id (two letters or three digits, then one to four letters or
// digits, as tags U+E0030..E0039, U+E0061..E007A), then U+E007F.
func (s *scanner) flagTags(i int) bool {
	a := i
	for {
		r, n := s.v.runeBefore(a)
		if n == 0 || !isTag(r) || r == 0xE007F {
			break
		}
		a -= n
	}
	if base, _ := s.v.runeBefore(a); base != 0x1F3F4 {
		return false
	}
	var spec []byte
	for q := a; ; {
		r, n := s.v.runeAt(q)
		switch {
		case r == 0xE007F:
			return validSubdivision(spec)
		case r >= 0xE0030 && r <= 0xE0039, r >= 0xE0061 && r <= 0xE007A:
			if len(spec) == 7 {
				return false
			}
			spec = append(spec, byte(r-0xE0000))
			q += n
		default:
			return false
		}
	}
}

func validSubdivision(id []byte) bool {
	if len(id) < 3 || len(id) > 7 {
		return false
	}
	isAlpha := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isNum := func(c byte) bool { return c >= '0' && c <= '9' }
	var rest []byte
	switch {
	case isAlpha(id[0]) && isAlpha(id[1]):
		rest = id[2:]
	case len(id) >= 4 && isNum(id[0]) && isNum(id[1]) && isNum(id[2]):
		rest = id[3:]
	default:
		return false
	}
	return len(rest) >= 1 && len(rest) <= 4
}

// keepVS: one variation selector right after a base it is defined for.
func keepVS(prev, vs, nxt rune) bool {
	switch {
	case prev < 0 || isCandidate(prev):
		return false
	case vs == 0xFE0E || vs == 0xFE0F:
		if prev == '#' || prev == '*' || (prev >= '0' && prev <= '9') {
			// Keycaps only: a bare digit takes no selector, or every digit
			// of a number could carry a bit.
			return nxt == 0x20E3
		}
		return isEmojiVSBase(prev) || isStdVariant(prev, vs)
	case vs >= 0xE0100:
		return unicode.Is(unicode.Unified_Ideograph, prev)
	case vs >= 0x180B && vs <= 0x180F:
		return isMongolianLetter(prev)
	}
	return isStdVariant(prev, vs)
}

func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

func isLetter(r rune) bool { return r >= 0 && unicode.IsLetter(r) && !isCandidate(r) }

func isMark(r rune) bool { return r >= 0 && unicode.IsMark(r) && !isCandidate(r) }

// isSA approximates Line_Break=SA (South East Asian scripts written without
// spaces) by script: letters and marks of Thai, Lao, Khmer, Myanmar, Tai Tham,
// Tai Viet and New Tai Lue.
func isSA(r rune) bool {
	return (isLetter(r) || isMark(r)) &&
		unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar,
			unicode.Tai_Tham, unicode.Tai_Viet, unicode.New_Tai_Lue)
}

// isCJK is the company of a kept U+3000: Han, Hiragana, Katakana, the CJK
// punctuation block and the fullwidth and halfwidth forms.
func isCJK(r rune) bool {
	switch {
	case r >= 0x3001 && r <= 0x30FF, r >= 0xFF01 && r <= 0xFF9F, r >= 0x31F0 && r <= 0x31FF:
		return true
	case r < 0x2E80:
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func isBrailleDots(r rune) bool { return r >= 0x2801 && r <= 0x28FF }

func isMongolianLetter(r rune) bool { return isLetter(r) && unicode.Is(unicode.Mongolian, r) }

func isEgyptian(r rune) bool {
	return r >= 0 && !isCandidate(r) && unicode.Is(unicode.Egyptian_Hieroglyphs, r)
}

func isDuployan(r rune) bool { return r >= 0 && !isCandidate(r) && unicode.Is(unicode.Duployan, r) }

// isMusical: the Musical Symbols block, U+1D100..U+1D1FF, but its format controls.
func isMusical(r rune) bool { return r >= 0x1D100 && r <= 0x1D1FF && !isCandidate(r) }
