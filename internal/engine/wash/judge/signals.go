package judge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// Finding kinds.
const (
	// Superseded is an undated line whose key (its words, values masked) appears elsewhere in
	// the always-loaded set with another value: one of the two is probably out of date.
	Superseded = "superseded"
	// StaleDated is a point-in-time entry whose newest date is older than the horizon.
	StaleDated = "stale-dated"
	// StaleUndated is an undated entry first seen longer ago than the horizon.
	StaleUndated = "stale-undated"
)

// DefaultStaleAfter is the age past which an entry is a staleness candidate.
const DefaultStaleAfter = 180 * 24 * time.Hour

// File is one always-loaded file the scan reads, in load order.
type File struct {
	Path    string // as shown (relative for the project)
	Content []byte
	// FirstSeen returns when a line (by LineHash) was first seen; ok is false for a line the
	// ledger does not know, which counts as seen now.
	FirstSeen func(hash string) (time.Time, bool)
	// MeasuredOnly files (user-level memory, files the lane does not own) are scanned, so a
	// fact stated there and in an owned file is seen twice, but their findings never count:
	// no plan can cut them.
	MeasuredOnly bool
}

// Finding is one candidate for the judge, never a decision.
type Finding struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Tokens int    `json:"tokens"`
	Reason string `json:"reason"`
	// Key groups superseded lines: the line's words with its values masked.
	Key string `json:"key,omitempty"`
	// Other is where the same key holds another value ("path:line").
	Other string `json:"other,omitempty"`
	// MeasuredOnly marks a finding in a file no plan may change: listed, never counted.
	MeasuredOnly bool `json:"measured_only,omitempty"`
}

// Signals sum what a judgement pass could win.
type Signals struct {
	// Superseded is the tokens of every superseded line but the last of its key (load order):
	// the older value of each pair.
	Superseded int `json:"superseded"`
	// Stale is the tokens of entries older than the horizon (by their own date, or undated and
	// first seen that long ago), not counted again when already superseded.
	Stale    int       `json:"stale"`
	Findings []Finding `json:"findings,omitempty"`
}

// Candidates is the tokens a judge must look at and could cut.
func (s Signals) Candidates() int { return s.Superseded + s.Stale }

// Options configure Scan.
type Options struct {
	Now        time.Time
	StaleAfter time.Duration // 0: DefaultStaleAfter
	// Estimate prices a line; nil means gauge.Estimate.
	Estimate func([]byte) int
	// Kept reports a line (by LineHash) a judge already decided to keep (a keep recorded in
	// keeps.json with the line as its anchor): it is not a candidate again.
	Kept func(hash string) bool
}

// LineHash names a line for the first-seen ledger: its trimmed text, whatever file it is in,
// so a line moved between files keeps its age.
func LineHash(text []byte) string {
	h := sha256.Sum256(bytes.TrimSpace(text))
	return hex.EncodeToString(h[:8])
}

type keyed struct {
	f      int
	line   int
	key    string
	value  string
	tokens int
}

// Scan reads the always-loaded files for judgement candidates. Only prose lines of three
// words or more count: headings, code, front matter, tables separators and blank lines never
// do.
func Scan(files []File, o Options) Signals {
	if o.StaleAfter <= 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	est := o.Estimate
	if est == nil {
		est = gauge.Estimate
	}
	var s Signals
	var ks []keyed
	superseded := map[[2]int]bool{}
	var stale []Finding
	var staleFile []int
	for fi, f := range files {
		fk, fs := scanFile(fi, f, o, est)
		ks = append(ks, fk...)
		for _, x := range fs {
			stale = append(stale, x)
			staleFile = append(staleFile, fi)
		}
	}
	// Superseded: the same key with two values. Every line of a key but the last one in load
	// order is the candidate (memory grows by appending the newer fact); the last is named as
	// the other side.
	byKey := map[string][]int{}
	var order []string
	for i, k := range ks {
		if _, ok := byKey[k.key]; !ok {
			order = append(order, k.key)
		}
		byKey[k.key] = append(byKey[k.key], i)
	}
	for _, key := range order {
		idx := byKey[key]
		values := map[string]bool{}
		for _, i := range idx {
			values[ks[i].value] = true
		}
		if len(values) != 2 {
			// One value is a repeat; three or more make a pattern (the same label on every
			// entry of a list), not a fact that changed.
			continue
		}
		last := ks[idx[len(idx)-1]]
		for _, i := range idx[:len(idx)-1] {
			k := ks[i]
			if k.value == last.value {
				continue // a plain repeat is Quick's business, not a superseded fact
			}
			superseded[[2]int{k.f, k.line}] = true
			if !files[k.f].MeasuredOnly {
				s.Superseded += k.tokens
			}
			s.Findings = append(s.Findings, Finding{Kind: Superseded, Path: files[k.f].Path, Line: k.line, Tokens: k.tokens, Key: key, MeasuredOnly: files[k.f].MeasuredOnly,
				Other:  fmt.Sprintf("%s:%d", files[last.f].Path, last.line),
				Reason: "the same fact with another value later in the load: one of them is out of date"})
		}
	}
	for i, f := range stale {
		if superseded[[2]int{staleFile[i], f.Line}] {
			continue
		}
		if !f.MeasuredOnly {
			s.Stale += f.Tokens
		}
		s.Findings = append(s.Findings, f)
	}
	sort.SliceStable(s.Findings, func(i, j int) bool {
		a, b := s.Findings[i], s.Findings[j]
		if a.Path != b.Path {
			return false
		}
		return a.Line < b.Line
	})
	return s
}

