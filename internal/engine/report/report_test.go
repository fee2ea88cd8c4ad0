package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"notes.md":                    "notes.md",
		"dir/naïve café.md":           "dir/naïve café.md",
		"a\nb.md:1:1 U+200B fake":     `"a\nb.md:1:1 U+200B fake"`,
		"tab\there":                   `"tab\there"`,
		`quo"te\.md`:                  `"quo\"te\\.md"`,
		"rlo\u202egpj.exe":            `"rlo\342\200\256gpj.exe"`,
		"esc\x1b[31m.md":              `"esc\033[31m.md"`,
		"bad\xff.md":                  `"bad\377.md"`,
		"c1\u0085.md":                 `"c1\302\205.md"`,
		"zw\u200bsp.md":               `"zw\342\200\213sp.md"`,
		"日本語.md":                      "日本語.md",
		"line\u2028sep.md":            `"line\342\200\250sep.md"`,
		"ok-with-emoji-\U0001F600.md": "ok-with-emoji-\U0001F600.md",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		if strings.ContainsAny(Quote(in), "\n\r") {
			t.Errorf("Quote(%q) still holds a line break", in)
		}
	}
}

func TestLinesOneWordingAndPlurals(t *testing.T) {
	r := &Run{Command: "clean", Files: []File{
		{Path: "a.md", Status: Cleaned, Stages: []Stage{{Role: "inspect", Findings: 5}, {Role: "transform", Findings: 2, Removed: 1}}},
		{Path: "b\nc.py", Status: Refused, Reason: "changed since it was recorded", Stages: []Stage{{Role: "transform", Findings: 4, Removed: 4}}},
		{Path: "d.go", Status: Unchanged, Reported: []Finding{{Line: 3, Col: 5, Code: "U+200B", Name: "ZERO WIDTH SPACE", Region: "runtime", Why: "string literal"}}},
	}, Skipped: []Skip{{Path: "x.bin", Reason: "no classifier"}}}
	r.Tally()
	if r.Summary.Removed != 1 {
		t.Fatalf("removed = %d, want 1: a refused file lost nothing, inspect findings and carriers a transform kept are not removals", r.Summary.Removed)
	}
	var all []string
	for _, l := range r.Lines(false) {
		all = append(all, l.Text)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"cleaned a.md: 1 carrier removed",
		`refused "b\nc.py": changed since it was recorded`,
		"left d.go:3:5 U+200B ZERO WIDTH SPACE in runtime (string literal): not prose, never touched; review it",
		"skipped x.bin: no classifier",
		"cleaned 1 file, 1 carrier removed; 1 unchanged; 1 skipped; 1 refused; 1 carrier left to review",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lines lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "1 carriers") || strings.Contains(text, "1 files") {
		t.Errorf("wrong plural:\n%s", text)
	}
	quiet := r.Lines(true)
	for _, l := range quiet {
		if l.Level != Warn {
			t.Errorf("quiet kept an info line: %q", l.Text)
		}
	}
	if len(quiet) != 2 {
		t.Errorf("quiet kept %d lines, want the refused file and the carrier left in code", len(quiet))
	}
}

// TestLinesNameFewUnchangedFiles: a run over a tree does not print a line
// for each of its thousands of unchanged files; a handful are still named,
// and the headline counts them either way, beside what needs a look.
func TestLinesNameFewUnchangedFiles(t *testing.T) {
	for _, n := range []int{1, ListUnchanged, ListUnchanged + 1, 9188} {
		r := &Run{Command: "clean"}
		for i := range n {
			r.Files = append(r.Files, File{Path: fmt.Sprintf("f%d.go", i), Status: Unchanged})
		}
		r.Files = append(r.Files, File{Path: "x.md", Status: Refused, Reason: "invalid UTF-8"})
		r.Tally()
		named := 0
		var last string
		for _, l := range r.Lines(false) {
			if strings.HasPrefix(l.Text, "unchanged ") {
				named++
			}
			last = l.Text
		}
		want := n
		if n > ListUnchanged {
			want = 0
		}
		if named != want {
			t.Errorf("%d unchanged files: %d named, want %d", n, named, want)
		}
		if !strings.Contains(last, fmt.Sprintf("; %d unchanged; 1 refused", n)) {
			t.Errorf("%d unchanged files: headline %q does not count them", n, last)
		}
	}
}

// escapeIndexRef is escapeIndex a byte at a time: the definition the word
// skip must agree with.
func escapeIndexRef(s string, also func(rune) bool) int {
	for i := 0; i < len(s); {
		r, n := decode(s[i:])
		if r < utf8.RuneSelf && (r < 0x20 || r == 0x7f) || needsEscape(r, n, also) {
			return i
		}
		i += n
	}
	return -1
}

// TestEscapeIndexSkipsWords puts every byte value at every position of
// texts that fill whole words and a tail, alone and after a character
// that needs no escape but is not ASCII, with and without an also: the
// eight-byte skip finds what a byte at a time finds.
func TestEscapeIndexSkipsWords(t *testing.T) {
	percent := func(r rune) bool { return r == '%' }
	for _, base := range []string{strings.Repeat("path/to/file.go", 2), "é" + strings.Repeat("a", 21)} {
		for pos := range len(base) {
			for c := range 256 {
				b := []byte(base)
				b[pos] = byte(c)
				s := string(b)
				for _, also := range []func(rune) bool{nil, percent} {
					if got, want := escapeIndex(s, also), escapeIndexRef(s, also); got != want {
						t.Fatalf("escapeIndex(%q) = %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}
