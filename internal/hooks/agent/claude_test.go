package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

const testVersion = "0.0.0-test"

// fixture is a project with private state and config homes.
type fixture struct {
	t     testing.TB
	root  string
	base  string // PROSEWASH_STATE_DIR
	home  string
	env   map[string]string
	state string // the project's state dir
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, base: t.TempDir(), home: t.TempDir()}
	// The config file marks the project root; no repository is needed.
	f.write(".prosewash.toml", "")
	f.env = map[string]string{"PROSEWASH_STATE_DIR": f.base, "HOME": f.home}
	f.state, err = state.Dir(root, f.getenv)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) getenv(k string) string { return f.env[k] }

func (f *fixture) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

func (f *fixture) write(rel, content string) string {
	f.t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// runner is the session environment of a hook process in this fixture.
func (f *fixture) runner(self string) session.Env {
	return session.Env{
		Getenv: f.getenv, Home: f.home, Self: self, Version: testVersion,
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions(),
	}
}

func (f *fixture) run(env session.Env, event string, payload any) *hookOutput {
	f.t.Helper()
	return hookJSON(f.t, env, "claude", event, payload)
}

func (f *fixture) entries(session string) []scope.Entry {
	f.t.Helper()
	rec, err := scope.Open(f.state, session)
	if err != nil {
		f.t.Fatal(err)
	}
	es, err := rec.Entries()
	if err != nil {
		f.t.Fatal(err)
	}
	return es
}

func (f *fixture) sessionsDirExists() bool {
	_, err := os.Stat(filepath.Join(f.state, "sessions"))
	return err == nil
}

func claudeWrite(f *fixture, path string) map[string]any {
	return map[string]any{
		"session_id": "s1", "cwd": f.root, "hook_event_name": "PostToolUse",
		"tool_name": "Write", "tool_input": map[string]any{"file_path": path, "content": "x"},
	}
}

// TestClaudeBadInput: every malformed payload gets exit 0 (Run cannot fail), a
// clear one-line systemMessage, no block, and no write to the record.
func TestClaudeBadInput(t *testing.T) {
	f := newFixture(t)
	f.write("a.md", "a\n")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.md"), []byte("x\n"), 0o644)
	tests := []struct {
		name, event string
		payload     any
		want        string
	}{
		{"empty stdin", "post-tool-use", "", "empty hook input"},
		{"blank stdin", "stop", "  \n", "empty hook input"},
		{"invalid JSON", "post-tool-use", "{not json", "invalid hook input"},
		{"JSON array", "session-start", "[1,2]", "invalid hook input"},
		{"no session_id", "post-tool-use", map[string]any{"cwd": f.root, "tool_name": "Write", "tool_input": map[string]any{"file_path": f.path("a.md")}}, "no session_id"},
		{"no tool_name", "post-tool-use", map[string]any{"session_id": "s1", "cwd": f.root, "tool_input": map[string]any{"file_path": f.path("a.md")}}, "no tool_name"},
		{"no tool_input", "post-tool-use", map[string]any{"session_id": "s1", "cwd": f.root, "tool_name": "Write"}, "no usable tool_input"},
		{"no file_path", "post-tool-use", map[string]any{"session_id": "s1", "cwd": f.root, "tool_name": "Edit", "tool_input": map[string]any{"old_string": "a"}}, "names no file"},
		{"relative path", "post-tool-use", claudeWrite(f, "a.md"), `"a.md" is not absolute`},
		{"dot-dot escape", "post-tool-use", claudeWrite(f, f.root+"/../"+filepath.Base(outside)+"/x.md"), "escapes the project"},
		{"no cwd", "post-tool-use", map[string]any{"session_id": "s1", "tool_name": "Write", "tool_input": map[string]any{"file_path": f.path("a.md")}}, "no cwd"},
		{"relative cwd", "session-start", map[string]any{"session_id": "s1", "cwd": "proj"}, "not an absolute path"},
		{"unknown event", "post-commit", map[string]any{"session_id": "s1", "cwd": f.root}, "unknown event"},
		{"missing file", "post-tool-use", claudeWrite(f, f.path("gone.md")), "no such file"},
		{"directory", "post-tool-use", claudeWrite(f, f.root), "escapes"},
	}
	// A directory as the written path is the root itself: Contain refuses
	// it as outside (it is not inside the root); without ".." that is
	// silent, so use a subdirectory for the "not a regular file" case.
	os.Mkdir(f.path("sub"), 0o755)
	tests[len(tests)-1] = struct {
		name, event string
		payload     any
		want        string
	}{"directory", "post-tool-use", claudeWrite(f, f.path("sub")), "not a regular file"}
	r := f.runner("prosewash")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := f.run(r, tt.event, tt.payload)
			if out == nil {
				t.Fatalf("no output, want a systemMessage containing %q", tt.want)
			}
			if !strings.Contains(out.SystemMessage, tt.want) || !strings.HasPrefix(out.SystemMessage, "prosewash: ") {
				t.Errorf("systemMessage = %q, want it to contain %q", out.SystemMessage, tt.want)
			}
			if strings.Contains(out.SystemMessage, "\n") {
				t.Errorf("systemMessage has several lines: %q", out.SystemMessage)
			}
			if out.Decision != "" {
				t.Errorf("bad input must never block or stop: %+v", out)
			}
			if f.sessionsDirExists() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
}

func TestClaudePostToolUseRecords(t *testing.T) {
	f := newFixture(t)
	p := f.write("docs/a.md", "hello\u200bworld\n")
	r := f.runner("prosewash")
	for _, tool := range []string{"Write", "Edit", "MultiEdit"} {
		pl := claudeWrite(f, p)
		pl["tool_name"] = tool
		if out := f.run(r, "post-tool-use", pl); out != nil {
			t.Fatalf("%s: output %+v, want none", tool, out)
		}
	}
	nb := f.write("n.ipynb", "{}\n")
	if out := f.run(r, "post-tool-use", map[string]any{"session_id": "s1", "cwd": f.root, "tool_name": "NotebookEdit", "tool_input": map[string]any{"notebook_path": nb}}); out != nil {
		t.Fatalf("NotebookEdit: output %+v", out)
	}
	// Not a write tool: nothing recorded, nothing said.
	if out := f.run(r, "post-tool-use", map[string]any{"session_id": "s1", "cwd": f.root, "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}); out != nil {
		t.Fatalf("Bash: output %+v", out)
	}
	es := f.entries("s1")
	if len(es) != 2 || es[0].Path != p || es[1].Path != nb {
		t.Fatalf("entries = %+v, want %s and %s", es, p, nb)
	}
	h, _ := scope.HashFile(p)
	if es[0].Hash != h || es[0].Op != scope.OpRecord {
		t.Errorf("entry = %+v, want hash %s", es[0], h)
	}
}

// A plain write outside the project (a plan file, /tmp) is not ours:
// nothing recorded and nothing said.
func TestClaudePostToolUseOutsideIsSilent(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(t.TempDir(), "plan.md")
	os.WriteFile(other, []byte("x\n"), 0o644)
	if out := f.run(f.runner("prosewash"), "post-tool-use", claudeWrite(f, other)); out != nil {
		t.Fatalf("output %+v, want none", out)
	}
	if f.sessionsDirExists() {
		t.Error("a path outside the project was recorded")
	}
}

// The agent cd'd out of the project: the written file still belongs to
// CLAUDE_PROJECT_DIR's project.
func TestClaudePostToolUseCwdOutsideProject(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.md", "a\n")
	f.env["CLAUDE_PROJECT_DIR"] = f.root
	pl := claudeWrite(f, p)
	pl["cwd"] = t.TempDir()
	if out := f.run(f.runner("prosewash"), "post-tool-use", pl); out != nil {
		t.Fatalf("output %+v", out)
	}
	if es := f.entries("s1"); len(es) != 1 {
		t.Fatalf("entries = %+v, want the file", es)
	}
	// No cwd at all: CLAUDE_PROJECT_DIR alone.
	delete(pl, "cwd")
	pl["session_id"] = "s2"
	if out := f.run(f.runner("prosewash"), "post-tool-use", pl); out != nil {
		t.Fatalf("output %+v", out)
	}
	if es := f.entries("s2"); len(es) != 1 {
		t.Fatalf("entries = %+v, want the file", es)
	}
}

// TestClaudeConcurrentPostToolUse runs many hook processes at once, as Claude
// Code does when several hooks match or two installs coexist: no entry is
// lost or torn.
func TestClaudeConcurrentPostToolUse(t *testing.T) {
	bin := hooktest.Bin(t)
	f := newFixture(t)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := 0; i < n; i++ {
		p := f.write(fmt.Sprintf("f%02d.md", i), fmt.Sprintf("file %d\n", i))
		b, _ := json.Marshal(claudeWrite(f, p))
		// Every file twice: the duplicate install.
		for k := 0; k < 2; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, "hook", "claude", "post-tool-use")
				cmd.Env = []string{"PROSEWASH_STATE_DIR=" + f.base, "HOME=" + f.home, "PATH=" + os.Getenv("PATH")}
				cmd.Stdin = bytes.NewReader(b)
				out, err := cmd.Output()
				if err != nil || len(out) != 0 {
					errs <- fmt.Errorf("hook: err=%v stdout=%q", err, out)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	es := f.entries("s1")
	if len(es) != n {
		t.Fatalf("%d entries, want %d", len(es), n)
	}
	// Every line of the log is whole JSON.
	rec, _ := scope.Open(f.state, "s1")
	data, err := os.ReadFile(rec.File())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) != 2*n {
		t.Errorf("%d log lines, want %d", len(lines), 2*n)
	}
	for i, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("line %d is torn: %q", i+1, l)
		}
	}
}

