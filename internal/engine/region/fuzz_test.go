package region

import (
	"bytes"
	"errors"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// addFixtureSeeds seeds a fuzzer with the golden fixtures of one language.
func addFixtureSeeds(f *testing.F, ext string) {
	f.Helper()
	for _, src := range fixtureSources(f, ext) {
		f.Add(src)
	}
}

// fixtureSources returns the contents of the golden fixtures *EXT.in.
func fixtureSources(f *testing.F, ext string) [][]byte {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*"+ext+".in"))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

// classifyChecked classifies src as path and checks what must hold for any
// input: no error, a partition, determinism, no line break in prose.
func classifyChecked(t *testing.T, path string, src []byte) *Map {
	t.Helper()
	m, err := Classify(path, src)
	if err != nil {
		t.Fatalf("Classify: %v", err)
	}
	again, err := Classify(path, src)
	if err != nil {
		t.Fatalf("Classify again: %v", err)
	}
	if !reflect.DeepEqual(m, again) {
		t.Fatalf("Classify is not deterministic")
	}
	lineBreaks := "\r\n"
	if lang := Language(path, src); lang == "go" || lang == "rust" {
		lineBreaks = "\r" // block comments hold \n
	}
	for _, r := range m.Regions {
		if r.Kind != Runtime && bytes.ContainsAny(src[r.Start:r.End], lineBreaks) {
			t.Fatalf("%s region %d-%d %q holds a line break", r.Kind, r.Start, r.End, src[r.Start:r.End])
		}
	}
	return m
}

var zwsp = []byte("\u200b")

// removeFromProse deletes every U+200B lying wholly inside a prose region, as
// a cleaner would, and returns the result with the new offset of each
// original byte (-1 for deleted bytes).
func removeFromProse(src []byte, m *Map) ([]byte, []int) {
	out := make([]byte, 0, len(src))
	newOff := make([]int, len(src))
	for _, r := range m.Regions {
		for i := r.Start; i < r.End; {
			if r.Kind == Prose && i+len(zwsp) <= r.End && bytes.HasPrefix(src[i:], zwsp) {
				for k := 0; k < len(zwsp); k++ {
					newOff[i+k] = -1
				}
				i += len(zwsp)
				continue
			}
			newOff[i] = len(out)
			out = append(out, src[i])
			i++
		}
	}
	return out, newOff
}

// joinsCloser reports whether a U+200B in prose sits between two bytes
// that, joined, could end a comment ("*/", "-->", "--!>", "<!-->").
func joinsCloser(src []byte, m *Map) bool {
	for _, r := range m.Regions {
		if r.Kind != Prose {
			continue
		}
		for i := r.Start; i+len(zwsp) <= r.End; i++ {
			if !bytes.HasPrefix(src[i:], zwsp) || i == 0 || i+len(zwsp) >= len(src) {
				continue
			}
			a, b := src[i-1], src[i+len(zwsp)]
			if (a == '*' || a == '-' || a == '!') && (b == '/' || b == '-' || b == '>') {
				return true
			}
		}
	}
	return false
}

// checkRemovalStable asserts what a classifier itself guarantees when
// U+200B is cleaned out of prose: no prose byte becomes a directive (a
// comment that would become one is one already), and no directive or
// runtime byte changes at all. A prose byte that becomes runtime (a block
// comment closed early) or changes its reason (a label that appears) is
// the engine's business: it classifies the result again and keeps the
// carrier that does it (internal/engine/check's FuzzClean and TestDecide).
func checkRemovalStable(t *testing.T, path string, src []byte, m *Map) {
	t.Helper()
	checkRemovalStableWith(t, path, src, m, classifyChecked)
}

// checkRemovalStableWith is checkRemovalStable with the classifying check
// of the language (which must accept the cleaned file).
func checkRemovalStableWith(t *testing.T, path string, src []byte, m *Map, classify func(*testing.T, string, []byte) *Map) {
	t.Helper()
	cleaned, newOff := removeFromProse(src, m)
	if len(cleaned) == len(src) {
		return
	}
	m2 := classify(t, path, cleaned)
	if m2 == nil {
		if joinsCloser(src, m) {
			// A block comment closed early can leave code the language
			// rejects; the engine classifies its candidate, sees that, and
			// keeps the carrier.
			return
		}
		t.Fatalf("removing U+200B from prose made the file unclassifiable\nbefore: %q\nafter:  %q", src, cleaned)
	}
	for i, n := range newOff {
		if n < 0 {
			continue
		}
		a, b := m.At(i), m2.At(n)
		if a.Kind == Prose && b.Kind != Directive {
			continue
		}
		if a.Kind != b.Kind || a.Why != b.Why {
			t.Fatalf("byte %d was %s %q, after removing U+200B from prose it is %s %q\nbefore: %q\nafter:  %q",
				i, a.Kind, a.Why, b.Kind, b.Why, src, cleaned)
		}
	}
}

func FuzzClassifyPython(f *testing.F) {
	addFixtureSeeds(f, ".py")
	for _, s := range []string{
		"", "#", "'", "f'{", "f'{'", "#!\r#\u200bcoding=x\r", "x = f\"{f\"{'#'}\"}\" # \u200bnoqa\n",
		"\"\"\"\\", "rb'\\\r\n'", "t'{x:{y}}'", "f'{x!r}}'", "# a\u200b\u200b b\n'\u200b'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := classifyChecked(t, "f.py", src)
		for _, r := range m.Regions {
			if r.Kind != Runtime && (src[r.Start] != '#' || r.Why == "code") {
				t.Fatalf("%s region %d-%d %q is not a comment", r.Kind, r.Start, r.End, src[r.Start:r.End])
			}
		}
		checkRemovalStable(t, "f.py", src, m)
	})
}

func FuzzClassifyGo(f *testing.F) {
	addFixtureSeeds(f, ".go")
	for _, s := range []string{
		"", "/*", "//", "package p\n// a\u200b\n", "package p\n/* *\u200b/ */\n",
		"package p\n// x\nimport \"C\"\n", "package p\nfunc Example() {\n// Output:\n// \u200bx\n}\n",
		"\ufeffpackage p\n//\u200bgo:generate x\n", "package p\r\n// a\rb\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := classifyChecked(t, "f.go", src)
		// Prose and directive bytes lie inside go/scanner's comments.
		fset := token.NewFileSet()
		file := fset.AddFile("f.go", -1, len(src))
		var s scanner.Scanner
		s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
		inComment := make([]bool, len(src))
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.COMMENT {
				continue
			}
			off := file.Offset(pos)
			end, ok := commentSpan(src, off, lit)
			if !ok {
				end = len(src)
			}
			for k := off; k < end; k++ {
				inComment[k] = true
			}
		}
		for _, r := range m.Regions {
			if r.Kind == Runtime {
				continue
			}
			for k := r.Start; k < r.End; k++ {
				if !inComment[k] {
					t.Fatalf("%s byte %d is outside every comment", r.Kind, k)
				}
			}
		}
		checkRemovalStable(t, "f.go", src, m)
	})
}

