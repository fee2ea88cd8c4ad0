package discover

import (
	"os"
	"path/filepath"
	"strings"
)

// claudeConfigDir honours CLAUDE_CONFIG_DIR (the first absolute entry of a comma-separated
// list, as the original did), else ~/.claude.
func (r *run) claudeConfigDir() string {
	for _, p := range strings.Split(r.opts.Getenv("CLAUDE_CONFIG_DIR"), ",") {
		if p = strings.TrimSpace(p); filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
	}
	return filepath.Join(r.opts.Home, ".claude")
}

// Slug is Claude Code's per-project directory name: the absolute project path with every
// character that is not an ASCII letter or digit replaced by '-'.
func Slug(projectRoot string) string {
	b := []byte(projectRoot)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// claude discovers Claude Code's memory: user CLAUDE.md and rules, the CLAUDE.md chain above
// the project (inherited), the project's CLAUDE.md, .claude/CLAUDE.md, rules and
// CLAUDE.local.md, every @path import of those to the depth cap, and the auto memory
// directory (MEMORY.md always loaded, its siblings recall-only). Entries come in load order.
func (r *run) claude() {
	cfg := r.claudeConfigDir()
	cfgReal := realRoot(cfg)
	proj := []string{r.project, cfgReal}
	// User scope.
	if e, ok := r.file(filepath.Join(cfg, "CLAUDE.md"), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true,
		Why: "user memory: loaded in every project"}, []string{cfgReal}); ok {
		r.imports(e, []string{cfgReal, r.project}, false)
	}
	r.claudeRules(filepath.Join(cfg, "rules"), ScopeUser, []string{cfgReal})
	// Ancestors, farthest first (the order Claude Code concatenates them).
	anc := r.ancestors()
	for i := len(anc) - 1; i >= 0; i-- {
		d := anc[i]
		dReal := realRoot(d)
		for _, name := range []string{"CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "CLAUDE.local.md"} {
			if d == r.opts.Home && strings.HasPrefix(name, ".claude") {
				continue // that is the user memory itself, found above
			}
			if e, ok := r.file(filepath.Join(d, name), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeAbove, AlwaysLoaded: true, Inherited: true,
				Why: "above the project root: loaded, measured, never counted or touched"}, []string{dReal}); ok {
				r.imports(e, []string{dReal, cfgReal}, true)
			}
		}
	}
	for _, c := range []struct{ name, scope, why string }{
		{"CLAUDE.md", ScopeProject, "project memory"},
		{filepath.Join(".claude", "CLAUDE.md"), ScopeProject, "project memory (.claude/)"},
	} {
		if e, ok := r.file(filepath.Join(r.opts.ProjectRoot, c.name), Entry{Platform: ClaudeCode, Kind: Governance, Scope: c.scope, AlwaysLoaded: true, Why: c.why}, proj); ok {
			r.imports(e, proj, false)
		}
	}
	r.claudeRules(filepath.Join(r.opts.ProjectRoot, ".claude", "rules"), ScopeProject, proj)
	if e, ok := r.file(filepath.Join(r.opts.ProjectRoot, "CLAUDE.local.md"), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeLocal, AlwaysLoaded: true,
		Why: "personal project memory"}, proj); ok {
		r.imports(e, proj, false)
	}
	// A session started below the project root loads every directory's memory from the root
	// down to where it started (Claude Code walks from its working directory up to /).
	for _, d := range r.belowRoot() {
		for _, c := range []struct{ name, scope string }{
			{"CLAUDE.md", ScopeProject},
			{filepath.Join(".claude", "CLAUDE.md"), ScopeProject},
		} {
			if e, ok := r.file(filepath.Join(d, c.name), Entry{Platform: ClaudeCode, Kind: Governance, Scope: c.scope, AlwaysLoaded: true,
				Why: "memory of the session's starting directory chain"}, proj); ok {
				r.imports(e, proj, false)
			}
		}
		r.claudeRules(filepath.Join(d, ".claude", "rules"), ScopeProject, proj)
		if e, ok := r.file(filepath.Join(d, "CLAUDE.local.md"), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeLocal, AlwaysLoaded: true,
			Why: "personal memory of the session's starting directory chain"}, proj); ok {
			r.imports(e, proj, false)
		}
	}
	// Auto memory.
	memDir := filepath.Join(cfg, "projects", Slug(r.opts.ProjectRoot), "memory")
	if _, err := os.Stat(memDir); err != nil && r.project != r.opts.ProjectRoot {
		memDir = filepath.Join(cfg, "projects", Slug(r.project), "memory")
	}
	r.file(filepath.Join(memDir, "MEMORY.md"), Entry{Platform: ClaudeCode, Kind: MemoryIndex, Scope: ScopeLocal, AlwaysLoaded: true,
		Why: "auto memory index: first 200 lines or 25 KiB loaded every session"}, []string{cfgReal})
	for _, p := range r.walkRules(memDir, ClaudeCode, []string{".md"}, false) {
		if filepath.Base(p) == "MEMORY.md" {
			continue
		}
		r.file(p, Entry{Platform: ClaudeCode, Kind: Memory, Scope: ScopeLocal, Why: "auto memory note: recalled on demand"}, []string{cfgReal})
	}
}

