package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/ccharness"
	"github.com/prosewash/prosewash/internal/testtool"
)

// The memory lane end to end with the real Claude Code CLI: the hooks record what the session
// loaded and the subagents it spawned, the gauge prefers the recorded load, and the plugin's
// /prosewash:wash command drives the full pass through wash full and wash apply.

const washClaude = `# Project rules

@docs/style.md

- The API listens on port 5432.
- Run ` + "`make test`" + ` before you push.
- The API listens on port 5433.
`

// memoryProject lays out a project whose Claude Code load has every kind the CLI reports:
// CLAUDE.md with an import, .claude/CLAUDE.md, a rules file and CLAUDE.local.md.
func (x *e2e) memoryProject() {
	x.t.Helper()
	for rel, content := range map[string]string{
		"CLAUDE.md":           washClaude,
		"docs/style.md":       "- Write short sentences; name the file and the line.\n",
		".claude/CLAUDE.md":   "- Never commit generated files.\n",
		".claude/rules/go.md": "- Go code is formatted with gofmt before review.\n",
		"CLAUDE.local.md":     "- My checkout builds with go 1.26.\n",
	} {
		p := filepath.Join(x.proj, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			x.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			x.t.Fatal(err)
		}
	}
}

type gaugeOut struct {
	Files []struct {
		Real         string   `json:"real"`
		Platform     string   `json:"platform"`
		Platforms    []string `json:"platforms"`
		AlwaysLoaded bool     `json:"always_loaded"`
		Inherited    bool     `json:"inherited"`
	} `json:"files"`
	Source *struct {
		Source    string   `json:"source"`
		Session   string   `json:"session"`
		NotLoaded []string `json:"not_loaded"`
		Extra     []string `json:"extra"`
	} `json:"source"`
}

// claudeLoad is the set of files the gauge says Claude Code loads every session.
func (g gaugeOut) claudeLoad() []string {
	var out []string
	for _, f := range g.Files {
		if f.AlwaysLoaded && !f.Inherited && slices.Contains(f.Platforms, "claude-code") {
			out = append(out, f.Real)
		}
	}
	slices.Sort(out)
	return out
}

func (x *e2e) gauge() gaugeOut {
	x.t.Helper()
	var g gaugeOut
	out := x.mustProsewash("wash", "gauge", "--json")
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		x.t.Fatalf("wash gauge --json: %v\n%s", err, out)
	}
	return g
}

// sessionEnv makes later prosewash runs see the session's home and Claude config dir.
func (x *e2e) sessionEnv(res *ccharness.Result) {
	x.env = append(x.env, "HOME="+res.Home, "CLAUDE_CONFIG_DIR="+res.ConfigDir)
}

