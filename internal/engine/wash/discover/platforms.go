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
// directory (the head of MEMORY.md always loaded, its siblings recall-only). Entries come in
// load order.
func (r *run) claude() {
	cfg := r.claudeConfigDir()
	cfgReal := r.realRoot(cfg)
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
		dReal := r.realRoot(d)
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
	r.claudeDir(r.opts.ProjectRoot, proj, "project memory", "personal project memory")
	// A session started below the project root loads every directory's memory from the root
	// down to where it started (Claude Code walks from its working directory up to /).
	for _, d := range r.belowRoot() {
		r.claudeDir(d, proj, "memory of the session's starting directory chain", "personal memory of the session's starting directory chain")
	}
	r.claudeAgents(cfg, cfgReal, anc)
	r.claudeAutoMemory(cfg, cfgReal)
}

// claudeDir adds one project directory's Claude Code memory: CLAUDE.md, .claude/CLAUDE.md,
// .claude/rules and CLAUDE.local.md, with their imports.
func (r *run) claudeDir(d string, roots []string, why, localWhy string) {
	for _, c := range []struct{ name, why string }{
		{"CLAUDE.md", why},
		{filepath.Join(".claude", "CLAUDE.md"), why + " (.claude/)"},
	} {
		if e, ok := r.file(filepath.Join(d, c.name), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true, Why: c.why}, roots); ok {
			r.imports(e, roots, false)
		}
	}
	r.claudeRules(filepath.Join(d, ".claude", "rules"), ScopeProject, roots)
	if e, ok := r.file(filepath.Join(d, "CLAUDE.local.md"), Entry{Platform: ClaudeCode, Kind: Governance, Scope: ScopeLocal, AlwaysLoaded: true,
		Why: localWhy}, roots); ok {
		r.imports(e, roots, false)
	}
}

// claudeAutoMemory adds the auto memory directory: MEMORY.md, of which Claude Code loads the
// head every session (the rest never), and the notes beside it, recalled on demand.
func (r *run) claudeAutoMemory(cfg, cfgReal string) {
	memDir := filepath.Join(cfg, "projects", Slug(r.opts.ProjectRoot), "memory")
	if _, err := os.Stat(memDir); err != nil && r.project != r.opts.ProjectRoot {
		memDir = filepath.Join(cfg, "projects", Slug(r.project), "memory")
	}
	if e, ok := r.file(filepath.Join(memDir, "MEMORY.md"), Entry{Platform: ClaudeCode, Kind: MemoryIndex, Scope: ScopeLocal, AlwaysLoaded: true,
		Why: "auto memory index: its first 200 lines (at most 25,000 characters) load every session"}, []string{cfgReal}); ok {
		if c, err := r.content(e.Real); err == nil {
			if n, why := claudeIndexHead(c); n < len(c) {
				r.truncate(e, c, int64(n), why)
			}
		}
	}
	for _, p := range r.walkRules(memDir, ClaudeCode, []string{".md"}, false) {
		if filepath.Base(p) == "MEMORY.md" {
			continue
		}
		r.file(p, Entry{Platform: ClaudeCode, Kind: Memory, Scope: ScopeLocal, Why: "auto memory note: recalled on demand"}, []string{cfgReal})
	}
}

// truncate records that only the first n bytes of an added entry reach the model, and the rest
// as never loaded (unless it is only whitespace).
func (r *run) truncate(e Entry, c []byte, n int64, why string) {
	for i := len(r.res.Entries) - 1; i >= 0; i-- {
		x := &r.res.Entries[i]
		if x.Platform == e.Platform && x.Real == e.Real {
			x.Loaded, x.LoadNote = n, why
			break
		}
	}
	if !blank(c[n:]) {
		from := int(n)
		if c[from] == '\n' {
			from++ // the line that ends here loaded
		}
		r.unloaded(e.Path, e.Platform, c, from, len(c), why)
	}
}