// scanFile reads one file's prose lines: its keyed facts (for superseded pairs) and its stale
// candidates.
func scanFile(fi int, f File, o Options, est func([]byte) int) ([]keyed, []Finding) {
	var ks []keyed
	var stale []Finding
	doc := mdline.Parse(f.Content)
	sec := sections{title: hasTitle(doc)}
	for i, l := range doc.Lines {
		sec.see(l, f.Content)
		if l.Kind != mdline.Text && l.Kind != mdline.TableRow {
			continue
		}
		text := bytes.TrimSpace(l.Text(f.Content))
		if words(text) < 3 || o.Kept != nil && o.Kept(LineHash(text)) {
			continue
		}
		tok := est(text)
		fd, dated := staleness(f, i+1, text, tok, o)
		if fd != nil {
			stale = append(stale, *fd)
		}
		if dated {
			continue // a dated line is a log entry, never a superseded fact
		}
		if k, v, ok := keyOf(text); ok {
			// The same label under two headings is two facts ("timeout: 30s" under
			// Production and under Staging), never one fact with two values.
			ks = append(ks, keyed{f: fi, line: i + 1, key: sec.key() + "\x00" + k, value: v, tokens: tok})
		}
	}
	return ks, stale
}

// staleness returns a line's stale candidate, if any, and whether the line is dated (a log
// entry). A date that says when a rule took effect ("Effective 2026-03-04", "recalibrated
// 2026-03-15") is no point in the past; an index entry dated by its note stays while its note
// does.
func staleness(f File, line int, text []byte, tok int, o Options) (*Finding, bool) {
	newest, dated := newestDate(text)
	switch {
	case dated && pointer(text):
		return nil, false
	case dated && effective(text):
		return nil, true
	case dated:
		if !o.Now.IsZero() && o.Now.Sub(newest) > o.StaleAfter {
			return &Finding{Kind: StaleDated, Path: f.Path, Line: line, Tokens: tok, MeasuredOnly: f.MeasuredOnly,
				Reason: fmt.Sprintf("point-in-time entry dated %s (%d days ago)", newest.Format("2006-01-02"), days(o.Now.Sub(newest)))}, true
		}
		return nil, true
	case f.FirstSeen != nil && !o.Now.IsZero():
		if seen, ok := f.FirstSeen(LineHash(text)); ok && o.Now.Sub(seen) > o.StaleAfter {
			return &Finding{Kind: StaleUndated, Path: f.Path, Line: line, Tokens: tok, MeasuredOnly: f.MeasuredOnly,
				Reason: fmt.Sprintf("undated entry unchanged since %s (%d days)", seen.Format("2006-01-02"), days(o.Now.Sub(seen)))}, false
		}
	}
	return nil, false
}

// sections tracks the heading path above a line, below the file's title.
type sections struct {
	title bool
	path  []string // heading texts by level
}

func (s *sections) see(l mdline.Line, src []byte) {
	if l.Kind != mdline.Heading || l.Level <= 0 {
		return
	}
	for len(s.path) < l.Level {
		s.path = append(s.path, "")
	}
	s.path = s.path[:l.Level]
	s.path[l.Level-1] = norm(mdline.HeadingText(l.Text(src)))
}

func (s *sections) key() string {
	p := s.path
	if s.title && len(p) > 0 {
		p = p[1:] // the file's title is its name, no section of it
	}
	return strings.Join(p, "\x1f")
}

func days(d time.Duration) int { return int(d.Hours() / 24) }

// hasTitle reports a file that opens with its only level-1 heading: its title.
func hasTitle(doc *mdline.Doc) bool {
	first, h1 := -1, 0
	for i, l := range doc.Lines {
		if l.Kind != mdline.Heading {
			continue
		}
		if first < 0 {
			first = i
		}
		if l.Level == 1 {
			h1++
		}
	}
	return first >= 0 && doc.Lines[first].Level == 1 && h1 == 1
}

