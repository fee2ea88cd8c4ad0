package discover

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture lays out a fake home with a project inside a git work tree:
//
//	home/                     CLAUDE.md (inherited)
//	home/.claude/             CLAUDE.md, rules/, projects/<slug>/memory/
//	home/work/                .git, CLAUDE.md, AGENTS.md, GEMINI.md (inherited)
//	home/work/proj/           the project
type fixture struct {
	t                *testing.T
	home, work, proj string
	outside          string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	f := &fixture{t: t, home: filepath.Join(base, "home"), outside: filepath.Join(base, "outside")}
	f.work = filepath.Join(f.home, "work")
	f.proj = filepath.Join(f.work, "proj")
	for _, d := range []string{f.proj, f.outside, filepath.Join(f.work, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) write(path, content string) string {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return path
}

func (f *fixture) discover(env map[string]string, platforms ...string) Result {
	f.t.Helper()
	res, err := Discover(Options{Home: f.home, ProjectRoot: f.proj, Getenv: func(k string) string { return env[k] }, Platforms: platforms})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func find(res Result, platform, path string) (Entry, bool) {
	for _, e := range res.Entries {
		if e.Platform == platform && e.Path == path {
			return e, true
		}
	}
	return Entry{}, false
}

func hasProblem(res Result, path, reason string) bool {
	for _, p := range res.Problems {
		if p.Path == path && strings.Contains(p.Reason, reason) {
			return true
		}
	}
	return false
}

// neverLoaded reports a never-loaded finding of the platform at path:line whose reason holds
// why.
func neverLoaded(res Result, platform, path string, line int, why string) bool {
	for _, u := range res.NeverLoaded {
		if u.Platform == platform && u.Path == path && u.Line == line && strings.Contains(u.Reason, why) {
			return true
		}
	}
	return false
}

func TestClaudeCode(t *testing.T) {
	f := newFixture(t)
	cfg := filepath.Join(f.home, ".claude")
	user := f.write(filepath.Join(cfg, "CLAUDE.md"), "# me\n")
	userRule := f.write(filepath.Join(cfg, "rules", "style.md"), "- short answers\n")
	homeMd := f.write(filepath.Join(f.home, "CLAUDE.md"), "# home\n")
	workMd := f.write(filepath.Join(f.work, "CLAUDE.md"), "# umbrella\n@shared.md\n")
	shared := f.write(filepath.Join(f.work, "shared.md"), "shared\n")
	proj := f.write(filepath.Join(f.proj, "CLAUDE.md"), "# proj\nSee @docs/arch.md and mail a@b.com, `@not/this.md`.\n```\n@nor/this.md\n```\n@~/.claude/extra.md\n")
	arch := f.write(filepath.Join(f.proj, "docs", "arch.md"), "arch\n")
	extra := f.write(filepath.Join(cfg, "extra.md"), "extra\n")
	dotClaude := f.write(filepath.Join(f.proj, ".claude", "CLAUDE.md"), "dot\n")
	rule := f.write(filepath.Join(f.proj, ".claude", "rules", "go.md"), "- gofmt\n")
	scoped := f.write(filepath.Join(f.proj, ".claude", "rules", "api.md"), "---\npaths: src/api/**\n---\n- api\n")
	local := f.write(filepath.Join(f.proj, "CLAUDE.local.md"), "local\n")
	memDir := filepath.Join(cfg, "projects", Slug(f.proj), "memory")
	index := f.write(filepath.Join(memDir, "MEMORY.md"), "- [a](a.md)\n")
	note := f.write(filepath.Join(memDir, "a.md"), "a\n")

	res := f.discover(nil, ClaudeCode)
	want := []struct {
		path              string
		kind              Kind
		always, inherited bool
		scope             string
	}{
		{user, Governance, true, false, ScopeUser},
		{userRule, Rules, true, false, ScopeUser},
		{homeMd, Governance, true, true, ScopeAbove},
		{workMd, Governance, true, true, ScopeAbove},
		{shared, Governance, true, true, ScopeAbove},
		{proj, Governance, true, false, ScopeProject},
		{arch, Governance, true, false, ScopeProject},
		{extra, Governance, true, false, ScopeProject},
		{dotClaude, Governance, true, false, ScopeProject},
		{scoped, Rules, false, false, ScopeProject},
		{rule, Rules, true, false, ScopeProject},
		{local, Governance, true, false, ScopeLocal},
		{index, MemoryIndex, true, false, ScopeLocal},
		{note, Memory, false, false, ScopeLocal},
	}
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Path)
	}
	var wantPaths []string
	for _, w := range want {
		wantPaths = append(wantPaths, w.path)
		e, ok := find(res, ClaudeCode, w.path)
		if !ok {
			t.Errorf("missing %s", w.path)
			continue
		}
		if e.Kind != w.kind || e.AlwaysLoaded != w.always || e.Inherited != w.inherited || e.Scope != w.scope {
			t.Errorf("%s: got %+v", w.path, e)
		}
	}
	if !slices.Equal(got, wantPaths) {
		t.Errorf("order:\n got %q\nwant %q", got, wantPaths)
	}
	if e, _ := find(res, ClaudeCode, arch); e.ImportedBy != proj || e.Depth != 1 {
		t.Errorf("import metadata %+v", e)
	}
	if len(res.Problems) != 0 {
		t.Errorf("unexpected problems %+v", res.Problems)
	}
}

func TestClaudeConfigDirEnv(t *testing.T) {
	f := newFixture(t)
	alt := filepath.Join(f.home, "altcfg")
	user := f.write(filepath.Join(alt, "CLAUDE.md"), "alt\n")
	f.write(filepath.Join(f.home, ".claude", "CLAUDE.md"), "default\n")
	index := f.write(filepath.Join(alt, "projects", Slug(f.proj), "memory", "MEMORY.md"), "idx\n")
	res := f.discover(map[string]string{"CLAUDE_CONFIG_DIR": "relative/ignored," + alt}, ClaudeCode)
	if _, ok := find(res, ClaudeCode, user); !ok {
		t.Error("CLAUDE_CONFIG_DIR user memory missing")
	}
	if _, ok := find(res, ClaudeCode, index); !ok {
		t.Error("CLAUDE_CONFIG_DIR memory index missing")
	}
	if _, ok := find(res, ClaudeCode, filepath.Join(f.home, ".claude", "CLAUDE.md")); ok {
		t.Error("with CLAUDE_CONFIG_DIR set, ~/.claude/CLAUDE.md is not loaded and must not be listed")
	}
}

func TestSymlinkEscape(t *testing.T) {
	f := newFixture(t)
	secret := f.write(filepath.Join(f.outside, "secret.md"), "secret\n")
	link := filepath.Join(f.proj, "CLAUDE.md")
	if err := os.Symlink(secret, link); err != nil {
		t.Skip("symlinks not supported here: " + err.Error())
	}
	inside := f.write(filepath.Join(f.proj, "docs", "real.md"), "real\n")
	if err := os.Symlink(inside, filepath.Join(f.proj, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	f.write(filepath.Join(f.proj, "GEMINI.md"), "@../../../outside/secret.md\n")
	res := f.discover(nil)
	if _, ok := find(res, ClaudeCode, link); ok {
		t.Error("escaping symlink was followed")
	}
	if !hasProblem(res, link, "outside the allowed roots") {
		t.Errorf("escape not reported: %+v", res.Problems)
	}
	if e, ok := find(res, Codex, filepath.Join(f.proj, "AGENTS.md")); !ok || e.Real != inside {
		t.Errorf("contained symlink should be followed: %+v", e)
	}
	escImport := filepath.Clean(filepath.Join(f.proj, "../../../outside/secret.md"))
	if _, ok := find(res, Gemini, escImport); ok || !neverLoaded(res, Gemini, filepath.Join(f.proj, "GEMINI.md"), 1, "follows no import outside") {
		t.Errorf("escaping import not refused: %+v %+v", res.Problems, res.NeverLoaded)
	}
}

func TestImportCycleAndDepth(t *testing.T) {
	f := newFixture(t)
	f.write(filepath.Join(f.proj, "CLAUDE.md"), "@a.md\n")
	f.write(filepath.Join(f.proj, "a.md"), "@b.md\n")
	b := f.write(filepath.Join(f.proj, "b.md"), "@a.md and @CLAUDE.md\n")
	res := f.discover(nil, ClaudeCode)
	if _, ok := find(res, ClaudeCode, b); !ok {
		t.Fatal("b.md not imported")
	}
	cycles := 0
	for _, p := range res.Problems {
		if strings.Contains(p.Reason, "import cycle") {
			cycles++
		}
	}
	if cycles != 2 {
		t.Errorf("want 2 cycles reported, got %+v", res.Problems)
	}

	g := newFixture(t)
	prev := filepath.Join(g.proj, "CLAUDE.md")
	g.write(prev, "@d1.md\n")
	for i := 1; i <= 7; i++ {
		g.write(filepath.Join(g.proj, "d"+string(rune('0'+i))+".md"), "@d"+string(rune('0'+i+1))+".md\n")
	}
	res = g.discover(nil, ClaudeCode)
	for i := 1; i <= 5; i++ {
		if e, ok := find(res, ClaudeCode, filepath.Join(g.proj, "d"+string(rune('0'+i))+".md")); !ok || e.Depth != i {
			t.Errorf("d%d missing or wrong depth: %+v", i, e)
		}
	}
	if _, ok := find(res, ClaudeCode, filepath.Join(g.proj, "d6.md")); ok {
		t.Error("import beyond depth 5 followed")
	}
	if !hasProblem(res, filepath.Join(g.proj, "d6.md"), "exceeds 5") {
		t.Errorf("depth cap not reported: %+v", res.Problems)
	}
}

func TestImportsSyntax(t *testing.T) {
	in := "@line/only.md\nsee @inline.md, and @~/x.md.\nmail a@b.com (@paren.md) `@code.md`\n```\n@fenced.md\n```\n\n    @indented.md\n@alice said\n"
	var got []string
	for _, im := range importsAt([]byte(in)) {
		got = append(got, im.Path)
	}
	want := []string{"line/only.md", "inline.md", "~/x.md", "paren.md", "alice"}
	if !slices.Equal(got, want) {
		t.Errorf("imports = %q, want %q", got, want)
	}
}

func TestOtherPlatforms(t *testing.T) {
	f := newFixture(t)
	codexHome := filepath.Join(f.home, ".codex")
	override := f.write(filepath.Join(codexHome, "AGENTS.override.md"), "o\n")
	f.write(filepath.Join(codexHome, "AGENTS.md"), "shadowed\n")
	workAgents := f.write(filepath.Join(f.work, "AGENTS.md"), "umbrella\n")
	projAgents := f.write(filepath.Join(f.proj, "AGENTS.md"), "proj\n")
	gGlobal := f.write(filepath.Join(f.home, ".gemini", "GEMINI.md"), "g\n")
	gWork := f.write(filepath.Join(f.work, "GEMINI.md"), "gw\n")
	gProj := f.write(filepath.Join(f.proj, "GEMINI.md"), "gp @./ctx.md\n")
	gCtx := f.write(filepath.Join(f.proj, "ctx.md"), "ctx\n")
	cop := f.write(filepath.Join(f.proj, ".github", "copilot-instructions.md"), "c\n")
	copAll := f.write(filepath.Join(f.proj, ".github", "instructions", "all.instructions.md"), "---\napplyTo: \"**\"\n---\nx\n")
	copTs := f.write(filepath.Join(f.proj, ".github", "instructions", "ts.instructions.md"), "---\napplyTo: \"**/*.ts\"\n---\nx\n")
	curAlways := f.write(filepath.Join(f.proj, ".cursor", "rules", "base.mdc"), "---\nalwaysApply: true\n---\nx\n")
	curGlob := f.write(filepath.Join(f.proj, ".cursor", "rules", "react.mdc"), "---\nglobs: src/**\nalwaysApply: false\n---\nx\n")
	cline1 := f.write(filepath.Join(f.proj, ".clinerules", "01-style.md"), "s\n")
	cline2 := f.write(filepath.Join(f.proj, ".clinerules", "02-notes.txt"), "n\n")
	f.write(filepath.Join(f.proj, ".clinerules", "image.png"), "png")
	wsLegacy := f.write(filepath.Join(f.proj, ".windsurfrules"), "w\n")
	wsOn := f.write(filepath.Join(f.proj, ".windsurf", "rules", "on.md"), "---\ntrigger: always_on\n---\nx\n")
	wsOff := f.write(filepath.Join(f.proj, ".windsurf", "rules", "off.md"), "---\ntrigger: model_decision\n---\nx\n")
	res := f.discover(nil, Codex, Gemini, Copilot, Cursor, Cline, Windsurf)
	cases := []struct {
		platform, path    string
		always, inherited bool
	}{
		{Codex, override, true, false},
		{Codex, workAgents, true, true},
		{Codex, projAgents, true, false},
		{Gemini, gGlobal, true, false},
		{Gemini, gWork, true, true},
		{Gemini, gProj, true, false},
		{Gemini, gCtx, true, false},
		{Copilot, cop, true, false},
		{Copilot, copAll, true, false},
		{Copilot, copTs, false, false},
		{Cursor, curAlways, true, false},
		{Cursor, curGlob, false, false},
		{Cline, cline1, true, false},
		{Cline, cline2, true, false},
		{Windsurf, wsLegacy, true, false},
		{Windsurf, wsOn, true, false},
		{Windsurf, wsOff, false, false},
	}
	for _, c := range cases {
		e, ok := find(res, c.platform, c.path)
		if !ok {
			t.Errorf("%s: missing %s", c.platform, c.path)
			continue
		}
		if e.AlwaysLoaded != c.always || e.Inherited != c.inherited {
			t.Errorf("%s %s: %+v", c.platform, c.path, e)
		}
	}
	if _, ok := find(res, Codex, filepath.Join(codexHome, "AGENTS.md")); ok {
		t.Error("AGENTS.override.md must shadow AGENTS.md in the Codex home")
	}
	for _, e := range res.Entries {
		if e.Platform == ClaudeCode {
			t.Errorf("platform filter leaked %+v", e)
		}
		if strings.HasSuffix(e.Path, ".png") {
			t.Errorf("non-rule file listed %+v", e)
		}
	}
}

func TestCodexHomeEnvAndNoGit(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	home := filepath.Join(base, "h")
	proj := filepath.Join(base, "p", "q")
	ch := filepath.Join(base, "ch")
	for _, d := range []string{home, proj, ch} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(ch, "AGENTS.md"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(base, "p", "AGENTS.md"), []byte("above, no git\n"), 0o644)
	res, err := Discover(Options{Home: home, ProjectRoot: proj, Platforms: []string{Codex}, Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return ch
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 || res.Entries[0].Path != filepath.Join(ch, "AGENTS.md") {
		t.Errorf("want only CODEX_HOME's AGENTS.md (no git root: only the project dir is searched), got %+v", res.Entries)
	}
}

func TestSlug(t *testing.T) {
	if got := Slug("/home/u/my.proj_x"); got != "-home-u-my-proj-x" {
		t.Errorf("Slug = %q", got)
	}
}

func TestBadOptions(t *testing.T) {
	if _, err := Discover(Options{Home: "rel", ProjectRoot: "/x"}); err == nil {
		t.Error("relative home accepted")
	}
}

func TestConfigDirsAndMemoryDir(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex", "QWEN_HOME": "/cfg/qwen"}
	getenv := func(k string) string { return env[k] }
	got := ConfigDirs(Options{Home: "/home/u", Getenv: getenv})
	want := []string{"/cfg/claude", "/cfg/codex", "/home/u/.gemini", "/home/u/.copilot", "/cfg/qwen"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("ConfigDirs = %v, want %v", got, want)
	}
	got = ConfigDirs(Options{Home: "/home/u"})
	want = []string{"/home/u/.claude", "/home/u/.codex", "/home/u/.gemini", "/home/u/.copilot", "/home/u/.qwen"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("ConfigDirs = %v, want %v", got, want)
	}
	if m := MemoryDir(Options{Home: "/home/u", ProjectRoot: "/work/my.proj"}); m != "/home/u/.claude/projects/-work-my-proj/memory" {
		t.Fatalf("MemoryDir = %s", m)
	}
}

// A project rooted at HOME holds the platforms' config directories: the ownership rule keeps
// the user-level memory in them (~/.claude/CLAUDE.md, the Codex home, ~/.gemini) measured only,
// never the lane's to write, though the files lie inside the project root.
func TestProjectAtHomeDoesNotOwnConfigDirs(t *testing.T) {
	f := newFixture(t)
	user := f.write(filepath.Join(f.home, ".claude", "CLAUDE.md"), "- my own rules, every project\n")
	codex := f.write(filepath.Join(f.home, ".codex", "AGENTS.md"), "- global codex rules\n")
	gem := f.write(filepath.Join(f.home, ".gemini", "GEMINI.md"), "- global gemini rules\n")
	top := f.write(filepath.Join(f.home, "CLAUDE.md"), "- the home project's own rules\n")
	res, err := Discover(Options{Home: f.home, ProjectRoot: f.home})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		platform, path string
		owned          bool
	}{{ClaudeCode, user, false}, {Codex, codex, false}, {Gemini, gem, false}, {ClaudeCode, top, true}} {
		e, ok := find(res, c.platform, c.path)
		if !ok {
			t.Errorf("%s not found", c.path)
			continue
		}
		if e.Owned != c.owned {
			t.Errorf("%s: owned %v, want %v", c.path, e.Owned, c.owned)
		}
	}
}