// claudeRules adds .claude/rules/**/*.md: always loaded unless a `paths` front matter key
// scopes the rule to matching files.
func (r *run) claudeRules(dir, scope string, roots []string) {
	for _, p := range r.walkRules(dir, ClaudeCode, []string{".md"}, true) {
		_, scoped := frontValue(readHead(p), "paths")
		e := Entry{Platform: ClaudeCode, Kind: Rules, Scope: scope, AlwaysLoaded: !scoped, Why: "rules file: loaded every session"}
		if scoped {
			e.Why = "rules file scoped by paths: loaded when matching files are read"
		}
		if e, ok := r.file(p, e, roots); ok && e.AlwaysLoaded {
			r.imports(e, roots, false)
		}
	}
}

// codex discovers the AGENTS.md chain: the Codex home's AGENTS.override.md or AGENTS.md, then
// one file per directory from the git root down to the project root (AGENTS.override.md wins
// over AGENTS.md). Directories above the project root are inherited.
func (r *run) codex() {
	home := r.opts.Getenv("CODEX_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(r.opts.Home, ".codex")
	}
	homeReal := realRoot(home)
	for _, name := range []string{"AGENTS.override.md", "AGENTS.md"} {
		if _, ok := r.file(filepath.Join(home, name), Entry{Platform: Codex, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true,
			Why: "Codex global instructions"}, []string{homeReal}); ok {
			break
		}
	}
	for _, d := range r.chainDirs() {
		inherited := r.above(d)
		roots := []string{r.project}
		e := Entry{Platform: Codex, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true, Why: "AGENTS.md chain (Codex and other agents; 32 KiB combined cap)"}
		if inherited {
			roots = []string{realRoot(d)}
			e.Scope, e.Inherited = ScopeAbove, true
			e.Why = "AGENTS.md above the project root, below the git root: loaded, never counted or touched"
		}
		for _, name := range []string{"AGENTS.override.md", "AGENTS.md"} {
			if _, ok := r.file(filepath.Join(d, name), e, roots); ok {
				break
			}
		}
	}
}

// above reports a directory strictly above the project root.
func (r *run) above(d string) bool {
	return d != r.opts.ProjectRoot && within(r.opts.ProjectRoot, d)
}

// chainDirs returns the directories from the git root (or the project root when there is no
// git root above it) down to the session's start directory.
func (r *run) chainDirs() []string {
	top := r.gitRoot()
	if top == "" {
		top = r.opts.ProjectRoot
	}
	var dirs []string
	for d := r.start; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == top || d == filepath.Dir(d) {
			break
		}
	}
	for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	return dirs
}

