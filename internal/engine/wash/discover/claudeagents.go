package discover

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// What Claude Code's built-in agents-md plugin (2.1.277 and later) does with AGENTS.md, by its
// "Project instructions" option (pluginConfigs["agents-md@builtin"].options.instructionFiles in
// the user's settings.json; a project's .claude/settings.json is not read for plugin options).
const (
	// agentsNever: CLAUDE.md only ("claude-md"; "managed-only" drops project files too, which
	// is not modelled here).
	agentsNever = iota
	// agentsFallback, the default: a project with no CLAUDE.md, .claude/CLAUDE.md or
	// CLAUDE.local.md of its own on the walk from the filesystem root down to the working
	// directory (the user's ~/.claude/CLAUDE.md, rules and imported files do not count) loads
	// every AGENTS.md and .claude/AGENTS.md on that walk instead, with their imports.
	agentsFallback
	// agentsBeside: every AGENTS.md on the walk loads beside CLAUDE.md, except one CLAUDE.md
	// already imports or whose content a loaded file already is.
	agentsBeside
)

// claudeAgentsMode reads the plugin's option from the user's settings; unset, unreadable or
// unknown is the default, agentsFallback. The option's older names ("claude",
// "agents-fallback", "both", "none" under "projectInstructions") are read too.
func claudeAgentsMode(cfg string) int {
	b, err := fsx.ReadRegular(filepath.Join(cfg, "settings.json"), 1<<20, true)
	if err != nil {
		return agentsFallback
	}
	var s struct {
		PluginConfigs map[string]struct {
			Options map[string]json.RawMessage `json:"options"`
		} `json:"pluginConfigs"`
	}
	if json.Unmarshal(stripJSONComments(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})), &s) != nil {
		return agentsFallback
	}
	opts := s.PluginConfigs["agents-md@builtin"].Options
	for _, key := range []string{"instructionFiles", "projectInstructions"} {
		var v string
		if json.Unmarshal(opts[key], &v) != nil {
			continue
		}
		switch v {
		case "claude-md", "claude", "managed-only", "none":
			return agentsNever
		case "claude-md-and-agents-md", "both":
			return agentsBeside
		case "claude-md-or-agents-md", "agents-fallback":
			return agentsFallback
		}
	}
	return agentsFallback
}

// claudeAgents adds the AGENTS.md files Claude Code loads as project instructions (see
// agentsFallback): those above the project root inherited (measured, never counted), the
// project root's and those down to the start directory as project memory.
func (r *run) claudeAgents(cfg, cfgReal string, anc []string) {
	mode := claudeAgentsMode(cfg)
	if mode == agentsNever || mode == agentsFallback && r.claudeHasOwn() {
		return
	}
	names := []string{"AGENTS.md", filepath.Join(".claude", "AGENTS.md")}
	why := "AGENTS.md as Claude Code's project instructions: no CLAUDE.md of the project's own (Project instructions: claude-md-or-agents-md, the default since 2.1.277)"
	if mode == agentsBeside {
		why = "AGENTS.md beside CLAUDE.md (Project instructions: claude-md-and-agents-md)"
	}
	for i := len(anc) - 1; i >= 0; i-- {
		dReal := r.realRoot(anc[i])
		for _, n := range names {
			r.claudeAgentsFile(filepath.Join(anc[i], n), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeAbove, AlwaysLoaded: true, Inherited: true,
				Why: why + "; above the project root: loaded, measured, never counted or touched"}, []string{dReal, cfgReal}, true)
		}
	}
	for _, d := range append([]string{r.opts.ProjectRoot}, r.belowRoot()...) {
		for _, n := range names {
			r.claudeAgentsFile(filepath.Join(d, n), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true, Why: why},
				[]string{r.project, cfgReal}, false)
		}
	}
}

// claudeHasOwn reports a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md found on Claude Code's
// walk (not the user's, not one reached by an import).
func (r *run) claudeHasOwn() bool {
	for _, e := range r.res.Entries {
		if e.Platform != ClaudeCode || e.Kind != Governance || e.Scope == ScopeUser || e.ImportedBy != "" {
			continue
		}
		if b := filepath.Base(e.Path); b == "CLAUDE.md" || b == "CLAUDE.local.md" {
			return true
		}
	}
	return false
}

// claudeAgentsFile adds one AGENTS.md with its imports, unless Claude Code already holds it:
// the same file (add refuses a second entry) or the same content as a file it loads.
func (r *run) claudeAgentsFile(path string, e Entry, roots []string, inherited bool) {
	if real, err := r.resolve(path); err == nil {
		if c, err := r.content(real); err == nil && r.claudeHolds(c) {
			return
		}
	}
	if got, ok := r.file(path, e, roots); ok {
		r.imports(got, roots, inherited)
	}
}

// claudeHolds reports content Claude Code already loads from another file.
func (r *run) claudeHolds(c []byte) bool {
	for _, e := range r.res.Entries {
		if e.Platform != ClaudeCode || !e.AlwaysLoaded {
			continue
		}
		if o, err := r.content(e.Real); err == nil && bytes.Equal(o, c) {
			return true
		}
	}
	return false
}