// claudeRules adds .claude/rules/**/*.md: always loaded unless a `paths` front matter key
// scopes the rule to matching files; a rule whose paths match no file is never loaded.
func (r *run) claudeRules(dir, scope string, roots []string) {
	for _, p := range r.walkRules(dir, ClaudeCode, []string{".md"}, true) {
		globs, scoped := frontList(r.headOf(p), "paths")
		e := Entry{Platform: ClaudeCode, Kind: Rules, Scope: scope, AlwaysLoaded: !scoped, Why: "rules file: loaded every session"}
		if scoped {
			e.Why = "rules file scoped by paths: loaded when matching files are read"
		}
		got, ok := r.file(p, e, roots)
		if !ok {
			continue
		}
		if got.AlwaysLoaded {
			r.imports(got, roots, false)
		} else if scope == ScopeProject && r.matchesNothing(globs) {
			r.unloadedFile(p, got.Real, ClaudeCode, "paths ("+strings.Join(globs, ", ")+") match no file of the project: never loaded")
		}
	}
}

// headOf is the front matter head of a candidate path (empty when it cannot be read).
func (r *run) headOf(p string) []byte {
	real, _, exists, err := r.lookup(p)
	if err != nil || !exists {
		return nil
	}
	return r.head(real)
}

// gemini discovers Gemini CLI's context files: every name context.fileName gives (GEMINI.md
// by default) in ~/.gemini and in each directory from the git root down to the session's
// start directory, with Gemini's own @path imports.
func (r *run) gemini() {
	r.geminiFamily(geminiGemini)
}

// qwen discovers what Qwen Code loads (a Gemini CLI fork; its memory discovery as of 0.24.4,
// checked against the files the real CLI reports through InstructionsLoaded): context.fileName
// (default QWEN.md and AGENTS.md) in $QWEN_HOME (default ~/.qwen), then in every directory from
// the one above the git root down to the start directory, with @path imports; and the
// project's own .qwen/QWEN.local.md at the git root. Its .qwen/rules are not read here.
func (r *run) qwen() {
	r.geminiFamily(geminiQwen)
}

// geminiKind describes one CLI of the Gemini CLI family.
type geminiKind struct {
	platform string
	home     string // the per-user directory under $HOME, or envHome when set
	envHome  string
	names    []string // context.fileName's default
	// sysEnv names the system settings file, else sysPath.
	sysEnv, sysPath string
	// aboveRoot: the upward walk ends one directory above the git root (Qwen Code), not at it.
	aboveRoot bool
	local     string // a per-user file at the git root, under the settings directory
	why       string // the product's name, for explanations
}

var (
	geminiGemini = geminiKind{platform: Gemini, home: ".gemini", names: []string{"GEMINI.md"},
		sysEnv: "GEMINI_CLI_SYSTEM_SETTINGS_PATH", sysPath: "/etc/gemini-cli/settings.json", why: "Gemini"}
	geminiQwen = geminiKind{platform: Qwen, home: ".qwen", envHome: "QWEN_HOME", names: []string{"QWEN.md", "AGENTS.md"},
		sysEnv: "QWEN_CODE_SYSTEM_SETTINGS_PATH", sysPath: "/etc/qwen-code/settings.json", aboveRoot: true, local: "QWEN.local.md", why: "Qwen"}
)

// configDir is the family member's per-user directory.
func (k geminiKind) configDir(home string, getenv func(string) string) string {
	if k.envHome != "" {
		if d := getenv(k.envHome); filepath.IsAbs(d) {
			return filepath.Clean(d)
		}
	}
	return filepath.Join(home, k.home)
}

