package validate

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func TestProfile(t *testing.T) {
	tests := []struct {
		in   string
		want LineEndings
	}{
		{"", EndingsNone},
		{"no newline", EndingsNone},
		{"a\nb\n", EndingsLF},
		{"a\r\nb\r\n", EndingsCRLF},
		{"a\rb\r", EndingsCR},
		{"a\r\nb\n", EndingsMixed},
		{"a\rb\n", EndingsMixed},
		{"a\r\nb\r", EndingsMixed},
		{"\r\n", EndingsCRLF},
		{"\r", EndingsCR},
		{"a\u2028b", EndingsNone}, // not a line break for this check
	}
	for _, tc := range tests {
		if got := Profile([]byte(tc.in)); got != tc.want {
			t.Errorf("Profile(%q) = %s; want %s", tc.in, got, tc.want)
		}
	}
}

func TestMinimumByteChecks(t *testing.T) {
	tests := []struct {
		name       string
		path       string
		orig, cand string
		status     Status
		reason     string // substring
	}{
		{"unchanged text has no parser", "a.md", "hello\n", "hello\n", Unchecked, `no parser for ".md"`},
		{"cleaned text", "a.md", "he\u200bllo\n", "hello\n", Unchecked, "no parser"},
		{"emptied", "a.md", "hello\n", "", Failed, "empty"},
		{"empty stays empty", "a.md", "", "", Unchecked, "no parser"},
		{"invalid utf-8", "a.md", "hello\n", "hel\xfflo\n", Failed, "not valid UTF-8"},
		{"crlf to lf", "a.md", "a\r\nb\r\n", "a\nb\n", Failed, "line endings changed from crlf to lf"},
		{"lf to mixed", "a.txt", "a\nb\n", "a\r\nb\n", Failed, "from lf to mixed"},
		{"cr kept", "a.txt", "a\rb\u200b\r", "a\rb\r", Unchecked, "no parser"},
		{"trailing newline removed", "a.md", "a\nb\n", "a\nb", Failed, "trailing newline removed"},
		{"trailing newline added", "a.md", "a\nb", "a\nb\n", Failed, "trailing newline added"},
		{"several failures reported", "a.md", "a\r\n", "\xff", Failed, "not valid UTF-8; line endings changed"},
		{"go ok", "x.go", "package x\n// a\u200bcomment\n", "package x\n// acomment\n", OK, "parses as Go"},
		{"go broken", "x.go", "package x\n\nfunc f() {}\n", "package x\n\nfunc f() {\n", Failed, "does not parse as Go: 3:"},
		{"go original broken too", "x.go", "package x\nfunc {\n", "package x\nfunc {\n", Unchecked, "original did not parse"},
		{"go fixed", "x.go", "package x\nfunc {\n", "package x\n", OK, "parses as Go"},
		{"go byte check first", "x.go", "package x\n", "package x", Failed, "trailing newline removed"},
		// YAML and Rust have no in-process parser (go.yaml.in/yaml/v3 would
		// cost every hook start-up; rustc belongs in [commands]): never valid.
		{"yaml unchecked", "ci.yml", "a: 1 # c\u200b\n", "a: 1 # c\n", Unchecked, `no parser for ".yml"`},
		{"rust unchecked", "lib.rs", "// c\u200b\nfn f() {}\n", "// c\nfn f() {}\n", Unchecked, `no parser for ".rs"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Minimum(context.Background(), []Candidate{{Path: tc.path, Original: []byte(tc.orig), Candidate: []byte(tc.cand)}}, Options{NoPython: true})
			if len(r) != 1 {
				t.Fatalf("got %d results", len(r))
			}
			if r[0].Status != tc.status || !strings.Contains(r[0].Reason, tc.reason) {
				t.Errorf("got %s %q; want %s containing %q", r[0].Status, r[0].Reason, tc.status, tc.reason)
			}
			if r[0].Path != tc.path {
				t.Errorf("path = %q", r[0].Path)
			}
		})
	}
}

func TestGoErrorHasNoSourceText(t *testing.T) {
	orig := "package x\n\nvar a = 1\n"
	cand := "package x\n\nvar a = 1 SECRETTOKEN \"SECRETSTRING\"\n"
	r := Minimum(context.Background(), []Candidate{{Path: "x.go", Original: []byte(orig), Candidate: []byte(cand)}}, Options{})
	if r[0].Status != Failed {
		t.Fatalf("status = %s (%s)", r[0].Status, r[0].Reason)
	}
	if strings.Contains(r[0].Reason, "SECRET") {
		t.Errorf("reason leaks file contents: %q", r[0].Reason)
	}
}

func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		testtool.Missing(t, "python3", "python3 not found on PATH: Python syntax checks cannot be tested")
	}
	return p
}

func TestMinimumPython(t *testing.T) {
	py := needPython(t)
	files := []Candidate{
		{Path: "ok.py", Original: []byte("# a\u200bb\nx = 1\n"), Candidate: []byte("# ab\nx = 1\n")},
		{Path: "broken.py", Original: []byte("def f():\n    return 1\n"), Candidate: []byte("def f(:\n    return 1\n")},
		{Path: "never.py", Original: []byte("def f(:\n"), Candidate: []byte("def f(:\n")},
		{Path: "notes.md", Original: []byte("x\n"), Candidate: []byte("x\n")},
		{Path: "latin1.py", Original: []byte("# -*- coding: latin-1 -*-\ns = '\xe9'\n"), Candidate: []byte("# -*- coding: latin-1 -*-\ns = '\xe9'\n")},
		{Path: "nul.py", Original: []byte("x = 1\n"), Candidate: []byte("x = 1\x00\n")},
		{Path: "stub.pyi", Original: []byte("def f() -> int: ...\n"), Candidate: []byte("def f() -> int: ...\n")},
	}
	// latin1.py is not valid UTF-8, so the byte checks fail it before python.
	want := []Status{OK, Failed, Unchecked, Unchecked, Failed, Failed, OK}
	reasons := []string{"parses as Python", "does not parse as Python: 1:", "original did not parse", "no parser", "not valid UTF-8", "does not parse as Python", "parses as Python"}
	r := Minimum(context.Background(), files, Options{Python: py})
	for i := range files {
		if r[i].Status != want[i] || !strings.Contains(r[i].Reason, reasons[i]) {
			t.Errorf("%s: got %s %q; want %s containing %q", files[i].Path, r[i].Status, r[i].Reason, want[i], reasons[i])
		}
	}
}

func TestMinimumPythonBatchOrder(t *testing.T) {
	py := needPython(t)
	var files []Candidate
	for i := 0; i < 200; i++ {
		src := fmt.Sprintf("x%d = %d\n", i, i)
		cand := src
		if i%7 == 3 {
			cand = fmt.Sprintf("x%d = = %d\n", i, i)
		}
		files = append(files, Candidate{Path: fmt.Sprintf("f%d.py", i), Original: []byte(src), Candidate: []byte(cand)})
	}
	r := Minimum(context.Background(), files, Options{Python: py})
	for i := range files {
		want := OK
		if i%7 == 3 {
			want = Failed
		}
		if r[i].Status != want || r[i].Path != files[i].Path {
			t.Errorf("%s: got %s %q; want %s", files[i].Path, r[i].Status, r[i].Reason, want)
		}
	}
}

func TestMinimumWithoutPython(t *testing.T) {
	f := []Candidate{{Path: "a.py", Original: []byte("x = 1\n"), Candidate: []byte("x = = 1\n")}}
	t.Run("disabled", func(t *testing.T) {
		r := Minimum(context.Background(), f, Options{NoPython: true})
		if r[0].Status != Unchecked || !strings.Contains(r[0].Reason, "unchecked") {
			t.Errorf("got %s %q", r[0].Status, r[0].Reason)
		}
	})
	t.Run("not on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		r := Minimum(context.Background(), f, Options{})
		if r[0].Status != Unchecked || !strings.Contains(r[0].Reason, "python3 not found") {
			t.Errorf("got %s %q", r[0].Status, r[0].Reason)
		}
	})
	t.Run("interpreter cannot start", func(t *testing.T) {
		r := Minimum(context.Background(), f, Options{Python: "/nonexistent/python3"})
		if r[0].Status != Unchecked {
			t.Errorf("got %s %q; want unchecked, never valid", r[0].Status, r[0].Reason)
		}
	})
	t.Run("interpreter that is not python", func(t *testing.T) {
		sh, err := exec.LookPath("true")
		if err != nil {
			testtool.Missing(t, "true", "true not found on PATH")
		}
		r := Minimum(context.Background(), f, Options{Python: sh})
		if r[0].Status != Unchecked || !strings.Contains(r[0].Reason, "no verdict") {
			t.Errorf("got %s %q; want unchecked, never valid", r[0].Status, r[0].Reason)
		}
	})
}

// FuzzMinimumIdentity: a candidate identical to its original never fails
// the byte-level checks, and a changed trailing newline always does.
func FuzzMinimumIdentity(f *testing.F) {
	f.Add([]byte("a\r\nb\n"))
	f.Add([]byte("package x\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		if fails := byteChecks(b, b); len(fails) > 0 {
			valid := true
			for _, s := range fails {
				if !strings.Contains(s, "UTF-8") {
					valid = false
				}
			}
			if !valid {
				t.Fatalf("identical candidate failed: %v", fails)
			}
		}
		if trailingNewline(b) {
			if len(byteChecks(b, append(b[:len(b):len(b)], 'x'))) == 0 {
				t.Fatal("appending after a trailing newline passed")
			}
		}
	})
}

// FuzzProfile checks Profile against a naive definition.
func FuzzProfile(f *testing.F) {
	f.Add([]byte("a\r\n\r\rb\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		crlf := strings.Count(s, "\r\n")
		lf := strings.Count(s, "\n") - crlf
		cr := strings.Count(s, "\r") - crlf
		n := 0
		for _, c := range []int{crlf, lf, cr} {
			if c > 0 {
				n++
			}
		}
		want := EndingsMixed
		switch {
		case n == 0:
			want = EndingsNone
		case n == 1 && lf > 0:
			want = EndingsLF
		case n == 1 && crlf > 0:
			want = EndingsCRLF
		case n == 1 && cr > 0:
			want = EndingsCR
		}
		if got := Profile(b); got != want {
			t.Fatalf("Profile(%q) = %s; want %s", b, got, want)
		}
	})
}

func BenchmarkMinimumGo(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("package x\n\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "// f%d does a thing.\nfunc f%d(a, b int) int { return a*b + %d }\n\n", i, i, i)
	}
	src := []byte(sb.String())
	files := []Candidate{{Path: "x.go", Original: src, Candidate: src}}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Minimum(context.Background(), files, Options{})
	}
}

func pyFiles(n int) []Candidate {
	var files []Candidate
	for i := 0; i < n; i++ {
		src := []byte(fmt.Sprintf("# note %d\ndef f%d(a, b):\n    return a * b + %d\n", i, i, i))
		files = append(files, Candidate{Path: fmt.Sprintf("f%d.py", i), Original: src, Candidate: src})
	}
	return files
}

// BenchmarkPythonBatch100 parses 100 files in one python3 process;
// compare with BenchmarkPythonOneByOne10 (x10).
func BenchmarkPythonBatch100(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testtool.Missing(b, "python3", "python3 not found on PATH")
	}
	files := pyFiles(100)
	for b.Loop() {
		Minimum(context.Background(), files, Options{Python: py})
	}
}

// BenchmarkPythonOneByOne10 starts one python3 per file, for comparison.
func BenchmarkPythonOneByOne10(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testtool.Missing(b, "python3", "python3 not found on PATH")
	}
	files := pyFiles(10)
	for b.Loop() {
		for i := range files {
			Minimum(context.Background(), files[i:i+1], Options{Python: py})
		}
	}
}

func TestScrubGoMessage(t *testing.T) {
	tests := map[string]string{
		"expected ';', found 'IDENT' secret":   "expected ';'",
		"illegal character U+200B '\u200b'":    "illegal character U+200B",
		"expected declaration, found \"text\"": "expected declaration",
		"missing return":                       "missing return",
	}
	for in, want := range tests {
		if got := scrubGoMessage(in); got != want {
			t.Errorf("scrubGoMessage(%q) = %q; want %q", in, got, want)
		}
	}
}
