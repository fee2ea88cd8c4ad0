package region

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// goCorpus returns the Go fixtures plus a bounded, stable sample of the Go
// toolchain's own sources, with every example and cgo file among them kept.
func goCorpus(t *testing.T) (fixtures, sample []string) {
	t.Helper()
	fixtures, err := filepath.Glob(filepath.Join("testdata", "golden", "*.go.in"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no Go fixtures: %v", err)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Logf("go env GOROOT: %v; comparing fixtures only", err)
		return fixtures, nil
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	var all, special []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		all = append(all, p)
		base := filepath.Base(p)
		if strings.HasPrefix(base, "example") || strings.Contains(p, string(filepath.Separator)+"cgo"+string(filepath.Separator)) {
			special = append(special, p)
		}
		return nil
	})
	sort.Strings(all)
	const n = 400
	for i := 0; i < n && len(all) > 0; i++ {
		sample = append(sample, all[i*len(all)/n])
	}
	if len(special) > 150 {
		step := len(special) / 150
		kept := special[:0]
		for i := 0; i < len(special); i += step {
			kept = append(kept, special[i])
		}
		special = kept
	}
	return fixtures, append(sample, special...)
}

func TestGoAgainstScanner(t *testing.T) {
	fixtures, sample := goCorpus(t)
	files := append(append([]string(nil), fixtures...), sample...)
	compared, cgo, examples := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := classifyGo(path, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Check(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !checkGoComments(t, path, src, m) {
			continue
		}
		compared++
		c, e := checkGoParserOracles(t, path, src, m)
		cgo += c
		examples += e
	}
	if compared < len(files)*9/10 {
		t.Fatalf("compared %d of %d files", compared, len(files))
	}
	if len(sample) > 0 && (cgo == 0 || examples < 10) {
		t.Fatalf("the sample exercised %d cgo preambles and %d example outputs; want some of each", cgo, examples)
	}
	t.Logf("compared %d files with go/scanner; checked %d cgo preambles and %d example outputs with go/parser", compared, cgo, examples)
}

// commentSpan returns the source span of a comment whose literal go/scanner
// reported as lit: lit is the source with \r removed.
func commentSpan(src []byte, start int, lit string) (int, bool) {
	i, j := start, 0
	for j < len(lit) {
		switch {
		case i >= len(src):
			return 0, false
		case src[i] == lit[j]:
			i++
			j++
		case src[i] == '\r':
			i++
		default:
			return 0, false
		}
	}
	return i, true
}

// checkGoComments compares the map with go/scanner's comment list and
// literal tokens. It returns false when the file does not scan cleanly
// outside comments, after checking the map made it wholly runtime.
func checkGoComments(t *testing.T, path string, src []byte, m *Map) bool {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	var errs []int
	s.Init(file, src, func(p token.Position, _ string) { errs = append(errs, p.Offset) }, scanner.ScanComments)
	type span struct{ start, end int }
	var comments, lits []span
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		switch tok {
		case token.COMMENT:
			end, ok := commentSpan(src, off, lit)
			if !ok {
				t.Errorf("%s: comment at %d does not match its literal", path, off)
				return false
			}
			comments = append(comments, span{off, end})
		case token.STRING, token.CHAR:
			end, ok := commentSpan(src, off, lit) // raw strings lose \r too
			if ok {
				lits = append(lits, span{off, end})
			}
		}
	}
	terminated := func(c span) bool {
		t := src[c.start:c.end]
		return t[1] == '/' || (len(t) >= 4 && strings.HasSuffix(string(t), "*/"))
	}
	outside := false
	for _, c := range comments {
		if !terminated(c) {
			outside = true
		}
	}
	for _, e := range errs {
		in := false
		for _, c := range comments {
			if e >= c.start && e < c.end {
				in = true
				break
			}
		}
		if !in {
			outside = true
		}
	}
	if outside {
		if len(m.Regions) != 1 || m.Regions[0].Kind != Runtime {
			t.Errorf("%s: scanner error outside comments, want the whole file runtime, got %d regions", path, len(m.Regions))
		}
		return false
	}
	inComment := make([]bool, len(src))
	for _, c := range comments {
		reasons := map[string]bool{}
		for k := c.start; k < c.end; k++ {
			inComment[k] = true
			r := m.At(k)
			if src[k] == '\r' {
				if r.Kind != Runtime {
					t.Errorf("%s: \\r at %d inside a comment is %s, want runtime", path, k, r.Kind)
				}
				continue
			}
			if r.Kind == Runtime && r.Why != "cgo preamble" && r.Why != "example output" {
				t.Errorf("%s: comment byte %d is runtime %q", path, k, r.Why)
				break
			}
			reasons[r.Kind.String()+" "+r.Why] = true
		}
		if len(reasons) > 1 {
			t.Errorf("%s: comment [%d,%d) has mixed classes %v", path, c.start, c.end, reasons)
		}
	}
	for _, r := range m.Regions {
		if r.Kind == Runtime {
			continue
		}
		for k := r.Start; k < r.End; k++ {
			if !inComment[k] {
				t.Errorf("%s: %s byte %d lies outside every go/scanner comment", path, r.Kind, k)
				break
			}
		}
	}
	for _, l := range lits {
		for k := l.start; k < l.end; k++ {
			if m.At(k).Kind != Runtime {
				t.Errorf("%s: literal byte %d is %s", path, k, m.At(k).Kind)
				break
			}
		}
	}
	return true
}

var exampleOutput = regexp.MustCompile(`(?i)^[[:space:]]*(unordered )?output:`)

// checkGoParserOracles uses go/parser as an independent judge of the two
// runtime comment kinds: the cgo preamble (the doc of import "C", as cmd/cgo
// reads it) and example output (the last comment group of an Example
// function whose text starts with "Output:", as go/doc reads it).
func checkGoParserOracles(t *testing.T, path string, src []byte, m *Map) (cgo, examples int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return 0, 0
	}
	tf := fset.File(f.Pos())
	wantRuntime := func(g *ast.CommentGroup, what string) {
		for _, c := range g.List {
			off := tf.Offset(c.Pos())
			if r := m.At(off); r.Kind != Runtime {
				t.Errorf("%s: %s comment at %d is %s %q", path, what, off, r.Kind, r.Why)
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				continue
			}
			for _, spec := range d.Specs {
				is := spec.(*ast.ImportSpec)
				if is.Path.Value != `"C"` {
					continue
				}
				doc := is.Doc
				if doc == nil && len(d.Specs) == 1 {
					doc = d.Doc
				}
				if doc != nil {
					wantRuntime(doc, "cgo preamble")
					cgo++
				}
			}
		case *ast.FuncDecl:
			if !strings.HasPrefix(d.Name.Name, "Example") || d.Body == nil {
				continue
			}
			var last *ast.CommentGroup
			for _, g := range f.Comments {
				if g.Pos() > d.Body.Lbrace && g.End() < d.Body.Rbrace {
					last = g
				}
			}
			if last != nil && exampleOutput.MatchString(last.Text()) {
				wantRuntime(last, "example output")
				examples++
			}
		}
	}
	return cgo, examples
}