func TestE2EInstructionsLoadedAndSpawnMeter(t *testing.T) {
	x := newE2E(t)
	x.memoryProject()
	x.mustProsewash("install", "--claude", "--mode", "manual")
	res := ccharness.Run(t, ccharness.Options{
		Bin: x.cc, ProjectDir: x.proj, Env: x.env, ExtraPath: []string{filepath.Dir(x.bin)},
		Args: []string{"--allowedTools", "Write,Edit,Agent"},
		Scenario: ccharness.Scenario{Steps: []ccharness.ToolCall{
			ccharness.Agent("Agent", "general-purpose", "look for the build script"),
			ccharness.Agent("Agent", "general-purpose", "look for the test script"),
			ccharness.Write("notes.md", "done\n"),
		}},
	})
	if res.ExitCode != 0 || res.Outcome == nil || res.Outcome.Subtype != "success" {
		t.Fatalf("session failed: %s", res.Summary())
	}
	if n := len(res.RequestsOf(ccharness.KindSubagent)); n != 2 {
		t.Fatalf("%d subagent loops, want 2: %s", n, res.Summary())
	}
	x.sessionEnv(res)
	g := x.gauge()
	if g.Source == nil || g.Source.Source != "instructions-loaded" || g.Source.Session != res.Outcome.SessionID {
		t.Fatalf("gauge source %+v, want the session's InstructionsLoaded reports", g.Source)
	}
	// The derived chain agrees with what the CLI really loaded.
	if len(g.Source.NotLoaded) != 0 || len(g.Source.Extra) != 0 {
		t.Errorf("derived and loaded differ: not loaded %v, extra %v", g.Source.NotLoaded, g.Source.Extra)
	}
	want := []string{".claude/CLAUDE.md", ".claude/rules/go.md", "CLAUDE.local.md", "CLAUDE.md", "docs/style.md"}
	var got []string
	for _, p := range g.claudeLoad() {
		rel, _ := filepath.Rel(x.proj, p)
		got = append(got, filepath.ToSlash(rel))
	}
	if !slices.Equal(got, want) {
		t.Errorf("claude-code load %v, want %v", got, want)
	}
	// The spawn meter: two spawns, counted by SubagentStart (PostToolUse saw them too and
	// was not counted again), each priced at the loaded set.
	var st struct {
		Spawns []struct {
			Session string `json:"session"`
			Spawns  int    `json:"spawns"`
			Tokens  int    `json:"tokens"`
			Via     string `json:"via"`
		} `json:"spawns"`
	}
	out := x.mustProsewash("wash", "stats", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("wash stats --json: %v\n%s", err, out)
	}
	if len(st.Spawns) != 1 || st.Spawns[0].Session != res.Outcome.SessionID || st.Spawns[0].Spawns != 2 || st.Spawns[0].Via != "SubagentStart" || st.Spawns[0].Tokens <= 0 {
		t.Fatalf("spawns %+v", st.Spawns)
	}
	_, errs, _ := x.prosewash("", "wash", "stats")
	if !strings.Contains(errs, "rode 2 spawn(s)") {
		t.Errorf("wash stats does not show the spawns:\n%s", errs)
	}
	_, errs, _ = x.prosewash("", "wash", "gauge")
	if !strings.Contains(errs, "InstructionsLoaded") {
		t.Errorf("wash gauge does not say which load list it used:\n%s", errs)
	}
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// runWashCommand runs /prosewash:wash with the repository loaded as a plugin: the mock model
// runs wash full, writes the plan it is given, then dry-runs and applies it.
func (x *e2e) runWashCommand(plan []byte) *ccharness.Result {
	x.t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		testtool.Missing(x.t, "go", fmt.Sprintf("go env GOMOD: %v", err))
	}
	pluginDir := filepath.Dir(strings.TrimSpace(string(out)))
	bash := func(cmd string) ccharness.ToolCall {
		return ccharness.ToolCall{Name: "Bash", Input: map[string]any{"command": cmd, "description": "prosewash"}}
	}
	res := ccharness.Run(x.t, ccharness.Options{
		Bin: x.cc, ProjectDir: x.proj, Env: x.env,
		ExtraPath: []string{filepath.Dir(x.bin)},
		Prompt:    "/prosewash:wash",
		Args:      []string{"--plugin-dir", pluginDir, "--allowedTools", "Write,Edit,Read,Bash(prosewash wash full:*),Bash(prosewash wash apply:*)"},
		Scenario: ccharness.Scenario{Steps: []ccharness.ToolCall{
			bash("prosewash wash full"),
			ccharness.Write("prosewash-plan.json", string(plan)),
			bash("prosewash wash apply prosewash-plan.json --dry-run"),
			bash("prosewash wash apply prosewash-plan.json"),
		}},
	})
	if res.ExitCode != 0 || res.Outcome == nil || res.Outcome.Subtype != "success" {
		x.t.Fatalf("session failed: %s", res.Summary())
	}
	return res
}

