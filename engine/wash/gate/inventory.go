package gate

import (
	"bytes"
	"sort"
	"strings"
	"unicode"

	"github.com/prosewash/prosewash/engine/wash/frontmatter"
	"github.com/prosewash/prosewash/engine/wash/mdline"
)

// lineClass separates distinct lines by what they are as well as what they say: the same text
// as prose and as code carries different tokens.
type lineClass uint8

const (
	classProse lineClass = iota
	classFenced
	classIndented
	classFront
)

type lineKey struct {
	class lineClass
	text  string
}

// distinctLine is one distinct line of a file with the tokens it carries (with multiplicity).
type distinctLine struct {
	first int // 1-based line number of its first occurrence
	toks  []Token
	bind  *binding
}

// binding records which subject word precedes each value on a prose line carrying two or more
// different values; it lets the gate see values trading places between subjects.
type binding struct {
	sig   string // sorted values: the line's value multiset
	words string // sorted subject words
	pairs string // sorted word=value pairs
	show  string // word=value pairs in line order, for the report and the approval key
}

// Inv is the structured-token inventory of one file under distinct-line multiset semantics.
type Inv struct {
	keys   []lineKey // per line, index = line number - 1
	lines  map[lineKey]*distinctLine
	order  []lineKey // distinct lines in first-occurrence order
	counts map[Token]int
	where  map[Token][]lineKey // distinct lines carrying a token, in order
	binds  map[string][]*binding
	fm     frontmatter.Result
	// srcOf names the source file of each distinct line when the inventory is a union.
	srcOf map[*distinctLine]string
}

// Inventory extracts the structured tokens of text.
func Inventory(text []byte) *Inv {
	return inventory(text, checks{})
}

func inventory(text []byte, cfg checks) *Inv {
	doc := mdline.Parse(text)
	inv := &Inv{
		keys:   make([]lineKey, len(doc.Lines)),
		lines:  make(map[lineKey]*distinctLine),
		counts: make(map[Token]int),
		where:  make(map[Token][]lineKey),
		binds:  make(map[string][]*binding),
		fm:     doc.FM,
	}
	for i, l := range doc.Lines {
		raw := bytes.TrimRight(l.Text(text), " \t\r")
		key := lineKey{text: string(raw)}
		switch l.Kind {
		case mdline.Fenced:
			key.class = classFenced
		case mdline.Indented:
			key.class = classIndented
		case mdline.FrontMatter:
			key.class = classFront
		case mdline.Fence:
			// A fence delimiter carries its info string (the language) but no facts.
			key.class = classFenced
		}
		inv.keys[i] = key
		if _, ok := inv.lines[key]; ok {
			continue
		}
		dl := &distinctLine{first: i + 1}
		inv.lines[key] = dl
		inv.order = append(inv.order, key)
		add := func(t Token) { dl.toks = append(dl.toks, t) }
		switch l.Kind {
		case mdline.Blank, mdline.Fence, mdline.ThematicBreak, mdline.SetextUnderline, mdline.TableSep:
		case mdline.Fenced:
			if v := collapse(raw); v != "" {
				add(Token{TypeFenced, v})
			}
		case mdline.Indented:
			if v := collapse(raw); v != "" {
				add(Token{TypeIndented, v})
			}
		default:
			ord := 0
			if l.Kind == mdline.Text || l.Kind == mdline.Heading {
				ord = ordinalLen(raw)
			}
			vals := lineTokens(key.text, ord, add)
			if !cfg.noBinding {
				dl.bind = makeBinding(key.text, vals)
			}
		}
		if dl.bind != nil {
			inv.binds[dl.bind.sig] = append(inv.binds[dl.bind.sig], dl.bind)
		}
		for _, t := range dl.toks {
			if setSemantics(t.Type) {
				if inv.counts[t] == 0 {
					inv.counts[t] = 1
				}
			} else {
				inv.counts[t]++
			}
			w := inv.where[t]
			if len(w) == 0 || w[len(w)-1] != key {
				inv.where[t] = append(w, key)
			}
		}
	}
	if doc.FM.State == frontmatter.Closed {
		for _, k := range doc.FM.Keys {
			t := Token{TypeFrontKey, k}
			inv.counts[t] = 1
			if kl := frontKeyLine(doc, text, k); kl >= 0 {
				inv.where[t] = []lineKey{inv.keys[kl]}
			}
		}
	}
	return inv
}

