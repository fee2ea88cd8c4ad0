package check

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A document FuzzClean builds from pieces whose kind it knows by
// construction, not from the classifier under test: each piece is one
// line (or block) of its language with one carrier at a spot the
// language's own grammar makes prose (a comment, Markdown text) or not (a
// string literal, code, a comment that would become a tool's directive once
// the carrier were gone). The engine may keep a prose carrier; it must not
// touch anything else.

// truthPiece is a piece; "@" marks where its carrier goes and "%d" takes
// the piece's index (names stay unique).
type truthPiece struct {
	text string
	kind truthKind
}

// truthKind says what a clean may do with a piece's carrier.
type truthKind uint8

const (
	// code: a literal, code, or a comment a tool reads: nothing.
	code truthKind = iota
	// prose: remove it, turn it into a space, or keep it.
	prose
	// word: a comment that a tool would read once the carrier were
	// removed ("no<ZWSP>semgrep"): keep it, or turn it into a space
	// (which splits the word), never remove it.
	word
)

type truthLang struct {
	path, head string
	pieces     []truthPiece
}

var truthLangs = [...]truthLang{
	{"t.py", "", []truthPiece{
		{"# com@ment\n", prose},
		{"x%d = 1  # trai@ling\n", prose},
		{"s%d = 'a@b'\n", code},
		{"s%d = \"\"\"doc@string\"\"\"\n", code},
		{"x%d = 1  # no@qa\n", word},
		{"# no@semgrep\n", word},
		{"def f%d():\n    return f'{1}@'\n", code},
	}},
	{"t.go", "package p\n\n", []truthPiece{
		{"// com@ment\n", prose},
		{"/* blo@ck */\n", prose},
		{"var s%d = \"a@b\"\n", code},
		{"var r%d = `ra@w`\n", code},
		{"//go:gen@erate x\n", word},
		{"// no@semgrep\n", word},
		{"var c%d = 'a' // fall@through\n", prose}, // ESLint's marker; no Go tool reads it
	}},
	{"t.js", "", []truthPiece{
		{"// com@ment\n", prose},
		{"/* blo@ck */\n", prose},
		{"let s%d = 'a@b';\n", code},
		{"let t%d = `a@b`;\n", code},
		{"// eslint-dis@able-line\n", word},
		{"// falls@ through\n", word},
		{"/* no@ default */\n", word},
	}},
	{"t.md", "", []truthPiece{
		{"Some te@xt here.\n\n", prose},
		{"<!-- a no@te -->\n\n", prose},
		{"Text `co@de` here.\n\n", code},
		{"```\nco@de\n```\n\n", code},
		{"[link](ur@l)\n\n", code},
		{"<!-- markdownlint-dis@able -->\n\n", word},
		{"<!-- embed@me x.ts -->\n\n", word},
	}},
	{"t.yaml", "", []truthPiece{
		{"# com@ment\n", prose},
		{"k%d: 'v@'\n", code},
		{"p%d: pl@ain\n", code},
		{"# yamllint dis@able\n", word},
	}},
	{"t.rs", "", []truthPiece{
		{"// com@ment\n", prose},
		{"fn f%d() { let _s = \"a@b\"; }\n", code},
		{"// no@semgrep\n", word},
		{"// code@ql[rust/x]\n", word},
	}},
	{"t.sh", "#!/bin/sh\n", []truthPiece{
		{"# com@ment\n", prose},
		{"echo 'a@b'\n", code},
		{"x%d=\"a@b\"\n", code},
		{"# shellcheck dis@able=SC2086\n", word},
	}},
	{"t.css", "", []truthPiece{
		{"/* com@ment */\n", prose},
		{".a%d { content: \"a@b\"; }\n", code},
		{"/* stylelint-dis@able */\n", word},
		{"/* no@inspection CssUnusedSymbol */\n", word},
	}},
	{"t.html", "", []truthPiece{
		{"<!-- com@ment -->\n", prose},
		{"<p title=\"a@b\">x</p>\n", code},
		{"<script>let s%d = 'a@b';</script>\n", code},
		{"<!-- prettier-ig@nore -->\n", word},
	}},
	{"t.toml", "", []truthPiece{
		{"# com@ment\n", prose},
		{"k%d = \"a@b\"\n", code},
		{"# no@sonar\n", word},
	}},
}

