package e2e

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/hooks/agent"
	"github.com/prosewash/prosewash/internal/testkit/ccharness"
)

// claudeRecorded is where the dispatcher's tests keep the payloads the
// real Claude Code sent; claudeRecordedVersion is the CLI that sent them.
const (
	claudeRecorded        = "../testdata/claude-code-2.1.197"
	claudeRecordedVersion = "2.1.197"
)

// TestClaudeRecordedPayloadsAreCurrent runs the real Claude Code with a
// hook that logs every event prosewash hooks (the session recorded in
// ../testdata: a Write, an Edit and a subagent, Stop blocked once) and
// checks that each payload the CLI sends now decodes, through the
// dispatcher's Claude Code decoder, exactly as the recorded one does. A
// CLI that renames or retypes a field the decoder reads fails here, not
// in a user's session; the recorded files are how to refresh them
// (CAPTURE_DIR=DIR writes this run's payloads there).
func TestClaudeRecordedPayloadsAreCurrent(t *testing.T) {
	cc := ccharness.RequireClaude(t)
	if v, err := ccharness.ClaudeVersion(cc); err != nil || v != claudeRecordedVersion {
		t.Logf("claude %s (recorded with %s): comparing what the decoder reads only", v, claudeRecordedVersion)
	}
	proj := ccharness.NewProject(t)
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("# Project\n\nUse Go.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lh := ccharness.NewLogHook(t, proj, ccharness.LogHookOptions{BlockStopReason: "prosewash found carriers; ask the user"})
	p, _ := agent.Lookup("claude")
	var hooks []ccharness.Hook
	for _, ev := range p.Events {
		for _, h := range ev.Hooks {
			hooks = append(hooks, ccharness.Hook{Event: ev.Name, Matcher: h.Matcher, Command: lh.Command(ev.Name)})
		}
	}
	res := ccharness.Run(t, ccharness.Options{
		Bin: cc, ProjectDir: proj, Settings: ccharness.SettingsJSON(hooks...),
		Args: []string{"--allowedTools", "Write,Edit,Agent"},
		Scenario: ccharness.Scenario{Steps: []ccharness.ToolCall{
			ccharness.Write("notes.md", "# Notes\n\nThe agent wrote this\u200b paragraph.\n"),
			ccharness.Edit("notes.md", "paragraph", "paragraph\u200b again"),
			ccharness.Agent("Agent", "general-purpose", "look for the build script"),
		}},
	})
	if res.ExitCode != 0 || res.Outcome == nil || res.Outcome.Subtype != "success" {
		t.Fatalf("session failed: %s", res.Summary())
	}
	run := filepath.Dir(proj)
	if dir := os.Getenv("CAPTURE_DIR"); dir != "" {
		capture(t, lh.Dir, dir, run)
	}
	getenv := func(string) string { return "" }
	for _, ev := range p.Events {
		want := lines(t, filepath.Join(claudeRecorded, ev.Name+".jsonl"), "$RUN", run)
		var got [][]byte
		for _, in := range lh.Events(t, ev.Name) {
			got = append(got, in.Raw)
		}
		if len(got) != len(want) {
			t.Errorf("%s: the CLI sent %d payloads, %d are recorded", ev.Name, len(got), len(want))
			continue
		}
		for i := range got {
			g, gerr := p.Decode(got[i], ev.Kind, getenv)
			w, werr := p.Decode(want[i], ev.Kind, getenv)
			if gerr != nil || werr != nil {
				t.Errorf("%s #%d: decode: live %v, recorded %v", ev.Name, i+1, gerr, werr)
				continue
			}
			if !reflect.DeepEqual(comparable(g), comparable(w)) {
				t.Errorf("%s #%d decodes to\n  %+v now, recorded\n  %+v", ev.Name, i+1, comparable(g), comparable(w))
			}
		}
	}
}

// comparable drops what differs between any two sessions: the session and
// subagent ids and the transcript's place.
func comparable(p *agent.Payload) agent.Payload {
	c := *p
	c.Session, c.Transcript = "", ""
	if c.Spawn != nil {
		s := *c.Spawn
		s.AgentID = ""
		c.Spawn = &s
	}
	return c
}

// lines reads a recorded .jsonl with old replaced by new.
func lines(t *testing.T, path, old, new string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, []byte(strings.ReplaceAll(l, old, new)))
		}
	}
	return out
}

// capture writes a run's payloads to dir as the recorded files are kept:
// the run directory as $RUN.
func capture(t *testing.T, logDir, dir, run string) {
	t.Helper()
	ents, err := os.ReadDir(logDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(logDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), bytes.ReplaceAll(b, []byte(run), []byte("$RUN")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
