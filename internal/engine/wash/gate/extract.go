package gate

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// Token types. The approval key of a drop is "type:value".
const (
	TypeWikilink    = "wikilink"
	TypeDate        = "date"
	TypeVersion     = "version"
	TypeLink        = "link"
	TypeQuote       = "quote"
	TypeNumber      = "number"
	TypeCode        = "code"
	TypeFenced      = "fenced"
	TypeIndented    = "indented"
	TypeFrontKey    = "frontmatter-key"
	TypeBindingSwap = "binding-swap"
	// TypeIdent is a hyphenated identifier with a numeric part (E-023, CVE-2024-1234, UTF-8):
	// a fact, but not a number.
	TypeIdent = "identifier"
	// TypeHandle is an @handle or @path mention (@mira, @docs/architecture.md, @types/node).
	TypeHandle = "handle"
	// TypeName is a tool, language, product or version name (pnpm, Vite, C17, German), keyed
	// lowercase.
	TypeName = "name"
	// TypePolarity is a rule word with the content words it governs: "not(force-push main)".
	// Rewording that keeps the class and most of the words keeps it.
	TypePolarity = "polarity"
	// TypeOrder is an ordered pair ("errors.Is > ==" from "prefer `errors.Is` over `==`"); it
	// is lost when the result states the reverse.
	TypeOrder = "order"
	// TypeFrontValue is a front matter value, keyed "key=value" (nested lines under their key).
	TypeFrontValue = "frontmatter-value"
	// TypeStrayFence is a code fence the result leaves unclosed that the original did not: the
	// rest of the file silently turns into code.
	TypeStrayFence = "stray-fence"
	// TypeFrontIncomplete is reported when either side's front matter is unverifiable, so its
	// keys could not be inventoried; the value names the side: orig, result or both.
	TypeFrontIncomplete = "frontmatter-incomplete"
)

// Token is one structured fact found in a file.
type Token struct{ Type, Value string }

// Key returns the approval key "type:value".
func (t Token) Key() string { return t.Type + ":" + t.Value }

// setSemantics reports the classes compared by presence only: a code line or a key has no
// meaningful multiplicity, and re-indenting or reordering code is not a loss.
func setSemantics(typ string) bool {
	return typ == TypeFenced || typ == TypeIndented || typ == TypeFrontKey || typ == TypeFrontValue ||
		typ == TypePolarity || typ == TypeOrder
}

// valuePos is a value found on a line, with its byte span in the line (for bindings).
type valuePos struct {
	tok        Token
	start, end int
}

// lineScan is what the line-local classes leave for the sentence reader: the line with every
// recognised span blanked (code spans, links, dates, numbers...) and its code spans in order.
type lineScan struct {
	masked []byte
	codes  []codeSpan
	quotes []codeSpan // double-quoted spans (their words stay in masked)
}

type codeSpan struct {
	start, end int
	text       string
}

// lineTokens extracts the inline token classes of one prose line. It masks each recognised
// span before the next class runs so that, for example, the digits of a date or a URL never
// count as numbers. Values that take part in subject bindings are returned in line order.
func lineTokens(s string, ordinal int, add func(Token), cfg checks) ([]valuePos, lineScan) {
	m := []byte(s)
	if ordinal > 0 {
		mask(m, 0, ordinal)
	}
	var sc lineScan
	if strings.IndexByte(s, '`') >= 0 {
		sc.codes = codeSpans(s, m, add)
	}
	if strings.Contains(s, "[[") {
		wikilinks(s, m, add)
	}
	if strings.Contains(s, "[^") {
		footnoteLabels(m)
	}
	links(s, m, add, cfg)
	if !cfg.noHandles && strings.IndexByte(s, '@') >= 0 {
		handles(s, m, add)
	}
	if !cfg.frontLine && (strings.IndexByte(s, '"') >= 0 || strings.Contains(s, "\u201c")) {
		// In front matter quotes are YAML syntax; the value itself is a frontmatter-value.
		sc.quotes = quotes(s, m, add)
	}
	sc.masked = m
	if !hasDigit(m) {
		return nil, sc
	}
	if !cfg.skipType[TypeIdent] && strings.IndexByte(s, '-') >= 0 {
		identifiers(m, add)
	}
	var vals []valuePos
	vals = dates(m, vals, add)
	vals = versions(m, vals, add)
	vals = numbers(m, vals, add, !cfg.noUnits)
	return vals, sc
}

func mask(m []byte, a, b int) {
	for i := a; i < b && i < len(m); i++ {
		m[i] = ' '
	}
}

