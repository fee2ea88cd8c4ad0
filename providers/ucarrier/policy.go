package ucarrier

import (
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/providers/ucarrier/internal/class"
)

// policy holds what stays true across the passes over one text.
type policy struct {
	before, after []byte
	orig          []byte // the text of the first pass
	strict        bool
	markdown      bool
	lineSepBreaks bool // U+2028, U+2029 and U+0085 end lines in this language
	fileStart     bool
	rtl           int8 // 0 unknown, 1 yes, -1 no
}

func newPolicy(before, text, after []byte, opt Options) *policy {
	p := &policy{before: before, after: after, orig: text, fileStart: opt.FileStart}
	p.strict = opt.Profile == carrier.Strict
	switch opt.Lang {
	case "markdown":
		p.markdown = true
	case "javascript", "typescript", "yaml":
		p.lineSepBreaks = true
	}
	return p
}

// hasRTL reports whether the text or its context holds a strong
// right-to-left letter (Bidi_Class R or AL). Removing carriers never removes
// a letter, so the first pass's answer holds for every pass.
func (p *policy) hasRTL() bool {
	if p.rtl == 0 {
		p.rtl = -1
		for _, b := range [][]byte{p.before, p.orig, p.after} {
			if containsRTL(b) {
				p.rtl = 1
				break
			}
		}
	}
	return p.rtl > 0
}

func containsRTL(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < 0xD6 { // below U+0590
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if isRTLLetter(r) {
			return true
		}
		i += n
	}
	return false
}

// scanner is one pass over one text.
type scanner struct {
	*policy
	v       view
	hits    []hit
	invalid bool

	// trailing-whitespace cache: positions in [trailLo, trailHi] share trailRes.
	trailLo, trailHi int
	trailRes         bool
	// leading-whitespace state: the line starting at leadLine holds only
	// blanks up to leadPos when leadBlank.
	leadLine, leadPos int
	leadBlank         bool
	leadInit          bool
}

// hit is a finding before it is dressed with its name and class strings.
type hit struct {
	off, n int
	r      rune
	c      class.Class
	a      carrier.Action
}

func (h hit) finding() carrier.Finding {
	return carrier.Finding{Offset: h.off, Len: h.n, Rune: h.r, Name: Name(h.r), Class: h.c.String(), Action: h.a}
}

// pass scans text from start (the bytes before it are plain) and returns its
// hits, and whether text is not valid UTF-8.
func (p *policy) pass(text []byte, start int) ([]hit, bool) {
	s := &scanner{policy: p, v: view{p.before, text, p.after}, trailLo: 1, trailHi: 0}
	n := len(text)
	for i := start; i < n; {
		c := text[i]
		if c < utf8.RuneSelf {
			if isPlain(c) {
				i += plainLen(text[i:])
				continue
			}
			if c == 0x1B {
				if l := ansiLen(text[i:]); l > 1 {
					s.emit(i, l, 0x1B, class.ANSIEscape, carrier.Remove)
					i += l
					continue
				}
			}
			i = s.decide(i, rune(c), 1)
			continue
		}
		// Two-byte sequences (Latin, Greek, Cyrillic, Hebrew, Arabic) are
		// decoded inline; three-byte ones (CJK, Indic, punctuation) are
		// checked against the BMP prefilter from their first two bytes, so
		// a block without carriers needs no decoding; the emoji plane
		// U+1F000..U+1FFFD holds no carrier.
		if c >= 0xC2 && c < 0xE0 && i+1 < n && text[i+1]&0xC0 == 0x80 {
			r := rune(c&0x1F)<<6 | rune(text[i+1]&0x3F)
			if isCandidate(r) {
				i = s.decide(i, r, 2)
			} else {
				i += 2
			}
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
			if b1 >= lo && b1 <= hi && b2&0xC0 == 0x80 && candBMPIndex[(c&0x0F)<<4|(b1&0x3F)>>2] == 0 {
				i += 3
				continue
			}
		}
		r, size := utf8.DecodeRune(text[i:])
		if size == 1 && r == utf8.RuneError {
			s.invalid = true
			i++
			continue
		}
		if isCandidate(r) {
			i = s.decide(i, r, size)
		} else {
			i += size
		}
	}
	return s.hits, s.invalid
}

func (s *scanner) emit(off, n int, r rune, c class.Class, a carrier.Action) {
	s.hits = append(s.hits, hit{off, n, r, c, a})
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
		if s.lineSepBreaks {
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
	if r == 0x2800 {
		return s.run(i, r, c, isBrailleDots)
	}
	if s.strict || !s.keep(i, r, size, c) {
		s.emit(i, size, r, c, carrier.Remove)
	}
	return next
}

// keep reports whether the standard profile keeps carrier r at i. Spaces,
// BOM, private use, line separators and runs are decided by decide.
func (s *scanner) keep(i int, r rune, size int, c class.Class) bool {
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
		return s.hasRTL()
	case class.ZeroWidth:
		return r == 0x200B && isSA(prev) && isSA(nxt)
	case class.Joiner:
		switch r {
		case 0x034F: // CGJ: between combining marks, or letter and mark
			return isMark(nxt) && (isMark(prev) || isLetter(prev))
		case 0x200D:
			return s.emojiZWJ(i, size) || s.cursiveJoin(i, size) || s.viramaZWJ(i, size)
		case 0x200C:
			return s.cursiveJoin(i, size) || s.viramaZWNJ(i, size)
		}
	case class.VariationSelector:
		return keepVS(prev, r, nxt)
	case class.Filler:
		switch r {
		case 0x115F: // HANGUL CHOSEONG FILLER before a real vowel
			return isJamoV(nxt) && nxt != 0x1160
		case 0x1160: // HANGUL JUNGSEONG FILLER after a real leading consonant
			return isJamoL(prev) && prev != 0x115F
		}
	case class.Format:
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
	return r == '\n' || r == '\r' || s.lineSepBreaks && (r == 0x2028 || r == 0x2029 || r == 0x85)
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
		if r == 0x1B {
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
		case r == 0x1B:
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