func TestClaudeSessionStart(t *testing.T) {
	f := newFixture(t)
	envFile := filepath.Join(t.TempDir(), "env.sh")
	f.env["CLAUDE_ENV_FILE"] = envFile
	r := f.runner("prosewash")
	if out := f.run(r, "session-start", map[string]any{"session_id": "abc-1", "cwd": f.root, "source": "startup"}); out != nil {
		t.Fatalf("output %+v, want none", out)
	}
	latest, ok, err := scope.Latest(f.state)
	if err != nil || !ok || latest != "abc-1" {
		t.Errorf("latest session = %q %v %v, want abc-1", latest, ok, err)
	}
	b, _ := os.ReadFile(envFile)
	if string(b) != "export PROSEWASH_SESSION=abc-1\n" {
		t.Errorf("CLAUDE_ENV_FILE = %q", b)
	}
	// A hostile id never reaches the shell file.
	f.run(r, "session-start", map[string]any{"session_id": "x; rm -rf /", "cwd": f.root})
	if b2, _ := os.ReadFile(envFile); !bytes.Equal(b, b2) {
		t.Errorf("unsafe session id written to CLAUDE_ENV_FILE: %q", b2)
	}
}

// approve stores an approval for the project's current fingerprint, as
// "prosewash approve" does after the user said yes.
func claudeApprove(t *testing.T, f *fixture, self, m string) {
	t.Helper()
	p, err := project.Find(project.Options{Root: f.root, Getenv: f.getenv, Home: f.home, ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := approval.ProjectSubject(p, self, testVersion, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := approval.Grant(f.state, approval.Caller{}, s); err != nil {
		t.Fatal(err)
	}
}

func claudeStop(f *fixture, active bool) map[string]any {
	return map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "Stop", "stop_hook_active": active}
}

const claudeDirty = "# Notes\n\nhello\u200bworld, see `co\u200bde`.\n"
const claudeCleaned = "# Notes\n\nhelloworld, see `co\u200bde`.\n"

func TestClaudeStopManualDoesNothing(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.md", claudeDirty)
	r := f.runner(hooktest.Bin(t))
	f.run(r, "post-tool-use", claudeWrite(f, p))
	for _, cfg := range []string{"", "[clean]\nmode = \"manual\"\n"} {
		f.write(".prosewash.toml", cfg)
		if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
			t.Errorf("config %q: output %+v, want none", cfg, out)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != claudeDirty {
		t.Errorf("manual mode changed the file: %q", b)
	}
}

func TestClaudeStopAutomatic(t *testing.T) {
	bin := hooktest.Bin(t)
	f := newFixture(t)
	f.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\n")
	a := f.write("a.md", claudeDirty)
	b := f.write("b.md", "plain\n")
	c := f.write("c.md", "was\u200bwritten\n")
	r := f.runner(bin)
	for _, p := range []string{a, b, c} {
		f.run(r, "post-tool-use", claudeWrite(f, p))
	}
	// Someone else edits c.md after the agent: skipped.
	f.write("c.md", "human\u200bedit\n")

	// Configured but never approved: said once, nothing claudeCleaned.
	out := f.run(r, "stop", claudeStop(f, false))
	if out == nil || !strings.Contains(out.SystemMessage, "never approved") {
		t.Fatalf("unapproved: output %+v, want the never-approved note", out)
	}
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("unapproved, second stop: %+v, want silence", out)
	}

	claudeApprove(t, f, bin, approval.Automatic)
	if out := f.run(r, "stop", claudeStop(f, true)); out != nil {
		t.Fatalf("stop_hook_active: output %+v, want none", out)
	}
	out = f.run(r, "stop", claudeStop(f, false))
	want := "prosewash: cleaned 1 file, 1 carrier removed; 1 unchanged; 1 skipped; 1 carrier left to review (see 'prosewash clean --session s1')"
	if out == nil || out.SystemMessage != want || out.Decision != "" {
		t.Fatalf("automatic: output %+v, want systemMessage %q and no block", out, want)
	}
	if got, _ := os.ReadFile(a); string(got) != claudeCleaned {
		t.Errorf("a.md = %q, want %q", got, claudeCleaned)
	}
	if got, _ := os.ReadFile(c); string(got) != "human\u200bedit\n" {
		t.Errorf("c.md (edited by someone else) = %q, must be left alone", got)
	}
	// Re-baselined: the tool's own edit is not someone else's.
	for _, e := range f.entries("s1") {
		if e.Path == a {
			h, _ := scope.HashFile(a)
			if e.Hash != h || e.Op != scope.OpRebaseline {
				t.Errorf("a.md entry %+v, want re-baselined to %s", e, h)
			}
		}
	}
	// Nothing new: silent.
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("second stop: output %+v, want none", out)
	}
}

func TestClaudeStopLapsedApprovalReportedOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := newFixture(t)
	f.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\n")
	a := f.write("a.md", claudeDirty)
	r := f.runner(bin)
	f.run(r, "post-tool-use", claudeWrite(f, a))
	claudeApprove(t, f, bin, approval.Automatic)
	// A custom pipeline replaces the approved one: the fingerprint changes.
	f.write(".prosewash/pipelines/mine.toml", `schema = "prosewash-pipeline/1"
id = "custom/mine"
version = "1"
description = "inspect only"

[[stages]]
name = "find carriers"
role = "inspect"
capability = "unicode"
regions = "any"
`)
	f.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\npipeline = \"custom/mine\"\n")
	out := f.run(r, "stop", claudeStop(f, false))
	if out == nil || !strings.Contains(out.SystemMessage, "changed since the approval") || out.Decision != "" {
		t.Fatalf("lapsed: output %+v, want one note", out)
	}
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("lapsed, second stop: %+v, want silence (behaves as manual)", out)
	}
	if got, _ := os.ReadFile(a); string(got) != claudeDirty {
		t.Errorf("a lapsed approval claudeCleaned the file: %q", got)
	}
	rec, err := approval.Load(f.state)
	if err != nil || rec == nil || rec.LapseReported == "" {
		t.Errorf("approval record %+v (%v), want LapseReported set", rec, err)
	}
}