// gemini discovers ~/.gemini/GEMINI.md and the GEMINI.md files from the git root down to the
// project root, with their @path imports (Gemini's memory import processor).
func (r *run) gemini() {
	cfg := filepath.Join(r.opts.Home, ".gemini")
	cfgReal := realRoot(cfg)
	if e, ok := r.file(filepath.Join(cfg, "GEMINI.md"), Entry{Platform: Gemini, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true,
		Why: "Gemini global context"}, []string{cfgReal}); ok {
		r.imports(e, []string{cfgReal, r.project}, false)
	}
	for _, d := range r.chainDirs() {
		if r.above(d) {
			dReal := realRoot(d)
			if e, ok := r.file(filepath.Join(d, "GEMINI.md"), Entry{Platform: Gemini, Kind: Governance, Scope: ScopeAbove, AlwaysLoaded: true, Inherited: true,
				Why: "GEMINI.md above the project root: loaded, never counted or touched"}, []string{dReal}); ok {
				r.imports(e, []string{dReal, cfgReal}, true)
			}
			continue
		}
		if e, ok := r.file(filepath.Join(d, "GEMINI.md"), Entry{Platform: Gemini, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true,
			Why: "project context"}, []string{r.project}); ok {
			r.imports(e, []string{r.project, cfgReal}, false)
		}
	}
}

// copilot discovers .github/copilot-instructions.md (always) and
// .github/instructions/**/*.instructions.md (always only when applyTo covers every file).
func (r *run) copilot() {
	roots := []string{r.project}
	r.file(filepath.Join(r.opts.ProjectRoot, ".github", "copilot-instructions.md"), Entry{Platform: Copilot, Kind: Governance, Scope: ScopeProject,
		AlwaysLoaded: true, Why: "repository custom instructions"}, roots)
	for _, p := range r.walkRules(filepath.Join(r.opts.ProjectRoot, ".github", "instructions"), Copilot, []string{".instructions.md"}, true) {
		v, _ := frontValue(readHead(p), "applyTo")
		always := v == "**" || v == "**/*"
		why := "path-specific instructions: loaded for matching files"
		if always {
			why = "instructions applying to every file"
		}
		r.file(p, Entry{Platform: Copilot, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: always, Why: why}, roots)
	}
}

// cursor discovers .cursor/rules/**/*.mdc|md (always only with alwaysApply: true) and the
// legacy .cursorrules.
func (r *run) cursor() {
	roots := []string{r.project}
	for _, p := range r.walkRules(filepath.Join(r.opts.ProjectRoot, ".cursor", "rules"), Cursor, []string{".mdc", ".md"}, true) {
		v, _ := frontValue(readHead(p), "alwaysApply")
		always := strings.EqualFold(v, "true")
		why := "project rule: attached by glob or on request"
		if always {
			why = "project rule with alwaysApply"
		}
		r.file(p, Entry{Platform: Cursor, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: always, Why: why}, roots)
	}
	r.file(filepath.Join(r.opts.ProjectRoot, ".cursorrules"), Entry{Platform: Cursor, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: true,
		Why: "legacy .cursorrules"}, roots)
	r.file(filepath.Join(r.opts.ProjectRoot, "AGENTS.md"), Entry{Platform: Cursor, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true,
		Why: "AGENTS.md in the project root: applied to every request"}, roots)
}

// cline discovers .clinerules, a file or a directory whose Markdown and text files all load.
func (r *run) cline() {
	roots := []string{r.project}
	p := filepath.Join(r.opts.ProjectRoot, ".clinerules")
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		if real, err := filepath.EvalSymlinks(p); err != nil || !within(real, r.project) {
			r.problem(p, Cline, "resolves outside the allowed roots; skipped")
			return
		}
		for _, f := range r.walkRules(p, Cline, []string{".md", ".txt"}, true) {
			r.file(f, Entry{Platform: Cline, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: true, Why: "rule in .clinerules/"}, roots)
		}
		return
	}
	r.file(p, Entry{Platform: Cline, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: true, Why: ".clinerules file"}, roots)
}

// windsurf discovers .windsurfrules and .windsurf/rules/*.md (always only with
// trigger: always_on).
func (r *run) windsurf() {
	roots := []string{r.project}
	r.file(filepath.Join(r.opts.ProjectRoot, ".windsurfrules"), Entry{Platform: Windsurf, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: true,
		Why: "legacy .windsurfrules"}, roots)
	for _, p := range r.walkRules(filepath.Join(r.opts.ProjectRoot, ".windsurf", "rules"), Windsurf, []string{".md"}, true) {
		v, _ := frontValue(readHead(p), "trigger")
		always := v == "always_on"
		why := "workspace rule: model decision, glob or manual"
		if always {
			why = "workspace rule with trigger always_on"
		}
		r.file(p, Entry{Platform: Windsurf, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: always, Why: why}, roots)
	}
}