func hasDigit(m []byte) bool {
	for _, c := range m {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// codeSpans follows CommonMark: a run of n backticks opens a span closed by the next run of
// exactly n backticks on the line. The content is kept verbatim: renaming an identifier is a drop.
func codeSpans(s string, m []byte, add func(Token)) []codeSpan {
	var spans []codeSpan
	for i := 0; i < len(s); {
		if s[i] != '`' || escaped(s, i) {
			i++
			continue
		}
		n := run(s, i, '`')
		j := i + n
		found := -1
		for j < len(s) {
			if s[j] != '`' {
				j++
				continue
			}
			k := run(s, j, '`')
			if k == n {
				found = j
				break
			}
			j += k
		}
		if found < 0 {
			i += n
			continue
		}
		if v := s[i+n : found]; strings.TrimSpace(v) != "" {
			add(Token{TypeCode, v})
			spans = append(spans, codeSpan{i, found + n, v})
		}
		mask(m, i, found+n)
		i = found + n
	}
	return spans
}

func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func escaped(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// wikilinks keys [[target|display]] by its target: editing display text is not a drop.
func wikilinks(s string, m []byte, add func(Token)) {
	for i := 0; i+1 < len(m); i++ {
		if m[i] != '[' || m[i+1] != '[' {
			continue
		}
		end := -1
		for j := i + 2; j+1 < len(m); j++ {
			if m[j] == '[' {
				break
			}
			if m[j] == ']' {
				if m[j+1] == ']' {
					end = j
				}
				break
			}
		}
		if end < 0 {
			continue
		}
		inner := s[i+2 : end]
		if k := strings.IndexByte(inner, '|'); k >= 0 {
			inner = inner[:k]
		}
		if t := strings.TrimSpace(inner); t != "" {
			add(Token{TypeWikilink, t})
		}
		mask(m, i, end+2)
		i = end + 1
	}
}

func footnoteLabels(m []byte) {
	for i := 0; i+1 < len(m); i++ {
		if m[i] != '[' || m[i+1] != '^' {
			continue
		}
		for j := i + 2; j < len(m); j++ {
			if m[j] == ']' {
				mask(m, i, j+1)
				i = j
				break
			}
			if m[j] == ' ' || m[j] == '[' {
				break
			}
		}
	}
}

// patterns are the gate's regular expressions, compiled on first use: every prosewash process
// links this package, and most (a hook that records a path) never inventory a file.
type patterns struct {
	refDef, autolink, bareURL *regexp.Regexp
	domain, ident             *regexp.Regexp
	dates                     []datePattern
	version3, versionV        *regexp.Regexp
	number                    *regexp.Regexp
}

// datePattern is one compiled date form (see dateForms).
type datePattern struct {
	re *regexp.Regexp
	dateForm
}

var res = sync.OnceValue(func() *patterns {
	p := &patterns{
		refDef:   regexp.MustCompile(`^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)`),
		autolink: regexp.MustCompile(`<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?)>`),
		bareURL:  regexp.MustCompile(`(?i)(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>()\[\]{}"` + "`" + `]+`),
		// A scheme-less host (two or more labels, letters-only top level) with an optional port
		// and path; which top levels count is decided in code (see domains).
		domain:   regexp.MustCompile(`(?i)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::\d{2,5})?(?:/[^\s<>()\[\]{}"'` + "`" + `]*)?`),
		ident:    regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*-[0-9][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*`),
		version3: regexp.MustCompile(`[vV]?\d+\.\d+(?:\.\d+)+(?:-[0-9A-Za-z][0-9A-Za-z.\-]*)?(?:\+[0-9A-Za-z][0-9A-Za-z.\-]*)?`),
		versionV: regexp.MustCompile(`[vV]\d+(?:\.\d+)?`),
		// Number forms most specific first (Go's alternation is leftmost-first).
		number: regexp.MustCompile(`[-+\x{2212}]?(?:\d{1,2}/\d{1,2}/\d{2,4}|\d+/\d+|\d{1,2}:\d{2}(?::\d{2})?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`),
	}
	for _, f := range dateForms() {
		p.dates = append(p.dates, datePattern{re: regexp.MustCompile(f.pattern), dateForm: f})
	}
	return p
})

// links extracts link destinations only (inline links and images, reference definitions,
// autolinks, bare URLs), so restyling a link between these forms keeps the same key.
func links(s string, m []byte, add func(Token), cfg checks) {
	if loc := res().refDef.FindSubmatchIndex(m); loc != nil {
		d := strings.Trim(s[loc[2]:loc[3]], "<>")
		if d != "" {
			add(Token{TypeLink, d})
		}
		mask(m, loc[2], loc[3])
	}
	for i := 0; i+1 < len(m); i++ {
		if m[i] != ']' || m[i+1] != '(' {
			continue
		}
		j := i + 2
		for j < len(m) && (m[j] == ' ' || m[j] == '\t') {
			j++
		}
		start, end := j, j
		if j < len(m) && m[j] == '<' {
			k := strings.IndexByte(s[j+1:], '>')
			if k < 0 {
				continue
			}
			start, end = j+1, j+1+k
			j = end + 1
		} else {
			depth := 0
			for j < len(m) {
				c := m[j]
				if c == ' ' || c == '\t' {
					break
				}
				if c == '(' {
					depth++
				} else if c == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
				j++
			}
			end = j
		}
		if end > start {
			add(Token{TypeLink, s[start:end]})
		}
		mask(m, i+1, j)
	}
	if strings.IndexByte(s, '<') >= 0 {
		for _, loc := range res().autolink.FindAllSubmatchIndex(m, -1) {
			add(Token{TypeLink, s[loc[2]:loc[3]]})
			mask(m, loc[0], loc[1])
		}
	}
	if strings.Contains(s, "://") || strings.Contains(s, "www.") || strings.Contains(s, "WWW.") {
		for _, loc := range res().bareURL.FindAllIndex(m, -1) {
			a, b := loc[0], trimURL(s, loc[0], loc[1])
			if b > a {
				add(Token{TypeLink, s[a:b]})
			}
			mask(m, a, loc[1])
		}
	}
	if !cfg.noDomains && hostLike(m) {
		domains(s, m, add)
	}
}

// hostLike is a cheap prefilter for domains: a dot between a letter or digit and a letter.
func hostLike(m []byte) bool {
	for i := 1; i+1 < len(m); i++ {
		if m[i] == '.' && isLetterByte(m[i+1]) && (isLetterByte(m[i-1]) || isDigit(m[i-1])) {
			return true
		}
	}
	return false
}

// trimURL drops trailing punctuation that ends the sentence rather than the URL, as GFM does.
func trimURL(s string, a, b int) int {
	for b > a {
		c := s[b-1]
		if strings.IndexByte(".,:;!?*_~'\"", c) >= 0 {
			b--
			continue
		}
		break
	}
	return b
}

// quotes extracts single-line double-quoted spans, curly or straight, keyed by their
// whitespace-collapsed inner text so restyling curly to straight is not a drop. Single quotes
// are not inventoried: they cannot be told apart from apostrophes.
func quotes(s string, m []byte, add func(Token)) []codeSpan {
	var spans []codeSpan
	for i := 0; i < len(m); {
		c, n := utf8.DecodeRune(m[i:])
		if c != '"' && c != '\u201c' {
			i += n
			continue
		}
		if c == '"' && i > 0 && wordBefore(m, i) {
			i += n
			continue
		}
		closeR := '"'
		if c == '\u201c' {
			closeR = '\u201d'
		}
		j := i + n
		found := -1
		for j < len(m) {
			d, k := utf8.DecodeRune(m[j:])
			if d == closeR {
				found = j
				break
			}
			j += k
		}
		if found < 0 {
			i += n
			continue
		}
		v := strings.Join(strings.Fields(s[i+n:found]), " ")
		_, cl := utf8.DecodeRune(m[found:])
		if hasLetterOrDigit(v) {
			add(Token{TypeQuote, v})
			spans = append(spans, codeSpan{i, found + cl, v})
		}
		i = found + cl
	}
	return spans
}

func hasLetterOrDigit(v string) bool {
	for _, r := range v {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var months = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
		"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
		"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
	}
})

const monthAlt = `(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

// dateForm is one kind of date. Forms are tried in order; each is unambiguous about day and
// month order. Slash dates with a two-digit first field (01/02/2025) are not: they stay
// numbers, verbatim.
type dateForm struct {
	pattern        string
	year, mon, day int  // submatch indexes; mon may name a month word; day 0 = month precision
	named          bool // needs a month name: skipped on lines without one
	sep            byte // needs this separator: skipped on lines without it
}

func dateForms() []dateForm {
	return []dateForm{
		{`(\d{4})-(\d{2})-(\d{2})`, 1, 2, 3, false, '-'},
		{`(\d{4})/(\d{2})/(\d{2})`, 1, 2, 3, false, '/'},
		{`(\d{1,2})-(` + monthAlt + `)-(\d{4})`, 3, 2, 1, true, '-'},
		{`(\d{1,2})(?:st|nd|rd|th)? (` + monthAlt + `)\.?,? (\d{4})`, 3, 2, 1, true, ' '},
		{`(` + monthAlt + `)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})`, 3, 1, 2, true, ' '},
		{`(` + monthAlt + `)\.? (\d{4})`, 2, 1, 0, true, ' '},
		{`(\d{4})-(\d{2})`, 1, 2, 0, false, '-'},
	}
}

// digitSepDigit reports a digit, sep, digit sequence: a cheap prefilter for numeric dates.
func digitSepDigit(m []byte, sep byte) bool {
	for i := 1; i+1 < len(m); i++ {
		if m[i] == sep && isDigit(m[i-1]) && isDigit(m[i+1]) {
			return true
		}
	}
	return false
}

// hasMonthName is a cheap prefilter for the month-name date patterns.
func hasMonthName(m []byte) bool {
	for i := 0; i+3 <= len(m); i++ {
		c := m[i] | 0x20
		if c < 'a' || c > 'z' {
			continue
		}
		if _, ok := months()[string([]byte{c, m[i+1] | 0x20, m[i+2] | 0x20})]; ok {
			return true
		}
	}
	return false
}

// dates normalises every recognised date to ISO (YYYY-MM-DD, or YYYY-MM for a month), so
// switching between styles is not a drop.
func dates(m []byte, vals []valuePos, add func(Token)) []valuePos {
	named := hasMonthName(m)
	for _, d := range res().dates {
		if d.named && !named || !d.named && !digitSepDigit(m, d.sep) || bytes.IndexByte(m, d.sep) < 0 {
			continue
		}
		for _, loc := range d.re.FindAllSubmatchIndex(m, -1) {
			a, b := loc[0], loc[1]
			if !d.bounded(m, a, b) {
				continue
			}
			v, ok := d.value(m, loc)
			if !ok {
				continue
			}
			tok := Token{TypeDate, v}
			add(tok)
			vals = append(vals, valuePos{tok, a, b})
			mask(m, a, b)
		}
	}
	return vals
}

// bounded reports a date match at a to b that no word, number or identifier continues on
// either side (a "T" of an ISO date-time may follow a day).
func (d datePattern) bounded(m []byte, a, b int) bool {
	if a > 0 && (wordBefore(m, a) || m[a-1] == '.' || m[a-1] == '-' || m[a-1] == '/') {
		return false
	}
	if b < len(m) && (isDigit(m[b]) || m[b] == '-' && b+1 < len(m) && isDigit(m[b+1]) || isLetterByte(m[b]) && d.day != 0 && !isTimeMarker(m, b)) {
		return false
	}
	return !(b < len(m) && d.day == 0 && (wordAt(m, b) || m[b] == '.' && b+1 < len(m) && isDigit(m[b+1])))
}

// value returns a date match's ISO form (YYYY-MM-DD, YYYY-MM for a month), or false for a
// month or day out of range or a month-precision year outside 1900-2199.
func (d datePattern) value(m []byte, loc []int) (string, bool) {
	year, _ := strconv.Atoi(string(m[loc[2*d.year]:loc[2*d.year+1]]))
	ms := strings.ToLower(string(m[loc[2*d.mon]:loc[2*d.mon+1]]))
	mon, ok := months()[ms]
	if !ok {
		mon, _ = strconv.Atoi(ms)
	}
	if mon < 1 || mon > 12 {
		return "", false
	}
	if d.day == 0 {
		if year < 1900 || year > 2199 {
			return "", false
		}
		return pad(year, 4) + "-" + pad(mon, 2), true
	}
	day, _ := strconv.Atoi(string(m[loc[2*d.day]:loc[2*d.day+1]]))
	if day < 1 || day > 31 {
		return "", false
	}
	return pad(year, 4) + "-" + pad(mon, 2) + "-" + pad(day, 2), true
}

// isTimeMarker accepts the "T" of an ISO date-time after a date.
func isTimeMarker(m []byte, b int) bool {
	return m[b] == 'T' && b+1 < len(m) && isDigit(m[b+1])
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func pad(n, w int) string {
	s := strconv.Itoa(n)
	for len(s) < w {
		s = "0" + s
	}
	return s
}

// versions keeps 3+ part versions greedily (1.2.3.4 never yields 1.2.3) and v-prefixed one-
// or two-part versions (v2, v1.2); a bare 0.92 is a decimal number, not a version.
func versions(m []byte, vals []valuePos, add func(Token)) []valuePos {
	for _, re := range []*regexp.Regexp{res().version3, res().versionV} {
		for _, loc := range re.FindAllIndex(m, -1) {
			a, b := loc[0], loc[1]
			if a > 0 && (wordBefore(m, a) || m[a-1] == '.') {
				continue
			}
			for b > a && (m[b-1] == '.' || m[b-1] == '-') {
				b--
			}
			if b < len(m) && (wordAt(m, b) || m[b] == '.' && b+1 < len(m) && isDigit(m[b+1])) {
				continue
			}
			tok := Token{TypeVersion, versionBound(m, a) + string(m[a:b])}
			add(tok)
			vals = append(vals, valuePos{tok, a, b})
			mask(m, a, b)
		}
	}
	return vals
}

// versionBound returns the bound a comparison written before the version at a states (">=
// 22.0.0", "≥1.2.3", "< 2.0.0"), normalised, or "": "Requires Node.js >= 22.0.0" said "Node.js
// 22.0.0" pins what was a floor.
func versionBound(m []byte, a int) string {
	k := a
	if k > 0 && m[k-1] == ' ' {
		k--
	}
	for _, b := range [][2]string{{">=", "≥"}, {"≥", "≥"}, {"<=", "≤"}, {"≤", "≤"}, {">", ">"}, {"<", "<"}} {
		if bytes.HasSuffix(m[:k], []byte(b[0])) {
			return b[1]
		}
	}
	return ""
}

// numbers keeps sign, percent and unit as part of the value: "timeout 30s" becoming "timeout
// 30m" is a changed fact, and so is "every 2 hours" becoming "every 2 minutes". Units are
// normalised (30 seconds = 30sec = 30s; 25 MB = 25mb, but not 25 GB), a dash between two
// numbers makes one range (3-5, ~3–5 minutes = 3-5min), and a digit run glued to letters (sha256,
// x86, a 3f2a hash) is an identifier, not a number. Single digits count (the original ignored
// them); renumbering noise is avoided by masking list and heading ordinals before this runs.
func numbers(m []byte, vals []valuePos, add func(Token), units bool) []valuePos {
	// Context is read from the line as it was before this pass masks its own finds: masking
	// "3" first would make the "-5" of "3-5" look like a negative number.
	src := append([]byte(nil), m...)
	locs := res().number.FindAllIndex(src, -1)
	for k := 0; k < len(locs); k++ {
		from, b := locs[k][0], locs[k][1]
		a, sign, ok := numberStart(src, from)
		if !ok {
			continue
		}
		digits := plainDigits(src[a:b])
		hi := ""
		if units {
			if next, hb, ok := rangeEnd(src, b, locs, k); ok {
				hi, b, k = plainDigits(src[next:hb]), hb, k+1
			}
		}
		unit, end, ok := unitAfter(src, b, units)
		if !ok {
			continue
		}
		if units && hi == "" && unit == "" {
			// "3 to 5 minutes": a range only when a unit follows, since "change 3 to 5" is not.
			if k+1 < len(locs) && bytes.HasPrefix(src[b:], []byte(" to ")) && locs[k+1][0] == b+4 {
				if hn, hs, ok := numberStart(src, locs[k+1][0]); ok && hs == "" {
					if u, e, ok := unitAfter(src, locs[k+1][1], true); ok && u != "" && u != "%" {
						hi, unit, end, k = plainDigits(src[hn:locs[k+1][1]]), u, e, k+1
					}
				}
			}
		}
		v := sign + currencyBefore(src, from) + digits
		if hi != "" {
			v += "-" + hi
		}
		at := from
		if units {
			var bound string
			bound, at, unit, end = numberBounds(src, from, end, unit, hi)
			v = bound + v
		}
		tok := Token{TypeNumber, v + unit}
		add(tok)
		vals = append(vals, valuePos{tok, from, end})
		mask(m, at, end)
	}
	return vals
}

// numberBounds reads the bound of a number whose digits start at from and whose unit ends at
// end: a comparison or bound word before it ("≥ 80%", "at most 2", 不超过5), a "+" after a
// number and its unit ("Node 20+", "90%+": 20 or later, at least 90%, not 20 or 90%) or a
// bound after its unit (4行以内, "20 or later"). It returns the bound, where the value's text
// starts, its unit and where it ends.
func numberBounds(src []byte, from, end int, unit, hi string) (string, int, string, int) {
	q, qa := comparatorBefore(src, from)
	if q == "" {
		q, qa = qualifierBefore(src, from)
	}
	if q != "" {
		return q, qa, unit, end
	}
	if hi == "" && end < len(src) && src[end] == '+' && (end+1 == len(src) || !isDigit(src[end+1])) {
		return "≥", from, unit, end + 1
	}
	if sq, stop := qualifierAfter(src, end); sq != "" {
		return sq, from, unit, stop
	}
	return "", from, unit, end
}

// numberStart reads the sign of a number match starting at a and returns where its digits
// begin; ok is false when the digits are glued to a word (x86, v2) and are no number.
func numberStart(src []byte, a int) (int, string, bool) {
	sign := ""
	if c, n := utf8.DecodeRune(src[a:]); c == '-' || c == '+' || c == '\u2212' {
		if !(a > 0 && (wordBefore(src, a) || src[a-1] == '.')) {
			sign = "+"
			if c != '+' {
				sign = "-"
			}
		}
		a += n
	}
	if a > 0 && (wordBefore(src, a) || src[a-1] == '.' && a > 1 && isDigit(src[a-2])) {
		return a, "", false
	}
	return a, sign, true
}

// plainDigits drops comma grouping (44,192 = 44192) except in slash forms.
func plainDigits(d []byte) string {
	s := string(d)
	if strings.IndexByte(s, ',') >= 0 && strings.IndexByte(s, '/') < 0 {
		s = strings.ReplaceAll(s, ",", "")
	}
	return s
}

// rangeEnd recognises "3-5", "3–5" and "3—5": a dash directly between two plain numbers. It
// returns where the second number's digits start and end.
func rangeEnd(src []byte, b int, locs [][]int, k int) (int, int, bool) {
	if k+1 >= len(locs) || b >= len(src) {
		return 0, 0, false
	}
	next := locs[k+1][0]
	switch {
	case src[b] == '-' && next == b:
		next = b + 1
	case bytes.HasPrefix(src[b:], []byte("\u2013")) && next == b+3, bytes.HasPrefix(src[b:], []byte("\u2014")) && next == b+3:
	default:
		return 0, 0, false
	}
	hb := locs[k+1][1]
	if next >= hb || !isDigit(src[next]) || bytes.ContainsAny(src[next:hb], "/:") || bytes.ContainsAny(src[locs[k][0]:b], "/:") {
		return 0, 0, false
	}
	return next, hb, true
}

// comparatorBefore returns a comparison written before a number ("≥ 80%", "<30", ">=2") and
// where it starts: the bound is part of the value, "≥80%" is not "80%". An ASCII < or > counts
// only glued to the digits (a line's "> " is a quote marker).
func comparatorBefore(src []byte, a int) (string, int) {
	for _, q := range []string{"≥", "≤", ">=", "<="} {
		for _, gap := range []string{"", " "} {
			if k := a - len(gap) - len(q); k >= 0 && string(src[k:a]) == q+gap {
				return map[string]string{"≥": "≥", ">=": "≥", "≤": "≤", "<=": "≤"}[q], k
			}
		}
	}
	if a > 0 && (src[a-1] == '<' || src[a-1] == '>') && (a == 1 || src[a-2] == ' ' || src[a-2] == '(') {
		return string(src[a-1]), a - 1
	}
	return "", a
}

// qualifierBefore returns a bound written in words before a number ("at most 2", "не более 5",
// "최대 2", "不超过1000") and where it starts, or "" (see qualifierText). A Latin, Cyrillic or
// Hangul bound is a whole word one space before the digits; a Chinese or Japanese one may be
// glued to them or one space before them.
func qualifierBefore(src []byte, a int) (string, int) {
	lo := max(0, a-40)
	for lo > 0 && !utf8.RuneStart(src[lo]) {
		lo--
	}
	head := strings.ToLower(string(src[lo:a]))
	for _, e := range slex().qualBefore {
		w := e.text + " "
		if e.lang == "cjk" && !strings.HasSuffix(head, w) {
			w = e.text // glued, or one space before the digits: 至少5, 至少 5
		}
		if !strings.HasSuffix(head, w) {
			continue
		}
		at := len(head) - len(w)
		if r, _ := utf8.DecodeLastRuneInString(head[:at]); e.lang == "cjk" || at == 0 || !unicode.IsLetter(r) {
			return e.kind, lo + at
		}
	}
	return "", a
}

// qualifierAfter returns a bound written after a number and its unit ("4行以内", "2단계 이하")
// and where it ends, or "".
func qualifierAfter(src []byte, end int) (string, int) {
	rest := src[end:]
	gap := 0
	if len(rest) > 0 && rest[0] == ' ' {
		gap = 1
	}
	for _, e := range slex().qualAfter {
		if bytes.HasPrefix(rest[gap:], []byte(e.text)) && wordEnds(rest[gap+len(e.text):], e.text) {
			return e.kind, end + gap + len(e.text)
		}
	}
	return "", end
}

// wordEnds reports that a bound word w is not the start of a longer word: "or more" before
// "or moreover" is none. A CJK or Hangul bound is glued to what follows.
func wordEnds(next []byte, w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	n, _ := utf8.DecodeRune(next)
	return isCJK(r) || isHangul(r) || len(next) == 0 || !unicode.IsLetter(n)
}

// currencyBefore returns a currency sign written directly before a number ("$5").
func currencyBefore(src []byte, a int) string {
	r, _ := utf8.DecodeLastRune(src[:a])
	switch r {
	case '$', '\u20ac', '\u00a3', '\u00a5':
		return string(r)
	}
	return ""
}

// unitAfter reads the unit of a number ending at b: a percent sign, letters glued to the digits
// (30s, 25MB, 44k, 1st), or a unit word after one space (6 hours, 25 MB), with an optional rate
// ("/s"). It returns the normalised unit and where it ends; ok is false when the digits turn
// out to be part of an identifier (3f2a, 30s_old). With units off (a mutation test) only the
// glued suffix is kept, verbatim, as before unit words were read.
func unitAfter(src []byte, b int, units bool) (string, int, bool) {
	if b >= len(src) {
		return "", b, true
	}
	if src[b] == '%' {
		return "%", b + 1, true
	}
	if bytes.HasPrefix(src[b:], []byte("\u00b0")) {
		return degreeUnit(src, b)
	}
	if isLetterByte(src[b]) {
		return gluedUnit(src, b, units)
	}
	if u, k := scriptUnit(src, b); units && u != "" {
		return u, k, true // 5分钟, 5초, 5 минут, 5 días
	}
	if wordAt(src, b) {
		return "", b, false
	}
	if !units {
		return "", b, true
	}
	return spacedUnit(src, b)
}

// degreeUnit reads "°", "°C" or "°F" at b.
func degreeUnit(src []byte, b int) (string, int, bool) {
	e := b + 2
	u := "\u00b0"
	if e < len(src) && (src[e] == 'C' || src[e] == 'F') {
		u += string(src[e])
		e++
	}
	return u, e, true
}

// gluedUnit reads letters glued to the digits (30s, 25MB, 44k, 1st) at b, with an optional
// rate; ok is false when they are part of an identifier (3f2a, 30s_old) or a long unknown word.
func gluedUnit(src []byte, b int, units bool) (string, int, bool) {
	k := b
	for k < len(src) && isLetterByte(src[k]) {
		k++
	}
	if k < len(src) && (isDigit(src[k]) || src[k] == '_' || wordAt(src, k)) {
		return "", b, false
	}
	word := string(src[b:k])
	u, known := word, false
	if units {
		u, known = unitWord(word, true)
	}
	if !known {
		if k-b > 4 {
			return "", b, false
		}
		u = word
	}
	if !units {
		return u, k, true
	}
	u, k = rate(src, k, u)
	return u, k, true
}

// spacedUnit reads one space (or a no-break or thin space) at b and a unit word of two letters
// or more after it, with an optional rate.
func spacedUnit(src []byte, b int) (string, int, bool) {
	sp := 0
	switch {
	case src[b] == ' ':
		sp = 1
	case bytes.HasPrefix(src[b:], []byte("\u00a0")):
		sp = 2
	case bytes.HasPrefix(src[b:], []byte("\u202f")), bytes.HasPrefix(src[b:], []byte("\u2009")):
		sp = 3
	}
	if sp == 0 {
		return "", b, true
	}
	w := b + sp
	k := w
	for k < len(src) && isLetterByte(src[k]) {
		k++
	}
	// A spaced single letter is a unit only for time ("30 s", "2 h"): "2 x 3", "plan 2 B" are not.
	single := k-w == 1 && strings.IndexByte("shdmwy", src[w]) >= 0
	if k-w < 2 && !single || k < len(src) && (isDigit(src[k]) || src[k] == '_' || wordAt(src, k) || src[k] == '-' && k+1 < len(src) && isLetterByte(src[k+1])) {
		if k-w == 0 && w < len(src) && src[w] == '%' {
			return "%", w + 1, true
		}
		return "", b, true
	}
	u, known := unitWord(string(src[w:k]), single)
	if !known {
		return "", b, true
	}
	u, k = rate(src, k, u)
	return u, k, true
}

// scriptUnit reads a unit word of another script after a number ending at b: glued in Chinese,
// Japanese or Korean (5分钟, 5時間, 5초, 5분마다), after one space in a Cyrillic or accented
// Latin word (5 минут, 5 días). It returns the normal unit and where the word ends, or "".
func scriptUnit(src []byte, b int) (string, int) {
	r, _ := utf8.DecodeRune(src[b:])
	x := slex()
	if isCJK(r) || isHangul(r) {
		for _, e := range x.scriptUnits {
			if bytes.HasPrefix(src[b:], []byte(e.text)) {
				return e.kind, b + len(e.text)
			}
		}
		return "", b
	}
	if src[b] != ' ' || b+1 >= len(src) {
		return "", b
	}
	if r, _ := utf8.DecodeRune(src[b+1:]); isCJK(r) || isHangul(r) {
		return scriptUnit(src, b+1) // "每 60 秒"
	}
	if !wordAt(src, b+1) {
		return "", b
	}
	k := b + 1
	for k < len(src) {
		r, n := utf8.DecodeRune(src[k:])
		if !unicode.IsLetter(r) && r != '\u0301' {
			break
		}
		k += n
	}
	word := string(src[b+1 : k])
	if !strings.ContainsFunc(word, func(r rune) bool { return r >= 0x80 }) {
		return "", b
	}
	if u, ok := x.unit[strings.ToLower(word)]; ok {
		return u, k
	}
	return "", b
}

// unitWord normalises a unit word or symbol. Symbols whose case carries meaning (MB bytes, Mb
// bits, M million) are matched exactly first; glued single letters are accepted (30s, 5m, 2x),
// spaced ones are not ("page 3 of", "2 x 3").
func unitWord(w string, glued bool) (string, bool) {
	l := lex()
	if u, ok := l.unitsCase[w]; ok && (glued || len(w) > 1) {
		return u, true
	}
	lw := strings.ToLower(w)
	if u, ok := l.units[lw]; ok && (glued || len(lw) > 1) {
		return u, true
	}
	if u, ok := slex().unit[lw]; ok && len(lw) > 1 {
		return u, true // "70 Prozent", "5 minutos", "30 secondes"
	}
	return "", false
}

// rate appends a per-time suffix: 25 MB/s, 100 req/min.
func rate(src []byte, k int, u string) (string, int) {
	if k+1 >= len(src) || src[k] != '/' || !isLetterByte(src[k+1]) {
		return u, k
	}
	e := k + 1
	for e < len(src) && isLetterByte(src[e]) {
		e++
	}
	if e < len(src) && (isDigit(src[e]) || wordAt(src, e) || src[e] == '/') {
		return u, k
	}
	if t, ok := unitWord(string(src[k+1:e]), true); ok {
		return u + "/" + t, e
	}
	if w := string(src[k+1 : e]); w == "op" {
		return u + "/op", e
	}
	return u, k
}

// identifiers keeps hyphenated identifiers with a numeric part (E-023, PR-118, CVE-2024-1234,
// UTF-8, x86-64) verbatim, so their digits are neither numbers nor ranges nor signs.
func identifiers(m []byte, add func(Token)) {
	for _, loc := range res().ident.FindAllIndex(m, -1) {
		a, b := loc[0], loc[1]
		if a > 0 && (wordBefore(m, a) || strings.IndexByte("-./@$#\\", m[a-1]) >= 0) {
			continue
		}
		if b < len(m) && (wordAt(m, b) || (m[b] == '.' || m[b] == '-') && b+1 < len(m) && (isDigit(m[b+1]) || isLetterByte(m[b+1]))) {
			continue
		}
		add(Token{TypeIdent, string(m[a:b])})
		mask(m, a, b)
	}
}

// commonTLDs are top-level domains a scheme-less host may end in. fileTLDs are top-level
// domains that are also file extensions (README.md, setup.py, run.sh): a host ending in one
// counts only with a path after it (docs.rs/serde).
const commonTLDs = "com org net io dev app ai co chat gov edu me xyz cloud so gg tv info biz page site tech tools run " +
	"build codes link live ly to us uk de fr jp cn ru eu ca au nl se es ch be at pl br kr tw hk nz ie fi dk cz " +
	"gr il za mx ar cl tr vn id my sg ph ua ro hu sk bg lt lv ee si hr email social team world network systems " +
	"md py sh rs pl pm in it do am ps cc ms"

const fileTLDs = "md py sh rs pl pm in it do am ps cc ms"

// domains keeps scheme-less hosts with their path (example.chat/team, docs.github.com) and bare
// e-mail addresses as link destinations; file names (package.json, README.md) are not hosts.
func domains(s string, m []byte, add func(Token)) {
	tld := strings.Fields(commonTLDs)
	for _, loc := range res().domain.FindAllIndex(m, -1) {
		a, b := loc[0], trimURL(s, loc[0], loc[1])
		if a > 0 && (wordBefore(m, a) || strings.IndexByte(".-/:_\\~", m[a-1]) >= 0) {
			continue
		}
		if b < len(m) && (wordAt(m, b) || m[b] == '.' && b+1 < len(m) && isWordByte(m[b+1])) {
			continue
		}
		host := s[a:b]
		path := ""
		if i := strings.IndexAny(host, "/:"); i >= 0 {
			host, path = host[:i], host[i:]
		}
		dot := strings.LastIndexByte(host, '.')
		top := strings.ToLower(host[dot+1:])
		if !slices.Contains(tld, top) || strings.Contains(" "+fileTLDs+" ", " "+top+" ") && path == "" && strings.Count(host, ".") < 2 {
			continue
		}
		if first := host[:strings.IndexByte(host, '.')]; strings.Trim(first, "0123456789") == "" {
			continue // 1.2.3 is a version, not a host
		}
		// A bare e-mail address: the host with its local part.
		if a > 0 && m[a-1] == '@' {
			la := a - 1
			for la > 0 && (isWordByte(m[la-1]) && m[la-1] < 0x80 || strings.IndexByte(".+-", m[la-1]) >= 0) {
				la--
			}
			if la < a-1 {
				add(Token{TypeLink, s[la:b]})
				mask(m, la, b)
				continue
			}
		}
		add(Token{TypeLink, s[a:b]})
		mask(m, a, b)
	}
}

// handles keeps @handles and @path mentions (@mira, @docs/architecture.md, @~/.claude/x.md,
// @types/node) verbatim; an e-mail address is not one.
func handles(s string, m []byte, add func(Token)) {
	for i := 0; i+1 < len(m); i++ {
		if m[i] != '@' || i > 0 && (wordBefore(m, i) || strings.IndexByte("@.\\`", m[i-1]) >= 0) {
			continue
		}
		j := i + 1
		for j < len(m) && (isWordByte(m[j]) && m[j] < 0x80 || strings.IndexByte("-./~", m[j]) >= 0) {
			j++
		}
		end := trimURL(s, i, j)
		v := s[i+1 : end]
		if !strings.ContainsFunc(v, func(r rune) bool { return unicode.IsLetter(r) }) {
			continue
		}
		add(Token{TypeHandle, s[i:end]})
		mask(m, i, j)
		i = j - 1
	}
}

// wordRune reports a rune that glues to an adjacent digit run: ASCII letters, digits and
// underscore, and letters of alphabetic scripts that separate words with spaces. Han, kana,
// Hangul, Thai and other scriptio-continua letters do not glue: "5件" holds the number 5.
func wordRune(r rune) bool {
	if r < 0x80 {
		return r < 0x80 && isWordByte(byte(r))
	}
	if !unicode.IsLetter(r) {
		return false
	}
	return unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Georgian)
}

func wordBefore(m []byte, a int) bool {
	r, _ := utf8.DecodeLastRune(m[:a])
	return wordRune(r)
}

func wordAt(m []byte, b int) bool {
	r, _ := utf8.DecodeRune(m[b:])
	return wordRune(r)
}

// collapse joins the fields of a code line with single spaces.
func collapse(b []byte) string {
	return strings.Join(strings.Fields(string(b)), " ")
}

// ordinalLen is the ordinal prefix of a prose line (list marker or heading number).
func ordinalLen(b []byte) int { return mdline.OrdinalPrefix(b) }