// truthCarriers are the carriers pieces get; the policy removes each in
// prose (or, the no-break space, turns it into a space).
var truthCarriers = [...]string{"\u200b", "\u202e", "\u2060", "\U000E0041", "\u00a0", "\u200d", "\x1b[31m"}

// truthPart is one piece as placed: its text with the carrier, and the
// forms a clean may leave it in.
type truthPart struct {
	with  string
	forms []string // with first; then, for prose, without the carrier and with a space instead
}

// truthDoc builds a document from the fuzzer's bytes: the first picks the
// language, each next one a piece and a carrier.
func truthDoc(data []byte) (path string, src []byte, parts []truthPart, head string) {
	if len(data) == 0 {
		data = []byte{0}
	}
	l := truthLangs[int(data[0])%len(truthLangs)]
	var b strings.Builder
	b.WriteString(l.head)
	for i, c := range data[1:min(len(data), 17)] {
		p := l.pieces[int(c)%len(l.pieces)]
		car := truthCarriers[int(c>>4)%len(truthCarriers)]
		text := p.text
		if strings.Contains(text, "%d") {
			text = fmt.Sprintf(text, i)
		}
		with := strings.Replace(text, "@", car, 1)
		part := truthPart{with: with, forms: []string{with}}
		switch p.kind {
		case prose:
			part.forms = append(part.forms, strings.Replace(text, "@", "", 1), strings.Replace(text, "@", " ", 1))
		case word:
			part.forms = append(part.forms, strings.Replace(text, "@", " ", 1))
		}
		parts = append(parts, part)
		b.WriteString(with)
	}
	return l.path, []byte(b.String()), parts, l.head
}

// truthHolds reports where out departs from the pieces: every piece must
// appear in order, as written or, for a prose piece, without its carrier
// (or with a space for it).
func truthHolds(out []byte, head string, parts []truthPart) error {
	if !bytes.HasPrefix(out, []byte(head)) {
		return fmt.Errorf("the head %q changed", head)
	}
	rest := out[len(head):]
	for i, p := range parts {
		found := false
		for _, f := range p.forms {
			if bytes.HasPrefix(rest, []byte(f)) {
				rest, found = rest[len(f):], true
				break
			}
		}
		if !found {
			what := "a piece changed other than as its kind allows"
			if len(p.forms) == 1 {
				what = "a piece that is not prose changed"
			}
			return fmt.Errorf("piece %d: %s: want one of %q, got %q", i, what, p.forms, clipTo(rest, 60))
		}
	}
	if len(rest) > 0 {
		return fmt.Errorf("%q after the last piece", clipTo(rest, 60))
	}
	return nil
}

func clipTo(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// TestTruthDocsCanFail shows the oracle catches a carrier removed from a
// piece that is not prose, and accepts a prose carrier removed.
func TestTruthDocsCanFail(t *testing.T) {
	_, src, parts, head := truthDoc([]byte{0, 0, 2})
	if err := truthHolds(src, head, parts); err != nil {
		t.Fatalf("the document as built fails: %v", err)
	}
	if err := truthHolds(bytes.Replace(src, []byte("com\u200bment"), []byte("comment"), 1), head, parts); err != nil {
		t.Fatalf("a prose carrier removed fails: %v", err)
	}
	if err := truthHolds(bytes.Replace(src, []byte("'a\u200bb'"), []byte("'ab'"), 1), head, parts); err == nil {
		t.Fatal("a literal's carrier removed passed")
	}
}
