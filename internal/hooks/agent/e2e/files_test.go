package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// What the mocks' model writes in the sessions of the CLIs that take
// several write tools: carriers in prose, in inline code and a tag run
// (notes.md, written whole, then one more carrier in its heading by an
// edit), and one in a file a shell redirect writes. Automatic mode cleans
// the prose and keeps the inline code.
const (
	notesMD      = "# Notes\n\nhello\u200bworld, see `co\u200bde`.\n\nA tag run:\U000E0069\U000E0067 here.\n"
	notesEdited  = "# Notes\u200b edited\n\nhello\u200bworld, see `co\u200bde`.\n\nA tag run:\U000E0069\U000E0067 here.\n"
	notesCleaned = "# Notes edited\n\nhelloworld, see `co\u200bde`.\n\nA tag run: here.\n"
	shellMD      = "# shell\u200b note\n"
	shellCleaned = "# shell note\n"
	// shellCommand writes shellMD to shell.md through a redirect.
	shellCommand = `printf '# shell\xe2\x80\x8b note\n' > shell.md`
)

// logged returns the payloads a logging hook wrote for one event, in the
// order they came (none when the event never fired).
func logged(dir, event string) []map[string]any {
	names, _ := filepath.Glob(filepath.Join(dir, event+".*.json"))
	sort.Strings(names) // named by the nanosecond each came
	var out []map[string]any
	for _, n := range names {
		b, err := os.ReadFile(n)
		var m map[string]any
		if err == nil && json.Unmarshal(b, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// logCommand is a hook command that writes its payload to a file of its
// own in dir: hooks of one event may run in parallel, and two appending
// to one file could interleave.
func logCommand(dir, event string) string {
	return "cat > '" + filepath.Join(dir, event) + ".'$(date +%s%N).$$.json"
}

// capturePayloads writes each event's logged payloads to dir/EVENT.jsonl,
// one a line, with the paths in replace rewritten (longest first).
func capturePayloads(t *testing.T, logs, dir string, replace map[string]string, events ...string) {
	t.Helper()
	var olds []string
	for o := range replace {
		olds = append(olds, o)
	}
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		var b strings.Builder
		for _, p := range logged(logs, ev) {
			line, _ := json.Marshal(p)
			s := string(line)
			for _, o := range olds {
				s = strings.ReplaceAll(s, o, replace[o])
			}
			b.WriteString(s + "\n")
		}
		if b.Len() > 0 {
			if err := os.WriteFile(filepath.Join(dir, ev+".jsonl"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// recordedFiles is the session prosewash recorded last and its files,
// project-relative.
func recordedFiles(x *hooktest.E2E) (string, []string) {
	x.T.Helper()
	var r struct {
		Session string                 `json:"session"`
		Files   []struct{ Rel string } `json:"files"`
	}
	out := x.Prosewash("recorded", "--json")
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &r); err != nil {
		x.T.Fatalf("recorded --json: %v\n%s", err, out)
	}
	var rel []string
	for _, f := range r.Files {
		rel = append(rel, f.Rel)
	}
	return r.Session, rel
}

// checkLoopbackOnly fails t unless the traced session connected, and only
// to loopback addresses.
func checkLoopbackOnly(t *testing.T, s *agentharness.Session) {
	t.Helper()
	if len(s.Connects) == 0 {
		t.Errorf("the trace saw no connect at all; it cannot vouch for loopback")
	}
	if bad := s.NonLoopback(); len(bad) > 0 {
		t.Errorf("connections outside loopback: %v", bad)
	}
}
