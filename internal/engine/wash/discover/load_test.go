package discover

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func lines(n int, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, format+"\n", i)
	}
	return b.String()
}

// Claude Code loads the first 200 lines of MEMORY.md (and at most 25,000 characters, cut at a
// line end); the rest is written but never loaded.
func TestClaudeMemoryIndexHead(t *testing.T) {
	f := newFixture(t)
	mem := MemoryDir(Options{Home: f.home, ProjectRoot: f.proj})
	idx := f.write(filepath.Join(mem, "MEMORY.md"), lines(260, "- [note %d](n.md): one line"))
	res := f.discover(nil, ClaudeCode)
	e, ok := find(res, ClaudeCode, idx)
	if !ok {
		t.Fatal("MEMORY.md not found")
	}
	head := lines(200, "- [note %d](n.md): one line")
	if e.Loaded != int64(len(head)-1) || e.Size <= e.Loaded || e.LoadNote == "" {
		t.Fatalf("loaded %d of %d (%q), want the first 200 lines (%d bytes without the last newline)", e.Loaded, e.Size, e.LoadNote, len(head)-1)
	}
	if !neverLoaded(res, ClaudeCode, idx, 201, "first 200 lines") {
		t.Fatalf("lines 201-260 not reported: %+v", res.NeverLoaded)
	}
	// Long lines: the 25,000-character cap cuts first, at a line end.
	long := strings.Repeat("x", 990)
	text := lines(40, "- %d "+long)
	f.write(idx, text)
	res = f.discover(nil, ClaudeCode)
	e, _ = find(res, ClaudeCode, idx)
	if e.Loaded >= e.Size || e.Loaded > 25000 || e.Loaded < 24000 || text[e.Loaded] != '\n' {
		t.Fatalf("long index: loaded %d of %d, want a cut at the last line end before 25,000 characters", e.Loaded, e.Size)
	}
	// A short index loads whole and is no finding.
	f.write(idx, "- [a](a.md): a\n")
	res = f.discover(nil, ClaudeCode)
	if e, _ := find(res, ClaudeCode, idx); e.Loaded != e.Size || len(res.NeverLoaded) != 0 {
		t.Fatalf("short index: %+v %+v", e, res.NeverLoaded)
	}
}

// Codex concatenates the chain root first and stops at project_doc_max_bytes (32 KiB by
// default, or config.toml's value); the file that crosses the budget loads its head.
func TestCodexByteBudget(t *testing.T) {
	f := newFixture(t)
	work := f.write(filepath.Join(f.work, "AGENTS.md"), strings.Repeat("w", 30000)+"\n")
	proj := f.write(filepath.Join(f.proj, "AGENTS.md"), lines(400, "rule %d of the project"))
	res := f.discover(nil, Codex)
	we, _ := find(res, Codex, work)
	pe, ok := find(res, Codex, proj)
	if !ok || we.Loaded != we.Size || pe.Loaded != int64(32768-30001) || pe.Loaded >= pe.Size {
		t.Fatalf("budget: work %d/%d, proj %d/%d (%s)", we.Loaded, we.Size, pe.Loaded, pe.Size, pe.LoadNote)
	}
	found := false
	for _, u := range res.NeverLoaded {
		found = found || u.Path == proj && u.Platform == Codex && strings.Contains(u.Reason, "project_doc_max_bytes") && u.Line > 1
	}
	if !found {
		t.Fatalf("the tail past the budget is not reported: %+v", res.NeverLoaded)
	}
	// config.toml sets the budget; a file past it loads nothing.
	codexHome := filepath.Join(f.home, ".codex")
	f.write(filepath.Join(codexHome, "config.toml"), "project_doc_max_bytes = 1000\n")
	res = f.discover(nil, Codex)
	we, _ = find(res, Codex, work)
	pe, _ = find(res, Codex, proj)
	if we.Loaded != 1000 || pe.Loaded != 0 || pe.AlwaysLoaded {
		t.Fatalf("budget 1000: work %d, proj %d (always %v)", we.Loaded, pe.Loaded, pe.AlwaysLoaded)
	}
	if !neverLoaded(res, Codex, proj, 1, "project_doc_max_bytes") {
		t.Fatalf("a file past the budget is not reported whole: %+v", res.NeverLoaded)
	}
}

