package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// eslintVersion is the ESLint the suppression test runs.
const eslintVersion = "eslint@9.39.5"

// eslintErrors runs the real ESLint on src (as f.js) with the rules that
// read comments named in rules, and returns the messages it reports.
func eslintErrors(t *testing.T, prefix string, src []byte, rules string) []string {
	t.Helper()
	bin := filepath.Join(prefix, "node_modules", "eslint", "bin", "eslint.js")
	cmd := exec.CommandContext(t.Context(), "node", bin, "--no-config-lookup", "--rule", rules,
		"--format", "json", "--stdin", "--stdin-filename", "f.js")
	cmd.Dir = t.TempDir()
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	// ESLint exits 1 when it reports an error.
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("eslint: %v\n%s", err, out)
	}
	var res []struct {
		Messages []struct {
			RuleID  string `json:"ruleId"`
			Message string `json:"message"`
			Line    int    `json:"line"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("eslint output: %v\n%s", err, out)
	}
	var msgs []string
	for _, r := range res {
		for _, m := range r.Messages {
			msgs = append(msgs, m.RuleID+": "+m.Message)
		}
	}
	return msgs
}

// TestCleanKeepsESLintVerdict runs the real ESLint before and after a
// clean of a file whose comments would become ESLint's own fallthrough and
// default-case markers once their carriers were gone: the errors ESLint
// reports must not change (cleaning must not switch a rule off), and a
// comment ESLint does not read still loses its carrier.
func TestCleanKeepsESLintVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ESLint from npm")
	}
	prefix := testtool.NPM(t, eslintVersion)
	src := []byte("function g() {}\n" +
		"export function f(x) {\n" +
		"  switch (x) {\n" +
		"    case 1:\n" +
		"      g();\n" +
		"      // falls\u200b through\n" +
		"    case 2:\n" +
		"      g();\n" +
		"      // fall\u2060through\n" +
		"    case 3:\n" +
		"      g();\n" +
		"      break;\n" +
		"  }\n" +
		"  switch (x) {\n" +
		"    case 1:\n" +
		"      break;\n" +
		"    // no\u00a0default\n" +
		"  }\n" +
		"  switch (x) {\n" +
		"    case 2:\n" +
		"      break;\n" +
		"    // No\u200b default\n" +
		"  }\n" +
		"  return x; // a plain\u200b comment\n" +
		"}\n")
	const rules = `{"no-fallthrough": "error", "default-case": "error"}`
	before := eslintErrors(t, prefix, src, rules)
	if len(before) != 5 {
		t.Fatalf("ESLint reports %d errors on the input, want 5 (two fallthroughs, three switches without a default): %q", len(before), before)
	}
	f := cleaned(t, testEngine(t), "f.js", src)
	if bytes.Equal(f.Cur, src) {
		t.Fatalf("nothing was cleaned (status %s %s): the plain comment's carrier should go", f.Status, f.Reason)
	}
	if bytes.Contains(f.Cur, []byte("plain\u200b")) {
		t.Fatalf("the plain comment kept its carrier:\n%s", f.Cur)
	}
	after := eslintErrors(t, prefix, f.Cur, rules)
	if len(after) != len(before) {
		t.Fatalf("cleaning changed ESLint's verdict: %d errors before, %d after\nbefore %q\nafter  %q\n%s", len(before), len(after), before, after, f.Cur)
	}
}
