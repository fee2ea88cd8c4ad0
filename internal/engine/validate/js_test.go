package validate

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func TestMinimumJSON(t *testing.T) {
	for _, tc := range []struct {
		path, lang, orig, cand string
		status                 Status
		reason                 string
	}{
		{"a.json", "json", "{\"a\": \"x\u200b\"}\n", "{\"a\": \"x\"}\n", OK, "parses as JSON"},
		{"a.json", "json", "{\"a\": 1}\n", "{\"a\": }\n", Failed, "does not parse as JSON: 1:7: syntax error"},
		{"a.json", "json", "{\"a\": }\n", "{\"a\": }\n", Unchecked, "original did not parse as JSON either"},
		{"a.json", "json", "{} {}\n", "{} {}\n", Unchecked, "original did not parse"},
		{"a.json", "json", "{ // c\n}\n", "{ // c\n}\n", Unchecked, "original did not parse as JSON either"},
		{"tsconfig.json", "jsonc", "{\n  // c\u200b\n  \"a\": [1, 2,], /* d */\n}\n", "{\n  // c\n  \"a\": [1, 2,], /* d */\n}\n", OK, "parses as JSONC"},
		{"x.jsonc", "jsonc", "{ // c\n \"a\": 1 }\n", "{ / c\n \"a\": 1 }\n", Failed, "does not parse as JSONC"},
		// Without the classifier's language a .json file is read as JSONC.
		{"b.json", "", "{ // c\n}\n", "{ // c\n}\n", OK, "parses as JSONC"},
		// A byte order mark at the start is read past (it was "did not
		// parse either": the syntax check silently off).
		{"p.json", "json", "\xef\xbb\xbf{\"a\": \"x\u200b\"}\n", "\xef\xbb\xbf{\"a\": \"x\"}\n", OK, "parses as JSON"},
		{"tsconfig.json", "jsonc", "\xef\xbb\xbf{\n  // c\u200b\n  \"a\": 1,\n}\n", "\xef\xbb\xbf{\n  // c\n  \"a\": 1,\n}\n", OK, "parses as JSONC"},
		{"p.json", "json", "\xef\xbb\xbf{\"a\": 1}\n", "\xef\xbb\xbf{\"a\": }\n", Failed, "does not parse as JSON: 1:10: syntax error"},
		{"a.ts", "typescript", "let x = 1\n", "let x = 1\n", Unchecked, `no parser for ".ts"`},
		{"a.tsx", "typescript", "x\n", "x\n", Unchecked, "no parser"},
	} {
		c := Candidate{Path: tc.path, Lang: tc.lang, Original: []byte(tc.orig), Candidate: []byte(tc.cand)}
		res := Minimum(context.Background(), []Candidate{c}, Options{NoPython: true, NoNode: true})
		if res[0].Status != tc.status || !strings.Contains(res[0].Reason, tc.reason) {
			t.Errorf("%s %q: %s %q, want %s %q", tc.path, tc.cand, res[0].Status, res[0].Reason, tc.status, tc.reason)
		}
	}
}

func TestMinimumJSNode(t *testing.T) {
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	dir := t.TempDir()
	mod := filepath.Join(dir, "esm")
	if err := os.MkdirAll(filepath.Join(mod, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cjs := filepath.Join(dir, "a.js")
	esm := filepath.Join(mod, "sub", "a.js")
	for _, tc := range []struct {
		path, orig, cand string
		status           Status
		reason           string
	}{
		{cjs, "// a\u200b\nreturn 1\n", "// a\nreturn 1\n", OK, "parses as JavaScript (node, commonjs, as --check compiles it)"},
		{esm, "// a\u200b\nimport x from 'y'; await x\n", "// a\nimport x from 'y'; await x\n", OK, "module"},
		{filepath.Join(dir, "b.mjs"), "export {}\n", "export {}\n", OK, "module"},
		{filepath.Join(dir, "b.cjs"), "x = 1 <!-- html comment\n", "x = 1 <!-- html comment\n", OK, "commonjs"},
		{cjs, "f(1)\n", "f(1\n", Failed, "does not parse as JavaScript (node --check, commonjs): line 1"},
		{cjs, "f(1\n", "f(1\n", Unchecked, "original did not parse"},
		{esm, "x = 1 <!-- c\n", "x = 1 <!-- c\n", Unchecked, "original did not parse"},
	} {
		res := Minimum(context.Background(), []Candidate{{Path: tc.path, Original: []byte(tc.orig), Candidate: []byte(tc.cand)}}, Options{NoPython: true, Node: node})
		if res[0].Status != tc.status || !strings.Contains(res[0].Reason, tc.reason) {
			t.Errorf("%s %q: %s %q, want %s %q", tc.path, tc.cand, res[0].Status, res[0].Reason, tc.status, tc.reason)
		}
	}
	// Without node the check is reported as not run, never as valid.
	t.Setenv("PATH", t.TempDir())
	if _, err := exec.LookPath("node"); err == nil {
		t.Fatal("node still on PATH")
	}
	res := Minimum(context.Background(), []Candidate{{Path: cjs, Original: []byte("x\n"), Candidate: []byte("x\n")}}, Options{NoPython: true})
	if res[0].Status != Unchecked || !strings.Contains(res[0].Reason, "node not found") {
		t.Errorf("without node: %s %q", res[0].Status, res[0].Reason)
	}
}

// A package.json saved with a byte order mark still says "module" (node
// reads past the mark).
func TestJSModeReadsPastAByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte("\xef\xbb\xbf{\"type\": \"module\"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := jsMode(filepath.Join(dir, "a.js")); got != "module" {
		t.Fatalf("jsMode = %q, want module", got)
	}
}

// The one-process compile gives node --check's verdict on real
// third-party JavaScript (ESLint and its dependencies from npm, each file
// in the module mode its package says), whole and cut short at a point
// that leaves most of them broken: "compiles" exactly where node --check
// on the file alone says it parses.
func TestNodeCompileAgreesWithNodeCheck(t *testing.T) {
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	root := filepath.Join(testtool.NPM(t, "eslint@9.39.5"), "node_modules")
	var paths []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && parserFor(Candidate{Path: p}) == "node" {
			if fi, err := d.Info(); err == nil && fi.Size() < 200<<10 {
				paths = append(paths, p)
			}
		}
		return nil
	})
	want := 40
	if testing.Short() {
		want = 15
	}
	if len(paths) < want {
		t.Fatalf("only %d JavaScript files under %s", len(paths), root)
	}
	var files []Candidate
	for i := 0; i < want; i++ {
		p := paths[i*len(paths)/want]
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, Candidate{Path: p, Candidate: src}, Candidate{Path: p, Candidate: src[:len(src)*2/3]})
	}
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	got := nodeCompile(context.Background(), node, files, idx, 0)
	if len(got) != len(files) {
		t.Fatalf("%d verdicts for %d sources", len(got), len(files))
	}
	parsed := 0
	for i, f := range files {
		err := nodeCheck(context.Background(), node, jsMode(f.Path), f.Candidate, 0)
		if errors.Is(err, errNoVerdict) {
			t.Fatalf("%s: node --check gave no verdict: %v", f.Path, err)
		}
		if (got[i] == "ok") != (err == nil) {
			t.Errorf("%s (%d bytes, %s): one-process compile says %s, node --check %v", f.Path, len(f.Candidate), jsMode(f.Path), got[i], err)
		}
		if err == nil {
			parsed++
		}
	}
	t.Logf("%d sources from %d files: %d parse, %d do not; the compile agrees on every one", len(files), want, parsed, len(files)-parsed)
}