func TestE2EPluginWashCommand(t *testing.T) {
	x := newE2E(t)
	x.memoryProject()
	claudePath := filepath.Join(x.proj, "CLAUDE.md")
	orig, _ := os.ReadFile(claudePath)
	shrunk := strings.Replace(string(orig), "- The API listens on port 5432.\n", "", 1)
	// An approval names the token where it goes: the file and the line.
	line := 1 + strings.Count(string(orig)[:strings.Index(string(orig), "port 5432")], "\n")
	plan, _ := json.Marshal(map[string]any{
		"version": 1, "judge": "agent:claude-code", "approvedDrops": []string{fmt.Sprintf("number:5432@CLAUDE.md:%d", line)},
		"actions": []any{map[string]any{"type": "shrink", "path": "CLAUDE.md", "expect": sha(orig), "content": shrunk,
			"reason": "superseded: the API moved to port 5433"}},
		"keeps": []any{map[string]any{"target": "CLAUDE.md:6", "reason": "the CI reads the test target"}},
	})
	res := x.runWashCommand(plan)
	// The command's rules reached the model, and so did the brief with the file's hash.
	first := res.RequestsOf(ccharness.KindToolUse)
	if len(first) == 0 || !first[0].Mentions("Adjudicate every flag") || !first[0].Mentions("approvedDrops") {
		t.Fatalf("the /prosewash:wash prompt did not reach the model: %s", res.Summary())
	}
	if len(first) < 2 || !first[1].Mentions("prosewash brief") || !first[1].Mentions(sha(orig)[:16]) || !first[1].Mentions("superseded") {
		t.Fatalf("the brief did not reach the model")
	}
	got, _ := os.ReadFile(claudePath)
	if string(got) != shrunk {
		t.Fatalf("CLAUDE.md after the pass:\n%s", got)
	}
	x.env = append(x.env, "HOME="+res.Home, "CLAUDE_CONFIG_DIR="+res.ConfigDir)
	out := x.mustProsewash("wash", "bins", "--json")
	if !strings.Contains(out, "plan by agent:claude-code") {
		t.Errorf("the original is not banked:\n%s", out)
	}
	stateBase := strings.TrimPrefix(x.env[0], "PROSEWASH_STATE_DIR=")
	keeps, _ := filepath.Glob(filepath.Join(stateBase, "*", "wash", "keeps.json"))
	if len(keeps) != 1 {
		t.Fatalf("keeps.json: %v", keeps)
	}
	if b, _ := os.ReadFile(keeps[0]); !strings.Contains(string(b), "the CI reads the test target") {
		t.Errorf("the keep was not recorded: %s", b)
	}
}

// A plan that would lose a token is refused with the exact token, in the same turn, and
// nothing is written.
func TestE2EPluginWashCommandRefusal(t *testing.T) {
	x := newE2E(t)
	x.memoryProject()
	claudePath := filepath.Join(x.proj, "CLAUDE.md")
	orig, _ := os.ReadFile(claudePath)
	shrunk := strings.Replace(string(orig), "- The API listens on port 5432.\n", "", 1)
	plan, _ := json.Marshal(map[string]any{
		"version": 1, "judge": "agent:claude-code",
		"actions": []any{map[string]any{"type": "shrink", "path": "CLAUDE.md", "expect": sha(orig), "content": shrunk, "reason": "superseded"}},
	})
	res := x.runWashCommand(plan)
	reqs := res.RequestsOf(ccharness.KindToolUse)
	final := res.RequestsOf(ccharness.KindFinal)
	if len(reqs) < 4 || len(final) != 1 {
		t.Fatalf("requests: %s", res.Summary())
	}
	// The dry run's refusal, then the apply's, name number:5432 in the tool results.
	if !reqs[3].Mentions("number:5432") || !final[0].Mentions("number:5432") || !final[0].Mentions("nothing was written") {
		t.Errorf("the refusal with the dropped token did not reach the model")
	}
	if got, _ := os.ReadFile(claudePath); string(got) != string(orig) {
		t.Errorf("a refused plan wrote CLAUDE.md:\n%s", got)
	}
}