// frontKeyLine finds the line index of a top-level front matter key, or -1.
func frontKeyLine(doc *mdline.Doc, text []byte, key string) int {
	for i, l := range doc.Lines {
		if l.Kind != mdline.FrontMatter {
			break
		}
		t := string(l.Text(text))
		for _, p := range []string{key, `"` + key + `"`, `'` + key + `'`} {
			if strings.HasPrefix(t, p) && strings.HasPrefix(strings.TrimLeft(t[len(p):], " \t"), ":") {
				return i
			}
		}
	}
	return -1
}

// stopwords are skipped when looking for the subject of a value, so "878 passed, 0 failed" and
// "878 passed and 0 failed" bind their values the same way.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "at": true, "for": true, "by": true, "with": true, "is": true, "are": true,
	"was": true, "were": true, "be": true, "from": true, "as": true, "than": true, "then": true,
	"about": true, "approx": true, "now": true, "it": true, "its": true, "set": true,
}

// makeBinding pairs each value with the nearest content word between it and the previous value.
// Only lines with at least two different values can have a swap.
func makeBinding(line string, vals []valuePos) *binding {
	if len(vals) < 2 {
		return nil
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].start < vals[j].start })
	distinct := map[string]bool{}
	for _, v := range vals {
		distinct[v.tok.Value] = true
	}
	if len(distinct) < 2 {
		return nil
	}
	values := make([]string, len(vals))
	words := make([]string, len(vals))
	pairs := make([]string, len(vals))
	shown := make([]string, len(vals))
	prevEnd := 0
	for i, v := range vals {
		w := subjectWord(line[prevEnd:v.start])
		if w == "" {
			w = "_" // no subject before the value
		}
		prevEnd = v.end
		values[i] = v.tok.Type + ":" + v.tok.Value
		words[i] = w
		pairs[i] = w + "=" + v.tok.Value
		shown[i] = pairs[i]
	}
	sort.Strings(values)
	sort.Strings(words)
	sort.Strings(pairs)
	return &binding{
		sig:   strings.Join(values, "\x00"),
		words: strings.Join(words, "\x00"),
		pairs: strings.Join(pairs, "\x00"),
		show:  strings.Join(shown, ","),
	}
}

// subjectWord returns the last content word of s, lowercased, or "" when there is none.
func subjectWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' })
	for i := len(f) - 1; i >= 0; i-- {
		w := strings.ToLower(f[i])
		if !stopwords[w] {
			return w
		}
	}
	return ""
}

// Tokens returns the inventory's tokens with their distinct-line occurrence counts, sorted.
func (inv *Inv) Tokens() []TokenCount {
	out := make([]TokenCount, 0, len(inv.counts))
	for t, n := range inv.counts {
		out = append(out, TokenCount{t, n})
	}
	sort.Slice(out, func(i, j int) bool { return tokenLess(out[i].Token, out[j].Token) })
	return out
}

// Count returns how many times t occurs over the distinct lines (presence 1 for set classes).
func (inv *Inv) Count(t Token) int { return inv.counts[t] }

// FrontMatter returns the front matter parse of the inventoried text.
func (inv *Inv) FrontMatter() frontmatter.Result { return inv.fm }

// TokenCount is a token and its distinct-line occurrence count.
type TokenCount struct {
	Token
	Count int
}

func tokenLess(a, b Token) bool {
	if a.Type != b.Type {
		return a.Type < b.Type
	}
	return a.Value < b.Value
}

// locate returns the first distinct line carrying t that the result lost (the most useful
// line to show), else the first one carrying it, else nil.
func (inv *Inv) locate(t Token, kept map[lineKey]bool) *distinctLine {
	w := inv.where[t]
	for _, k := range w {
		if !kept[k] {
			return inv.lines[k]
		}
	}
	if len(w) > 0 {
		return inv.lines[w[0]]
	}
	return nil
}

func (dl *distinctLine) line() int {
	if dl == nil {
		return 0
	}
	return dl.first
}

// source names the file a distinct line came from in a union inventory.
func (inv *Inv) source(dl *distinctLine) string {
	if inv.srcOf == nil || dl == nil {
		return ""
	}
	return inv.srcOf[dl]
}