// effectiveRE finds a date introduced as the moment a rule took effect: a marker of effect, then
// within a few characters a year ("effective 2026-03-04", "since March 2026", "as of 2026-01",
// "recalibrated on 2026-03-15", "seit 2026", "depuis le 4 mars 2026").
var effectiveRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^\pL])(effective|in effect|since|as of|starting|beginning|valid from|applies from|applied from|recalibrated|calibrated|re-?baselined|updated|revised|raised|lowered|set|changed|renamed|seit|ab dem|depuis|à partir du|desde|a partir de)([^\pL]|$)[^.;\n]{0,16}?\d{4}`)
})

// effective reports a dated line whose date states when a rule took effect.
func effective(text []byte) bool { return effectiveRE().Match(text) }

// pointer reports a line that links to another Markdown file (a memory index entry): its
// date describes the note, not an event of its own.
func pointer(text []byte) bool {
	return bytes.Contains(text, []byte(".md)")) || bytes.Contains(text, []byte(".md#")) || bytes.Contains(text, []byte("[["))
}

// words counts runs of letters.
func words(b []byte) int {
	n, in := 0, false
	for _, r := range string(b) {
		if unicode.IsLetter(r) {
			if !in {
				n++
			}
			in = true
		} else {
			in = false
		}
	}
	return n
}

// newestDate returns the newest full or month date the gate reads on a line.
func newestDate(text []byte) (time.Time, bool) {
	if bytes.IndexFunc(text, unicode.IsDigit) < 0 {
		return time.Time{}, false
	}
	var newest time.Time
	found := false
	for _, tc := range gate.Inventory(text).Tokens() {
		if tc.Type != gate.TypeDate {
			continue
		}
		t, err := time.Parse("2006-01-02", tc.Value)
		if err != nil {
			if t, err = time.Parse("2006-01", tc.Value); err != nil {
				continue
			}
			t = t.AddDate(0, 1, -1) // a month counts from its last day
		}
		if !found || t.After(newest) {
			newest, found = t, true
		}
	}
	return newest, found
}

// keyOf reads a line's key and value: "label: value" (a label of one to five words that is
// not a discourse marker like "Note", and a short value), or the line's words with its values
// (numbers, versions, URLs, code spans) masked, when it has values and at least three words
// besides them. When a line has several values the first one names its subject and stays in
// the key ("service 3 listens on port 20021"), so the same template filled for two subjects
// is two keys, not a superseded fact. ok is false for a line with neither form.
func keyOf(text []byte) (key, value string, ok bool) {
	s := strings.TrimSpace(string(text))
	s = strings.TrimLeft(s, "-*+> ")
	if n := mdline.OrdinalPrefix([]byte(s)); n > 0 {
		s = strings.TrimSpace(s[n:])
	}
	if i := strings.IndexAny(s, ":="); i > 0 && i < 60 && (i+1 == len(s) || s[i+1] == ' ') {
		label := strings.Trim(strings.TrimSpace(s[:i]), "*_`")
		v := norm(s[i+1:])
		_, vals := mask(v)
		nw := len(strings.Fields(v))
		if n := words([]byte(label)); n >= 1 && n <= 5 && !strings.ContainsAny(label, "`[(") && !discourse(norm(label)) &&
			v != "" && nw <= 4 && (len(vals) > 0 || nw <= 2) {
			return "label:" + norm(label), v, true
		}
	}
	masked, values := mask(s)
	if len(values) == 0 || words([]byte(masked)) < 3 {
		return "", "", false
	}
	if len(values) > 1 {
		masked = strings.Replace(masked, "#", values[0], 1)
		values = values[1:]
	}
	return "masked:" + norm(masked), strings.Join(values, "|"), true
}

// discourse reports a label that introduces advice, not a fact with one value.
func discourse(label string) bool {
	switch label {
	case "note", "notes", "never", "always", "important", "todo", "example", "e.g", "eg", "warning", "tip", "why",
		"how", "rule", "avoid", "prefer", "do", "don't", "dont", "see", "also", "caveat", "nb", "fix", "problem",
		"solution", "reason", "context", "goal", "status":
		return true
	}
	return false
}

// mask replaces URLs and digit runs (with their separators and a leading v) by
// "#", returning the masked text and the values in order.
func mask(s string) (string, []string) {
	var b strings.Builder
	var vals []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			// A code span names something (a command, a file): part of the key, never masked.
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(s[i : i+j+2])
			i += j + 2
		case strings.HasPrefix(s[i:], "http://") || strings.HasPrefix(s[i:], "https://"):
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != ')' && s[j] != '>' {
				j++
			}
			vals = append(vals, s[i:j])
			b.WriteByte('#')
			i = j
		case isDigit(c) || (c == 'v' && i+1 < len(s) && isDigit(s[i+1]) && (i == 0 || !isWord(s[i-1]))):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || (strings.IndexByte(".,:/-", s[j]) >= 0 && j+1 < len(s) && isDigit(s[j+1]))) {
				j++
			}
			for j < len(s) && (s[j] == '%' || s[j] == 'k' || s[j] == 'K') && (j+1 == len(s) || !isWord(s[j+1])) {
				j++
			}
			vals = append(vals, s[i:j])
			b.WriteByte('#')
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), vals
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWord(c byte) bool {
	return c == '_' || isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}

// norm lowercases, drops markup characters and trailing punctuation, and collapses spaces.
func norm(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '"', '\'', '“', '”':
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimRight(s, ".;,!")
}
