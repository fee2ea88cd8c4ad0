package region

import (
	"os"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// commentSyntax is one way of writing a comment in one language: the file
// around it, with BODY where the comment's text goes.
type commentSyntax struct {
	path, file string
	scope      suppressScope
}

var commentSyntaxes = [...]commentSyntax{
	{"f.go", "package p\n\n// BODY\nvar x = 1\n", inAnyComment},
	{"f.go", "package p\n\n/* BODY */\nvar x = 1\n", inAnyComment},
	{"f.js", "// BODY\nlet x = 1;\n", inAnyComment},
	{"f.js", "let y = 2;\n/* BODY */\nlet x = 1;\n", inAnyComment},
	{"f.ts", "let x: number = 1; // BODY\n", inAnyComment},
	{"f.jsonc", "{\n  // BODY\n  \"a\": 1\n}\n", inAnyComment},
	{"f.css", "a { color: red; }\n/* BODY */\n", inAnyComment},
	{"f.scss", "$a: 1;\n// BODY\n", inAnyComment},
	{"f.less", "@a: 1;\n// BODY\n", inAnyComment},
	{"f.rs", "fn f() {}\n// BODY\n", inAnyComment},
	{"f.py", "x = 1\n# BODY\n", inAnyComment},
	{"f.sh", "#!/bin/sh\necho x\n# BODY\n", inAnyComment},
	{"f.yaml", "a: 1\n# BODY\n", inAnyComment},
	{"f.toml", "a = 1\n# BODY\n", inAnyComment},
	{"Dockerfile", "FROM x\n# BODY\nRUN y\n", inAnyComment},
	{"f.html", "<p>x</p>\n<!-- BODY -->\n", inHTML},
	{"f.md", "Text.\n\n<!-- BODY -->\n\nMore.\n", inMarkdownHTML},
}

// applies reports whether an entry of scope s is read in a comment of syntax in.
func applies(s, in suppressScope) bool {
	return s == inAnyComment || s == in || s == inHTML && in == inMarkdownHTML
}

// example is a comment text holding the entry where it counts.
func (s *suppression) example() string {
	w := s.word
	if s.bracket {
		w += "[js/xss]"
	}
	switch s.at {
	case atWord, anywhere:
		return "see " + w + " here"
	case whole:
		return w
	}
	return w + " x"
}

// split puts a zero-width space after the first letter or digit of the
// entry's word in the example.
func split(example, word string) string {
	at := strings.Index(strings.ToLower(example), word)
	k := at
	for k < len(example) && !isAlnum(example[k]) {
		k++
	}
	return example[:k+1] + "\u200b" + example[k+1:]
}

// regionOf classifies src as path and returns the region holding off.
func regionOf(t *testing.T, path, src string, off int) Region {
	t.Helper()
	m, err := Classify(path, []byte(src))
	if err != nil {
		t.Fatalf("%s %q: %v", path, src, err)
	}
	return m.At(off)
}

// TestSuppressionVocabulary feeds every entry of the shared vocabulary,
// with a carrier inside its word, to every comment syntax it applies to:
// the comment is a directive (its carrier stays), because removing the
// carrier would make the tool read it. In a syntax it does not apply to,
// and without the word, the same comment is prose.
func TestSuppressionVocabulary(t *testing.T) {
	for i := range suppressions {
		s := &suppressions[i]
		ex := s.example()
		sp := split(ex, s.word)
		if got, ok := suppressionDirective([]byte(ex), s.scope); !ok {
			t.Errorf("%q does not hold entry %q", ex, s.word)
		} else if got != s.why {
			// An earlier entry answered: each entry must be reachable.
			t.Errorf("%q: answered by %q, want %q", ex, got, s.why)
		}
		for _, cs := range commentSyntaxes {
			src := strings.Replace(cs.file, "BODY", sp, 1)
			off := strings.Index(src, "\u200b")
			r := regionOf(t, cs.path, src, off)
			switch {
			case applies(s.scope, cs.scope) && r.Kind != Directive:
				t.Errorf("%s: %q in %q is %s (%s), want a directive", cs.path, s.word, src, r.Kind, r.Why)
			case !applies(s.scope, cs.scope) && r.Why == s.why:
				// The language's own rules may read the word too (YAML's
				// "# cspell"); the entry itself must not.
				t.Errorf("%s: %q in %q is %s (%s), but the entry is for HTML comments", cs.path, s.word, src, r.Kind, r.Why)
			}
		}
	}
	// Every syntax makes the same comment prose without a tool's word, so
	// the cases above can fail.
	for _, cs := range commentSyntaxes {
		src := strings.Replace(cs.file, "BODY", "see no\u200bthing here", 1)
		if r := regionOf(t, cs.path, src, strings.Index(src, "\u200b")); r.Kind != Prose {
			t.Errorf("%s: a plain comment is %s (%s) in %q", cs.path, r.Kind, r.Why, src)
		}
	}
}

// TestSuppressionNearMisses holds the entries to their tools' matchers
// where those are narrower than a substring: a word start, a word end, a
// bracket, the whole comment.
func TestSuppressionNearMisses(t *testing.T) {
	for _, tc := range []struct {
		text  string
		scope suppressScope
		want  bool
	}{
		{"// x nosemgrep: rule-id", inAnyComment, true},
		{"//nosem", inAnyComment, true},
		{"// a NOSEMANTIC b", inAnyComment, true}, // semgrep's " nosem" has no word end
		{"// renosem", inAnyComment, false},
		{"// lgtm[js/xss] why", inAnyComment, true},
		{"// why lgtm [js/xss]", inAnyComment, true},
		{"// LGTM", inAnyComment, true},
		{"// foo; lgtm", inAnyComment, true},
		{"// looks lgtm to me", inAnyComment, false}, // bare lgtm only first or after ';'
		{"// lgtmx", inAnyComment, false},
		{"// see codeql[js/xss]", inAnyComment, true},
		{"// codeql is a tool", inAnyComment, false},
		{"//noinspection JSUnusedGlobalSymbols", inAnyComment, true},
		{"/* falls through */", inAnyComment, true},
		{"// FALLTHROUGH", inAnyComment, true},
		{"// it falls  through", inAnyComment, false}, // \s? is one character
		{"/* no default */", inAnyComment, true},
		{"// No Default.", inAnyComment, true},
		{"// no default here", inAnyComment, false},
		{"// more tests below", inAnyComment, false},
		{"// jshint ignore:line", inAnyComment, true},
		{"/* jshint esversion: 6 */", inAnyComment, true},
		{"// jshintrc is read first", inAnyComment, false},
		{"// flowlint-next-line untyped-import:off", inAnyComment, true},
		{"// clang-format off", inAnyComment, true},
		{"// clang-format on", inAnyComment, true},
		{"// clang-format is run by CI", inAnyComment, false},
		{"// dprint-ignore", inAnyComment, true},
		{"# version: 1.2.3 # x-release-please-version", inAnyComment, true},
		{" more ", inHTML, true},
		{" moreover ", inHTML, false},
		{" MarkdownTOC autolink=\"true\" ", inHTML, true},
		{" /MarkdownTOC ", inHTML, true},
		{" embedme ./src/x.ts ", inHTML, true},
		{" embedmer ", inHTML, false},
		{" rumdl-disable MD013 ", inHTML, true},
		{" pyml disable-next-line md013", inHTML, true},
		{" toc ", inHTML, true},
		{" tocsin ", inHTML, false},
		{" END mdsh ", inMarkdownHTML, true},
		{" End navigation ", inHTML, false}, // generated-section markers are Markdown's
	} {
		_, got := suppressionDirective([]byte(tc.text), tc.scope)
		if got != tc.want {
			t.Errorf("suppressionDirective(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// naiveSuppressionDirective is the vocabulary read the obvious way, every
// entry in order over the whole text: the oracle scanSuppressions must
// agree with.
func naiveSuppressionDirective(t []byte, in suppressScope) (string, bool) {
	for i := range suppressions {
		s := &suppressions[i]
		if applies(s.scope, in) && s.holds(t) {
			return s.why, true
		}
	}
	return "", false
}

// TestSuppressionScanAgreesWithEveryEntry holds the one-pass match to the
// entry-by-entry reading on every entry's example, spelled in upper case,
// run together with other entries and glued to word bytes on either
// side, and on every line of real Go, Python and JavaScript sources, in
// each comment syntax's scope.
func TestSuppressionScanAgreesWithEveryEntry(t *testing.T) {
	var texts []string
	for i := range suppressions {
		ex := suppressions[i].example()
		for j := range suppressions {
			other := suppressions[j].example()
			texts = append(texts, ex, strings.ToUpper(ex), "x"+ex, ex+"x", "_"+suppressions[i].word,
				ex+"; "+other, other+" "+ex, "//"+suppressions[i].word+suppressions[j].word)
		}
	}
	root := testtool.GOROOT(t)
	for _, p := range testtool.Files(t, root, 150, ".go", ".py", ".js") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(data), "\n")...)
	}
	hits := 0
	for _, text := range texts {
		for _, in := range []suppressScope{inAnyComment, inHTML, inMarkdownHTML} {
			want, wantOK := naiveSuppressionDirective([]byte(text), in)
			got, ok := suppressionDirective([]byte(text), in)
			if got != want || ok != wantOK {
				t.Fatalf("suppressionDirective(%q, %d) = %q, %v; entry by entry %q, %v", text, in, got, ok, want, wantOK)
			}
			if ok {
				hits++
			}
		}
	}
	// Most texts hold an entry, so the agreement covers the answers, not
	// only the misses.
	if hits < len(texts)/2 {
		t.Errorf("only %d of %d texts hold an entry", hits, 3*len(texts))
	}
}
