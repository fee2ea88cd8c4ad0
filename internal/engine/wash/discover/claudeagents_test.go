package discover

import (
	"os"
	"path/filepath"
	"testing"
)

// Claude Code 2.1.277's built-in agents-md plugin, by default (claude-md-or-agents-md): a
// project with no CLAUDE.md of its own loads its AGENTS.md (and .claude/AGENTS.md) with their
// imports; the user's ~/.claude/CLAUDE.md does not count as the project's own; a project
// CLAUDE.md anywhere on the walk leaves AGENTS.md out.
func TestClaudeLoadsAgentsWithoutClaudeMd(t *testing.T) {
	f := newFixture(t)
	f.write(filepath.Join(f.home, ".claude", "CLAUDE.md"), "my own rules\n")
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "# Repo\n\n@docs/style.md\n")
	style := f.write(filepath.Join(f.proj, "docs", "style.md"), "tabs\n")
	dot := f.write(filepath.Join(f.proj, ".claude", "AGENTS.md"), "dot agents\n")
	res := f.discover(nil, ClaudeCode)
	for _, p := range []string{agents, style, dot} {
		if e, ok := find(res, ClaudeCode, p); !ok || !e.AlwaysLoaded || e.Scope != ScopeProject && p != style {
			t.Errorf("claude-code should load %s without a CLAUDE.md: %+v", p, e)
		}
	}
	local := f.write(filepath.Join(f.proj, "CLAUDE.local.md"), "mine\n")
	res = f.discover(nil, ClaudeCode)
	if _, ok := find(res, ClaudeCode, agents); ok {
		t.Errorf("AGENTS.md loaded beside the project's own %s under the default", local)
	}
	if err := os.Remove(local); err != nil {
		t.Fatal(err)
	}
	f.write(filepath.Join(f.work, "CLAUDE.md"), "the parent's\n")
	if _, ok := find(f.discover(nil, ClaudeCode), ClaudeCode, agents); ok {
		t.Error("a CLAUDE.md above the project on the walk did not leave AGENTS.md out")
	}
}

// The option in the user's settings: claude-md never loads AGENTS.md; claude-md-and-agents-md
// loads it beside CLAUDE.md, but not a second time when CLAUDE.md imports it, nor a file whose
// content Claude Code already loads.
func TestClaudeAgentsOption(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(f.home, ".claude", "settings.json")
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "shared rules\n")
	f.write(settings, `{"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "claude-md"}}}}`)
	if _, ok := find(f.discover(nil, ClaudeCode), ClaudeCode, agents); ok {
		t.Error("claude-md loaded AGENTS.md")
	}
	f.write(settings, `{"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": "claude-md-and-agents-md"}}}}`)
	f.write(filepath.Join(f.proj, "CLAUDE.md"), "claude only\n")
	if e, ok := find(f.discover(nil, ClaudeCode), ClaudeCode, agents); !ok || e.ImportedBy != "" {
		t.Errorf("claude-md-and-agents-md did not load AGENTS.md beside CLAUDE.md: %+v", e)
	}
	f.write(filepath.Join(f.proj, "CLAUDE.md"), "@AGENTS.md\n")
	n := 0
	for _, e := range f.discover(nil, ClaudeCode).Entries {
		if e.Real == agents {
			n++
		}
	}
	if n != 1 {
		t.Errorf("AGENTS.md imported by CLAUDE.md counted %d times", n)
	}
	f.write(filepath.Join(f.proj, "CLAUDE.md"), "shared rules\n")
	if _, ok := find(f.discover(nil, ClaudeCode), ClaudeCode, agents); ok {
		t.Error("an AGENTS.md whose content CLAUDE.md already is was loaded a second time")
	}
}