// project_doc_fallback_filenames extends the names Codex tries; AGENTS.override.md shadows
// AGENTS.md even when it is empty; in the Codex home an empty override is skipped.
func TestCodexNamesAndShadows(t *testing.T) {
	f := newFixture(t)
	codexHome := filepath.Join(f.home, ".codex")
	f.write(filepath.Join(codexHome, "config.toml"), "project_doc_fallback_filenames = [\"CLAUDE.md\"]\n")
	f.write(filepath.Join(codexHome, "AGENTS.override.md"), "  \n")
	global := f.write(filepath.Join(codexHome, "AGENTS.md"), "global\n")
	claude := f.write(filepath.Join(f.work, "CLAUDE.md"), "only a fallback here\n")
	override := f.write(filepath.Join(f.proj, "AGENTS.override.md"), "\n")
	shadowed := f.write(filepath.Join(f.proj, "AGENTS.md"), "never read\n")
	res := f.discover(nil, Codex)
	if _, ok := find(res, Codex, global); !ok {
		t.Errorf("an empty global override must not hide AGENTS.md: %+v", res.Entries)
	}
	if e, ok := find(res, Codex, claude); !ok || !e.Inherited {
		t.Errorf("fallback name not used: %+v", res.Entries)
	}
	if e, ok := find(res, Codex, override); !ok || e.AlwaysLoaded {
		t.Errorf("empty override: %+v", e)
	}
	if _, ok := find(res, Codex, shadowed); ok || !neverLoaded(res, Codex, shadowed, 1, "AGENTS.override.md in the same directory wins") {
		t.Errorf("shadowed AGENTS.md: %+v", res.NeverLoaded)
	}
}

// Gemini CLI loads the names context.fileName gives (a string or a list) instead of
// GEMINI.md; the workspace's settings win over the user's.
func TestGeminiContextFileName(t *testing.T) {
	f := newFixture(t)
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "shared\n")
	gem := f.write(filepath.Join(f.proj, "GEMINI.md"), "gemini only\n")
	user := f.write(filepath.Join(f.home, ".gemini", "settings.json"), `{"context": {"fileName": "AGENTS.md"}}`)
	res := f.discover(nil, Gemini)
	if _, ok := find(res, Gemini, agents); !ok {
		t.Fatalf("user context.fileName ignored: %+v", res.Entries)
	}
	if _, ok := find(res, Gemini, gem); ok {
		t.Fatalf("GEMINI.md loaded although context.fileName names only AGENTS.md")
	}
	f.write(filepath.Join(f.proj, ".gemini", "settings.json"), "{\n  // both\n  \"context\": {\"fileName\": [\"AGENTS.md\", \"GEMINI.md\"]}\n}\n")
	res = f.discover(nil, Gemini)
	a, okA := find(res, Gemini, agents)
	_, okG := find(res, Gemini, gem)
	if !okA || !okG || !strings.Contains(a.Why, "context.fileName") {
		t.Fatalf("workspace list: %+v", res.Entries)
	}
	_ = user
}

// The Copilot CLI (and coding agent) load the root AGENTS.md, CLAUDE.md and GEMINI.md with
// their imports, the user's instructions, and instructions files without applyTo or with
// "**"; never .claude/CLAUDE.md; an applyTo that matches no file is never loaded.
func TestCopilotLoads(t *testing.T) {
	f := newFixture(t)
	copHome := filepath.Join(f.home, "cophome")
	user := f.write(filepath.Join(copHome, "copilot-instructions.md"), "mine\n")
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "agents @imp.md\n")
	imp := f.write(filepath.Join(f.proj, "imp.md"), "imported\n")
	claude := f.write(filepath.Join(f.proj, "CLAUDE.md"), "claude\n")
	gem := f.write(filepath.Join(f.proj, "GEMINI.md"), "gemini\n")
	dot := f.write(filepath.Join(f.proj, ".claude", "CLAUDE.md"), "not for copilot\n")
	noApply := f.write(filepath.Join(f.proj, ".github", "instructions", "plain.instructions.md"), "---\ndescription: x\n---\nalways\n")
	none := f.write(filepath.Join(f.proj, ".github", "instructions", "rs.instructions.md"), "---\napplyTo: \"**/*.rs\"\n---\nrust only\n")
	f.write(filepath.Join(f.proj, "main.go"), "package main\n")
	res := f.discover(map[string]string{"COPILOT_HOME": copHome}, Copilot)
	for _, p := range []string{user, agents, imp, claude, gem, noApply} {
		if e, ok := find(res, Copilot, p); !ok || !e.AlwaysLoaded {
			t.Errorf("copilot should always load %s: %+v", p, e)
		}
	}
	if _, ok := find(res, Copilot, dot); ok {
		t.Error("copilot does not read .claude/CLAUDE.md")
	}
	if e, ok := find(res, Copilot, none); !ok || e.AlwaysLoaded || !neverLoaded(res, Copilot, none, 1, "matches no file") {
		t.Errorf("applyTo matching nothing: %+v %+v", e, res.NeverLoaded)
	}
}