func (r *run) geminiFamily(k geminiKind) {
	cfg := k.configDir(r.opts.Home, r.opts.Getenv)
	cfgReal := r.realRoot(cfg)
	names, from := r.geminiFileNames(k, cfg)
	why := func(s string) string {
		if from != "" {
			return s + " (context.fileName in " + from + ")"
		}
		return s
	}
	for _, n := range names {
		if e, ok := r.file(filepath.Join(cfg, n), Entry{Platform: k.platform, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true,
			Why: why(k.why + " global context")}, []string{cfgReal}); ok {
			r.importsWith(e, []string{cfgReal}, false, importRules{gemini: true, depth: r.opts.MaxImportDepth, within: cfgReal})
		}
	}
	top := markerRoot(r.start, []string{".git"})
	dirs := []string{r.start}
	if top != "" {
		walkTop := top
		if k.aboveRoot {
			walkTop = filepath.Dir(top)
		}
		dirs = chainFrom(walkTop, r.start)
	}
	rules := importRules{gemini: true, depth: r.opts.MaxImportDepth, within: r.realRoot(top)}
	if top == "" {
		rules.within = r.realRoot(r.start)
	}
	for _, d := range dirs {
		if cfgReal != "" && r.realRoot(d) == cfgReal {
			continue // the upward walk stops at the per-user directory
		}
		for _, n := range names {
			r.geminiDirFile(k, filepath.Join(d, n), d, rules, why)
		}
	}
	if k.local != "" && top != "" && !r.above(top) {
		if e, ok := r.file(filepath.Join(top, k.home, k.local), Entry{Platform: k.platform, Kind: Governance, Scope: ScopeLocal, AlwaysLoaded: true,
			Why: "personal project context, after the shared one"}, []string{r.project}); ok {
			r.importsWith(e, []string{r.project}, false, rules)
		}
	}
}

// geminiDirFile adds one context file of the upward walk: inherited above the project root,
// the project's own below it.
func (r *run) geminiDirFile(k geminiKind, p, d string, rules importRules, why func(string) string) {
	if r.above(d) {
		dReal := r.realRoot(d)
		if e, ok := r.file(p, Entry{Platform: k.platform, Kind: Governance, Scope: ScopeAbove, AlwaysLoaded: true, Inherited: true,
			Why: why("context above the project root: loaded, never counted or touched")}, []string{dReal}); ok {
			r.importsWith(e, []string{dReal}, true, rules)
		}
		return
	}
	if e, ok := r.file(p, Entry{Platform: k.platform, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true,
		Why: why("project context")}, []string{r.project}); ok {
		r.importsWith(e, []string{r.project}, false, rules)
	}
}

// copilot discovers what the GitHub Copilot CLI and coding agent load (verified against the
// real CLI, 1.0.102): the user's copilot-instructions.md and instructions; in the repository
// root, .github/copilot-instructions.md, AGENTS.md, CLAUDE.md and GEMINI.md (the last three
// with their @path imports inside the repository, each file once); the same three (and
// .github/copilot-instructions.md) in every directory down to the session's start directory;
// and .github/instructions/**/*.instructions.md, whose whole text loads when applyTo is
// absent, "**" or "**/*" (the others are listed by name and read when a matching file is
// worked on). .claude/CLAUDE.md is not read.
func (r *run) copilot() {
	home := r.opts.Getenv("COPILOT_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(r.opts.Home, ".copilot")
	}
	homeReal := r.realRoot(home)
	r.file(filepath.Join(home, "copilot-instructions.md"), Entry{Platform: Copilot, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true,
		Why: "Copilot user instructions"}, []string{homeReal})
	r.copilotInstructions(filepath.Join(home, "instructions"), ScopeUser, []string{homeReal}, false)
	top := markerRoot(r.start, []string{".git"})
	if top == "" {
		top = r.start
	}
	repo := r.realRoot(top)
	rules := importRules{depth: max(r.opts.MaxImportDepth, 10), within: repo}
	for i, d := range chainFrom(top, r.start) {
		scope, roots, inherited := ScopeProject, []string{r.project}, false
		if r.above(d) {
			scope, roots, inherited = ScopeAbove, []string{r.realRoot(d)}, true
		}
		why := "repository instructions"
		if i > 0 {
			why = "instructions of the session's directory chain"
		}
		if i == 0 || d == r.start {
			r.file(filepath.Join(d, ".github", "copilot-instructions.md"), Entry{Platform: Copilot, Kind: Governance, Scope: scope, AlwaysLoaded: true,
				Inherited: inherited, Why: why + " (.github/copilot-instructions.md)"}, roots)
		}
		for _, n := range []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"} {
			if e, ok := r.file(filepath.Join(d, n), Entry{Platform: Copilot, Kind: Governance, Scope: scope, AlwaysLoaded: true, Inherited: inherited,
				Why: why + " (" + n + ")"}, roots); ok {
				r.importsWith(e, roots, inherited, rules)
			}
		}
		if i == 0 || d == r.start {
			r.copilotInstructions(filepath.Join(d, ".github", "instructions"), scope, roots, inherited)
		}
	}
}

