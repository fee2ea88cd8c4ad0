package discover

import (
	"os"
	"path/filepath"
	"testing"
)

// Qwen Code's load (0.24.4's memory discovery; the e2e test checks the same
// layout against what the real CLI reports loading): QWEN.md and AGENTS.md
// in $QWEN_HOME and from the directory above the git root down to the start
// directory, @imports, .qwen/QWEN.local.md at the git root; context.fileName
// replaces the names.
func TestQwen(t *testing.T) {
	f := newFixture(t)
	if err := os.Mkdir(filepath.Join(f.proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	global := f.write(filepath.Join(f.home, ".qwen", "QWEN.md"), "g\n")
	homeFile := f.write(filepath.Join(f.home, "QWEN.md"), "two above the root: not loaded\n")
	above := f.write(filepath.Join(f.work, "QWEN.md"), "one above the root\n")
	proj := f.write(filepath.Join(f.proj, "QWEN.md"), "p @./docs/ctx.md\n")
	ctx := f.write(filepath.Join(f.proj, "docs", "ctx.md"), "ctx\n")
	agents := f.write(filepath.Join(f.proj, "AGENTS.md"), "a\n")
	local := f.write(filepath.Join(f.proj, ".qwen", "QWEN.local.md"), "mine\n")
	gemini := f.write(filepath.Join(f.proj, "GEMINI.md"), "not Qwen's\n")
	res := f.discover(nil, Qwen)
	for _, c := range []struct {
		path, scope string
		inherited   bool
	}{
		{global, ScopeUser, false}, {above, ScopeAbove, true}, {proj, ScopeProject, false},
		{ctx, ScopeProject, false}, {agents, ScopeProject, false}, {local, ScopeLocal, false},
	} {
		e, ok := find(res, Qwen, c.path)
		if !ok {
			t.Errorf("missing %s", c.path)
			continue
		}
		if !e.AlwaysLoaded || e.Scope != c.scope || e.Inherited != c.inherited {
			t.Errorf("%s: %+v", c.path, e)
		}
	}
	for _, p := range []string{homeFile, gemini} {
		if _, ok := find(res, Qwen, p); ok {
			t.Errorf("%s is not Qwen's", p)
		}
	}

	// QWEN_HOME moves the per-user directory; context.fileName in the
	// workspace settings replaces both default names.
	alt := f.write(filepath.Join(f.outside, "qwenhome", "QWEN.md"), "alt\n")
	f.write(filepath.Join(f.proj, ".qwen", "settings.json"), "// comment\n{\"context\": {\"fileName\": [\"CONTEXT.md\"]}}\n")
	named := f.write(filepath.Join(f.proj, "CONTEXT.md"), "c\n")
	res = f.discover(map[string]string{"QWEN_HOME": filepath.Join(f.outside, "qwenhome")}, Qwen)
	if _, ok := find(res, Qwen, named); !ok {
		t.Errorf("context.fileName's CONTEXT.md not found: %+v", res.Entries)
	}
	for _, p := range []string{proj, agents, global, alt} {
		if _, ok := find(res, Qwen, p); ok {
			t.Errorf("%s listed though context.fileName names only CONTEXT.md", p)
		}
	}
	if _, ok := find(res, Qwen, local); !ok {
		t.Errorf("QWEN.local.md is loaded whatever context.fileName says")
	}
}
