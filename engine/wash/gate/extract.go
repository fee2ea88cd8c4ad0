package gate

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/wash/mdline"
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
	return typ == TypeFenced || typ == TypeIndented || typ == TypeFrontKey
}

// valuePos is a value found on a line, with its byte span in the line (for bindings).
type valuePos struct {
	tok        Token
	start, end int
}

// lineTokens extracts the inline token classes of one prose line. It masks each recognised
// span before the next class runs so that, for example, the digits of a date or a URL never
// count as numbers. Values that take part in subject bindings are returned in line order.
func lineTokens(s string, ordinal int, add func(Token)) []valuePos {
	m := []byte(s)
	if ordinal > 0 {
		mask(m, 0, ordinal)
	}
	if strings.IndexByte(s, '`') >= 0 {
		codeSpans(s, m, add)
	}
	if strings.Contains(s, "[[") {
		wikilinks(s, m, add)
	}
	if strings.Contains(s, "[^") {
		footnoteLabels(m)
	}
	links(s, m, add)
	if strings.IndexByte(s, '"') >= 0 || strings.Contains(s, "\u201c") {
		quotes(s, m, add)
	}
	if !hasDigit(m) {
		return nil
	}
	var vals []valuePos
	vals = dates(m, vals, add)
	vals = versions(m, vals, add)
	vals = numbers(m, vals, add)
	return vals
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
func codeSpans(s string, m []byte, add func(Token)) {
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
		}
		mask(m, i, found+n)
		i = found + n
	}
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
func links(s string, m []byte, add func(Token)) {
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
func quotes(s string, m []byte, add func(Token)) {
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
		if hasLetterOrDigit(v) {
			add(Token{TypeQuote, v})
		}
		_, cl := utf8.DecodeRune(m[found:])
		i = found + cl
	}
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

var months = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

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
		if _, ok := months[string([]byte{c, m[i+1] | 0x20, m[i+2] | 0x20})]; ok {
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
			if a > 0 && (wordBefore(m, a) || m[a-1] == '.' || m[a-1] == '-' || m[a-1] == '/') {
				continue
			}
			if b < len(m) && (isDigit(m[b]) || m[b] == '-' && b+1 < len(m) && isDigit(m[b+1]) || isLetterByte(m[b]) && d.day != 0 && !isTimeMarker(m, b)) {
				continue
			}
			if b < len(m) && d.day == 0 && (wordAt(m, b) || m[b] == '.' && b+1 < len(m) && isDigit(m[b+1])) {
				continue
			}
			year, _ := strconv.Atoi(string(m[loc[2*d.year]:loc[2*d.year+1]]))
			ms := strings.ToLower(string(m[loc[2*d.mon]:loc[2*d.mon+1]]))
			mon, ok := months[ms]
			if !ok {
				mon, _ = strconv.Atoi(ms)
			}
			day := 0
			if d.day != 0 {
				day, _ = strconv.Atoi(string(m[loc[2*d.day]:loc[2*d.day+1]]))
			}
			if mon < 1 || mon > 12 || d.day != 0 && (day < 1 || day > 31) {
				continue
			}
			if d.day == 0 && (year < 1900 || year > 2199) {
				continue
			}
			v := ""
			if d.day == 0 {
				v = pad(year, 4) + "-" + pad(mon, 2)
			} else {
				v = pad(year, 4) + "-" + pad(mon, 2) + "-" + pad(day, 2)
			}
			tok := Token{TypeDate, v}
			add(tok)
			vals = append(vals, valuePos{tok, a, b})
			mask(m, a, b)
		}
	}
	return vals
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
			tok := Token{TypeVersion, string(m[a:b])}
			add(tok)
			vals = append(vals, valuePos{tok, a, b})
			mask(m, a, b)
		}
	}
	return vals
}

// numbers keeps sign, percent and a short unit suffix (30s, 5ms, 44k, 2x) as part of the value:
// "timeout 30s" becoming "timeout 30m" is a changed fact. Single digits count (the original
// ignored them); renumbering noise is avoided by masking list and heading ordinals before this
// runs. A digit run glued to letters (sha256, x86, a 3f2a hash) is an identifier, not a number.
func numbers(m []byte, vals []valuePos, add func(Token)) []valuePos {
	for _, loc := range res().number.FindAllIndex(m, -1) {
		a, b := loc[0], loc[1]
		sign := ""
		if c, n := utf8.DecodeRune(m[a:]); c == '-' || c == '+' || c == '\u2212' {
			if a > 0 && (wordBefore(m, a) || m[a-1] == '.') {
				a += n
			} else {
				sign = "+"
				if c != '+' {
					sign = "-"
				}
				a += n
			}
		}
		if a > 0 && (wordBefore(m, a) || m[a-1] == '.' && a > 1 && isDigit(m[a-2])) {
			continue
		}
		digits := string(m[a:b])
		end := b
		suffix := ""
		switch {
		case b < len(m) && m[b] == '%':
			suffix = "%"
			end = b + 1
		case b < len(m) && isLetterByte(m[b]):
			k := b
			for k < len(m) && isLetterByte(m[k]) {
				k++
			}
			if k-b > 4 || k < len(m) && (isDigit(m[k]) || m[k] == '_' || wordAt(m, k)) {
				continue
			}
			suffix = string(m[b:k])
			end = k
		case b < len(m) && wordAt(m, b):
			continue
		}
		if strings.IndexByte(digits, ',') >= 0 && !strings.Contains(digits, "/") {
			digits = strings.ReplaceAll(digits, ",", "")
		}
		tok := Token{TypeNumber, sign + digits + suffix}
		add(tok)
		vals = append(vals, valuePos{tok, loc[0], end})
		mask(m, loc[0], end)
	}
	return vals
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