// A rule scoped by paths that match no file is never loaded; a missing import is a
// never-loaded line of the importing file.
func TestClaudeUnreachable(t *testing.T) {
	f := newFixture(t)
	rule := f.write(filepath.Join(f.proj, ".claude", "rules", "py.md"), "---\npaths:\n  - \"**/*.py\"\n---\npython rules\n")
	f.write(filepath.Join(f.proj, ".claude", "rules", "go.md"), "---\npaths: \"**/*.go\"\n---\ngo rules\n")
	f.write(filepath.Join(f.proj, "main.go"), "package main\n")
	claude := f.write(filepath.Join(f.proj, "CLAUDE.md"), "# x\n\nsee @docs/gone.md\n\nWe use @slack/bolt 4 and @types/node, tagged @v1.2.\n")
	res := f.discover(nil, ClaudeCode)
	if !neverLoaded(res, ClaudeCode, rule, 1, "match no file") {
		t.Errorf("rule matching no file: %+v", res.NeverLoaded)
	}
	for _, u := range res.NeverLoaded {
		if strings.HasSuffix(u.Path, "go.md") {
			t.Errorf("a rule whose paths match a file was reported: %+v", u)
		}
	}
	if !neverLoaded(res, ClaudeCode, claude, 3, "@docs/gone.md") {
		t.Errorf("missing import: %+v", res.NeverLoaded)
	}
	for _, u := range res.NeverLoaded {
		if u.Line == 5 {
			t.Errorf("a package name or version read as an import of a missing file: %+v", u)
		}
	}
}

// An overlay answers what the platforms load after a planned run: an import removed unloads
// its file, a deleted file is gone, a created one loads.
func TestOverlay(t *testing.T) {
	f := newFixture(t)
	claude := f.write(filepath.Join(f.proj, "CLAUDE.md"), "# x\n@AIWG.md\n")
	aiwg := f.write(filepath.Join(f.proj, "AIWG.md"), "framework\n")
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "agents\n")
	base, err := Discover(Options{Home: f.home, ProjectRoot: f.proj, Platforms: []string{ClaudeCode, Codex}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := find(base, ClaudeCode, aiwg); !ok {
		t.Fatal("import not followed")
	}
	gem := filepath.Join(f.proj, "GEMINI.md")
	after, err := Discover(Options{Home: f.home, ProjectRoot: f.proj, Platforms: []string{ClaudeCode, Codex, Gemini},
		Overlay: map[string][]byte{claude: []byte("# x\n"), agents: nil, gem: []byte("new\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := find(after, ClaudeCode, aiwg); ok {
		t.Error("the import removed by the plan still loads")
	}
	if _, ok := find(after, Codex, agents); ok {
		t.Error("the file deleted by the plan still loads")
	}
	if e, ok := find(after, Gemini, gem); !ok || e.Size != 4 {
		t.Errorf("the file created by the plan does not load: %+v", e)
	}
}

// A Cursor rule attached by globs that match no file, with no description the agent could
// request it by, never reaches the model; one with a description, or whose globs match a file,
// can.
func TestCursorRuleMatchingNothing(t *testing.T) {
	f := newFixture(t)
	rules := filepath.Join(f.proj, ".cursor", "rules")
	dead := f.write(filepath.Join(rules, "py.mdc"), "---\nglobs: \"**/*.py\"\nalwaysApply: false\n---\n# Python\n\n- Type every function.\n")
	asked := f.write(filepath.Join(rules, "rs.mdc"), "---\ndescription: Rust conventions\nglobs: \"**/*.rs\"\nalwaysApply: false\n---\nrust\n")
	live := f.write(filepath.Join(rules, "go.mdc"), "---\nglobs: \"**/*.go\"\nalwaysApply: false\n---\ngo\n")
	f.write(filepath.Join(f.proj, "main.go"), "package main\n")
	res := f.discover(nil, Cursor)
	if !neverLoaded(res, Cursor, dead, 1, "match no file") {
		t.Fatalf("a rule whose globs match nothing is not reported: %+v", res.NeverLoaded)
	}
	for _, u := range res.NeverLoaded {
		if u.Path == dead && u.Lines != 7 {
			t.Errorf("the finding does not cover the rule's 7 lines: %+v", u)
		}
		if u.Path == asked || u.Path == live {
			t.Errorf("a rule the agent can request or a glob attaches was reported: %+v", u)
		}
	}
}
