package validate

import (
	"context"
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
		{cjs, "// a\u200b\nreturn 1\n", "// a\nreturn 1\n", OK, "parses as JavaScript (node --check, commonjs)"},
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
