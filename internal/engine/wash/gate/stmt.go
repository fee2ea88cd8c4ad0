package gate

import (
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// A statement is one block of prose as Markdown writes it: a paragraph, a list item with its
// wrapped lines, a table row, a heading. The gate aligns the statements of an original with the
// statements of its result and compares the facts of each with its counterpart (align.go,
// compare.go). A statement carries the tokens of its lines, the names its sentences read, and,
// read on demand, its clauses (clause.go).

// stmt is one statement of an inventory.
type stmt struct {
	id      int
	lines   []int // line indices in the document
	from    []int // per line, the length of its block prefix
	kind    mdline.Kind
	item    bool // opens with a list marker
	ordinal bool // a numbered list item
	indent  int
	list    int // the numbered list it belongs to, or -1
	sect    string
	key     string // its text without block markers and emphasis, whitespace collapsed
	src     string // the source file, in a union of several originals
	owner   *Inv   // the inventory whose lines these are

	status  string  // a task's state its marker states: "done", "open", "failed", "doing" (statusOf)
	facts   []Token // values and names, with multiplicity
	clauses []clauseInfo
	read    bool
	stems   []string
}

// firstLine is the statement's 1-based first line.
func (s *stmt) firstLine() int { return s.lines[0] + 1 }

// addStatement records a paragraph handed to the sentence reader as a statement.
func (inv *Inv) addStatement(para []paraLine, kind mdline.Kind, item bool) {
	s := &stmt{id: len(inv.stmts), kind: kind, item: item, list: -1, owner: inv}
	for _, pl := range para {
		s.lines = append(s.lines, pl.idx)
		s.from = append(s.from, pl.from)
	}
	inv.stmts = append(inv.stmts, s)
}

// finishStatements fills what the statements need from the finished inventory: their section,
// key, facts and numbered lists.
func (inv *Inv) finishStatements(doc *mdline.Doc, text []byte, ctx [][]Token) {
	list, listIndent := -1, 0
	for _, s := range inv.stmts {
		i := s.lines[0]
		s.sect = inv.secOf[i]
		s.indent = doc.Lines[i].Indent
		var key strings.Builder
		for k, li := range s.lines {
			t := string(doc.Lines[li].Text(text))
			if s.from[k] <= len(t) {
				t = t[s.from[k]:]
			}
			if key.Len() > 0 {
				key.WriteByte(' ')
			}
			key.WriteString(t)
			if dl := inv.dls[li]; dl != nil {
				s.facts = append(s.facts, dl.local...)
			}
			s.facts = append(s.facts, ctx[li]...)
		}
		s.key = stmtKey(key.String())
		raw := doc.Lines[i].Text(text)
		prefix := string(raw[:min(s.from[0], len(raw))])
		s.status = statusOf(prefix, s.key)
		if box := prefix[max(0, len(prefix)-4):]; s.status != "" && strings.HasPrefix(box, "[") {
			s.key = strings.ToLower(box) + s.key // "[x] Export" is no exact copy of "[ ] Export"
		}
		s.ordinal = s.item && mdline.OrdinalPrefix(trimIndent(raw)) > 0
		switch {
		case s.ordinal && (list < 0 || s.indent != listIndent):
			list, listIndent = s.id, s.indent
			s.list = list
		case s.ordinal:
			s.list = list
		case s.kind == mdline.Heading || s.indent <= listIndent:
			list = -1
		}
	}
}

func trimIndent(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '>') {
		i++
	}
	return b[i:]
}

// stmtKey normalises a statement's text for exact matching: emphasis markers dropped,
// whitespace collapsed. A statement restyled (bold removed, rewrapped, another bullet) keeps its
// key.
func stmtKey(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "__", "")
	return strings.Join(strings.Fields(s), " ")
}

// lines returns a statement's lines for the clause reader.
func (inv *Inv) stmtLines(s *stmt) []stmtLine {
	out := make([]stmtLine, 0, len(s.lines))
	for k, li := range s.lines {
		t := inv.keys[li].text
		from := min(s.from[k], len(t))
		var codes []codeSpan
		if dl := inv.dls[li]; dl != nil {
			for _, c := range dl.scan.codes {
				if c.start >= from {
					codes = append(codes, codeSpan{c.start - from, c.end - from, c.text})
				}
			}
		}
		out = append(out, stmtLine{text: t[from:], codes: codes})
	}
	return out
}

// clausesOf reads a statement's clauses once.
func (inv *Inv) clausesOf(s *stmt) []clauseInfo {
	if !s.read {
		s.read = true
		s.clauses = readClauses(s.owner.stmtLines(s), s.owner.portuguese())
		for _, c := range s.clauses {
			for _, st := range c.stems {
				if !containsStr(s.stems, st) {
					s.stems = append(s.stems, st)
				}
			}
		}
	}
	return s.clauses
}

// stemsOf returns a statement's content stems.
func (inv *Inv) stemsOf(s *stmt) []string {
	inv.clausesOf(s)
	return s.stems
}

// text returns a statement's text for a message, shortened.
func (s *stmt) text() string { return clipText(s.key) }

// clipText shortens a text quoted in a drop to 100 characters.
func clipText(t string) string {
	if r := []rune(t); len(r) > 100 {
		t = string(r[:97]) + "..."
	}
	return t
}

// portuguese reports a file written in Portuguese: one word in fifty at least, three at least,
// is a word only Portuguese writes (portugueseWord). A word of another language quoted once
// ("São Paulo") makes no file Portuguese.
func (inv *Inv) portuguese() bool {
	if inv.ptFile == 0 {
		inv.ptFile = -1
		marks, all := 0, 0
		for w, n := range inv.wordCounts() {
			all += n
			if portugueseWord(w) {
				marks += n
			}
		}
		if marks >= 3 && 50*marks >= all {
			inv.ptFile = 1
		}
	}
	return inv.ptFile > 0
}

// statusMarks are the marks that state a task's state at the start of a statement.
var statusMarks = [...]struct{ mark, status string }{
	{"✅", "done"}, {"✔", "done"}, {"☑", "done"}, {"✓", "done"}, {"⬜", "open"}, {"☐", "open"},
	{"❌", "failed"}, {"✗", "failed"}, {"🚧", "doing"}, {"⏳", "doing"}, {"🔄", "doing"},
}

// statusOf reads the state a statement's task box ("[x] ", "[ ] " in its block prefix) or
// leading mark ("✅ Откат миграций") states, or "".
func statusOf(prefix, key string) string {
	switch {
	case strings.HasSuffix(prefix, "[x] ") || strings.HasSuffix(prefix, "[X] "):
		return "done"
	case strings.HasSuffix(prefix, "[ ] "):
		return "open"
	}
	for _, m := range statusMarks {
		if strings.HasPrefix(key, m.mark) {
			return m.status
		}
	}
	return ""
}