func TestClaudeStopConfirm(t *testing.T) {
	bin := hooktest.Bin(t)
	f := newFixture(t)
	f.write(".prosewash.toml", "[clean]\nmode = \"confirm\"\n")
	a := f.write("a.md", claudeDirty)
	r := f.runner(bin)
	f.run(r, "post-tool-use", claudeWrite(f, a))
	claudeApprove(t, f, bin, approval.Confirm)
	out := f.run(r, "stop", claudeStop(f, false))
	if out == nil || out.Decision != "block" || !strings.Contains(out.Reason, "prosewash clean --session s1") || !strings.Contains(out.Reason, "a.md") {
		t.Fatalf("confirm: output %+v, want a block asking about prosewash clean --session s1", out)
	}
	if got, _ := os.ReadFile(a); string(got) != claudeDirty {
		t.Errorf("confirm mode changed the file: %q", got)
	}
	if out := f.run(r, "stop", claudeStop(f, true)); out != nil {
		t.Fatalf("stop_hook_active: %+v, want none", out)
	}
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("confirm asks once per state of the files: %+v", out)
	}
	// A new write with new carriers is a new question.
	f.write("a.md", claudeDirty+"more\u200b\n")
	f.run(r, "post-tool-use", claudeWrite(f, a))
	if out := f.run(r, "stop", claudeStop(f, false)); out == nil || out.Decision != "block" {
		t.Fatalf("after a new write: %+v, want a block", out)
	}
}

// An invalid configuration means manual, said once.
func TestClaudeStopInvalidConfig(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.md", claudeDirty)
	r := f.runner("prosewash")
	f.run(r, "post-tool-use", claudeWrite(f, p))
	f.write(".prosewash.toml", "[clean]\nmode = \"always\"\n")
	out := f.run(r, "stop", claudeStop(f, false))
	if out == nil || !strings.Contains(out.SystemMessage, "manual until it is fixed") || out.Decision != "" {
		t.Fatalf("output %+v", out)
	}
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("second stop: %+v, want silence", out)
	}
	if b, _ := os.ReadFile(p); string(b) != claudeDirty {
		t.Errorf("file changed: %q", b)
	}
}