func FuzzClassifyMarkdown(f *testing.F) {
	addFixtureSeeds(f, ".md")
	addFixtureSeeds(f, ".txt")
	for _, s := range []string{
		"", "---", "---\n", "+++\r+++\r", "<!--", "<!-- \u200b -->", "`", "``\u200b`", "> - <!--\n> -->",
		"\t\tx", "|a|\n|-|\n|b\u200b|", "[a](<b\nc>)", "\u200b=\u200b=", "x\r\r\n\r```\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := classifyChecked(t, "f.md", src)
		// Markdown structure may legitimately change when prose changes
		// (an emphasis that no longer matches), so only classifying the
		// cleaned text safely is required here.
		cleaned, _ := removeFromProse(src, m)
		classifyChecked(t, "f.md", cleaned)
		if strings.HasPrefix(string(src), "---\n") && m.At(0).Kind != Runtime {
			t.Fatalf("a leading --- line is %s", m.At(0).Kind)
		}
	})
}

// fuzzHashComments checks what must hold for any input of a '#'-comment
// language: a refusal or a partition whose prose and directives are
// comments ('#' first, no line break), that keeps its classification once
// U+200B is removed from prose.
func fuzzHashComments(t *testing.T, path string, src []byte) {
	if _, err := Classify(path, src); err != nil {
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("error is not a refusal: %v", err)
		}
		return
	}
	m := classifyChecked(t, path, src)
	for _, r := range m.Regions {
		if r.Kind != Runtime && (src[r.Start] != '#' || r.Why == "code") {
			t.Fatalf("%s region %d-%d %q is not a comment", r.Kind, r.Start, r.End, src[r.Start:r.End])
		}
	}
	checkRemovalStable(t, path, src, m)
}

func FuzzClassifyShell(f *testing.F) {
	addFixtureSeeds(f, ".sh")
	for _, s := range []string{
		"", "#", "#!/bin/sh\n# a\u200b\n", "echo a#b # c\n", "echo\u00a0# x\n", "x=`echo # c`\n",
		"cat <<EOF\n# b\nEOF\n# a\n", "echo a # c \\\necho b # d\n", "echo a\r# x\r\n", "a=(1 2)#x\n",
		"# shell\u200bcheck disable=SC1\n", "echo \"$(echo # q\n)\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzHashComments(t, "f.bash", src) })
}

func FuzzClassifyTOML(f *testing.F) {
	addFixtureSeeds(f, ".toml")
	for _, s := range []string{
		"", "#", "a = 1 # c\u200b\n", "a = \"#\" # c\n", "a = '''\n#\n''' # c\n", "a = [ # c\n 1, # d\n]\n",
		"#\u200b:schema x\n", "# \x07\na = 1\n", "a = \"\"\"x\"\"\"\"\" # c\n", "# a\r\nb = 1\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzHashComments(t, "f.toml", src) })
}

func FuzzClassifyDockerfile(f *testing.F) {
	addFixtureSeeds(f, "ockerfile")
	for _, s := range []string{
		"", "#", "# syntax=x\nFROM a\n# c\u200b\n", "# escape=`\nRUN a `\n # c\n b\n", "RUN <<EOF\n# b\nEOF\n# c\n",
		"\u00a0# c\n", "RUN a\r# c\n", "# syn\u200btax=x\n", "COPY <<A <<B /x\nA\n# b\nB\n", "RUN <<-E\n\t# x\n\tE\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzHashComments(t, "Dockerfile", src) })
}