// copilotInstructions adds *.instructions.md files: always loaded without applyTo or with
// applyTo "**" or "**/*"; otherwise loaded for matching files, and never when applyTo matches
// no file of the project.
func (r *run) copilotInstructions(dir, scope string, roots []string, inherited bool) {
	for _, p := range r.walkRules(dir, Copilot, []string{".instructions.md"}, true) {
		v, has := frontValue(r.headOf(p), "applyTo")
		globs := splitGlobs(v)
		always := !has || len(globs) == 1 && (globs[0] == "**" || globs[0] == "**/*")
		why := "path-specific instructions: loaded for matching files"
		if always {
			why = "instructions applying to every file"
		}
		got, ok := r.file(p, Entry{Platform: Copilot, Kind: Rules, Scope: scope, AlwaysLoaded: always, Inherited: inherited, Why: why}, roots)
		if ok && !always && scope == ScopeProject && r.matchesNothing(globs) {
			r.unloadedFile(p, got.Real, Copilot, "applyTo ("+strings.Join(globs, ", ")+") matches no file of the project: never loaded")
		}
	}
}

// cursor discovers .cursor/rules/**/*.mdc|md (always only with alwaysApply: true) and the
// legacy .cursorrules.
func (r *run) cursor() {
	roots := []string{r.project}
	for _, p := range r.walkRules(filepath.Join(r.opts.ProjectRoot, ".cursor", "rules"), Cursor, []string{".mdc", ".md"}, true) {
		head := r.headOf(p)
		v, _ := frontValue(head, "alwaysApply")
		always := strings.EqualFold(v, "true")
		why := "project rule: attached by glob or on request"
		if always {
			why = "project rule with alwaysApply"
		}
		got, ok := r.file(p, Entry{Platform: Cursor, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: always, Why: why}, roots)
		if g, has := frontList(head, "globs"); ok && !always && has && r.matchesNothing(g) {
			if d, _ := frontValue(head, "description"); strings.TrimSpace(d) == "" {
				// Without a description the agent cannot ask for it either.
				r.unloadedFile(p, got.Real, Cursor, "globs ("+strings.Join(g, ", ")+") match no file of the project and no description lets the agent request it: never loaded")
			}
		}
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
		if real, err := r.resolve(p); err != nil || !within(real, r.project) {
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
		v, _ := frontValue(r.headOf(p), "trigger")
		always := v == "always_on"
		why := "workspace rule: model decision, glob or manual"
		if always {
			why = "workspace rule with trigger always_on"
		}
		r.file(p, Entry{Platform: Windsurf, Kind: Rules, Scope: ScopeProject, AlwaysLoaded: always, Why: why}, roots)
	}
}

// above reports a directory strictly above the project root.
func (r *run) above(d string) bool {
	return d != r.opts.ProjectRoot && within(r.opts.ProjectRoot, d)
}

// markerRoot returns the nearest directory at or above start that holds one of the markers
// (".git": a directory, or a file in a worktree or submodule), walking up to the filesystem
// root as Codex and Gemini CLI do; "" when there is none.
func markerRoot(start string, markers []string) string {
	if len(markers) == 0 {
		return ""
	}
	for d := start; ; d = filepath.Dir(d) {
		for _, m := range markers {
			if m == "" || filepath.IsAbs(m) || strings.Contains(m, "..") {
				continue
			}
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// chainFrom returns the directories from top down to start, inclusive (start when top is not
// an ancestor of it).
func chainFrom(top, start string) []string {
	var dirs []string
	for d := start; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == top || d == filepath.Dir(d) {
			break
		}
	}
	if dirs[len(dirs)-1] != top {
		return []string{start}
	}
	for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	return dirs
}
