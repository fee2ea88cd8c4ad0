package quick

import (
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

const framework = `# AIWG

## Agents

- Use the test-architect agent for every test strategy change.
- Deployments go through the deployment-manager agent, never by hand.

## Commands

| command | what |
|---|---|
| /flow-start | begin a phase |

` + "```sh\naiwg status --json\n```\n"

// file builds a planned file loaded whole by the given platforms.
func file(path, scope, content string, platforms ...string) File {
	f := File{Path: path, Real: path, Content: []byte(content), Platform: platforms[0], Scope: scope, AlwaysLoaded: true, Kind: "governance",
		Loads: map[string]int64{}}
	for _, p := range platforms {
		f.Loads[p] = int64(len(content))
	}
	return f
}

func rules(f File) File { f.Kind = "rules"; return f }

func crossCutsOf(p Plan, path string) []Cut {
	var out []Cut
	for _, f := range p.Files {
		if f.Path != path {
			continue
		}
		for _, c := range f.Cuts {
			if c.Kind == CrossFileCopy {
				out = append(out, c)
			}
		}
	}
	return out
}

// A CLAUDE.md that imports a framework file and repeats it: every platform that loads
// CLAUDE.md (Claude Code, and the Copilot CLI, which expands the import too) loads the copy,
// so the repetition leaves CLAUDE.md, headings, table and code included, and the set gate
// sees a move.
func TestCrossFileCopyOfAnImport(t *testing.T) {
	claude := "# CLAUDE.md\n\nProject notes first.\n\n@AIWG.md\n\n" + strings.TrimPrefix(framework, "# AIWG\n\n") + "\n## Local\n\n- Run make check before every commit.\n"
	x := file("/p/CLAUDE.md", "project", claude, "claude-code", "copilot")
	y := file("/p/AIWG.md", "project", framework, "claude-code", "copilot")
	x.Imports = []string{y.Real}
	p := PlanQuick([]File{x, y}, Options{})
	cuts := crossCutsOf(p, x.Path)
	if len(cuts) == 0 {
		t.Fatalf("the repeated framework was not cut: %+v", p.Files[0].Cuts)
	}
	got := string(p.Files[0].New)
	for _, gone := range []string{"## Agents", "test-architect", "| /flow-start |", "aiwg status --json"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q still in CLAUDE.md:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"Project notes first.", "@AIWG.md", "## Local", "make check"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q lost from CLAUDE.md:\n%s", kept, got)
		}
	}
	if p.Files[1].Changed {
		t.Error("the copy itself must stay")
	}
	if v := gate.CheckSet(p.GateChanges(), nil); !v.OK {
		t.Errorf("the set gate refuses the move: %+v", v.Blocking())
	}
}

// A copy one platform loads without the other file is not fat: it is kept and reported with
// the platform that would lose it.
func TestCrossFileCopyKeptForAPlatform(t *testing.T) {
	x := file("/p/CLAUDE.md", "project", framework+"\nmore\n", "claude-code", "copilot")
	y := file("/p/AIWG.md", "project", framework, "claude-code", "gemini")
	p := PlanQuick([]File{x, y}, Options{})
	if len(crossCutsOf(p, x.Path))+len(crossCutsOf(p, y.Path)) > 0 {
		t.Fatal("cut although copilot loads CLAUDE.md without AIWG.md and gemini AIWG.md without CLAUDE.md")
	}
	found := false
	for _, fl := range p.Flags {
		found = found || fl.Kind == CrossFileDuplicate && fl.Path == y.Path && strings.Contains(fl.Reason, "gemini load(s) this file without that one") &&
			strings.Contains(fl.Reason, "@import")
	}
	if !found {
		t.Fatalf("the kept copy is not reported with the platform that needs it: %+v", p.Flags)
	}
}

func TestCrossFileCopyRefusals(t *testing.T) {
	block := "## Rules\n\n- Every migration is reviewed by two people.\n- Never edit a released migration.\n"
	tests := []struct {
		name string
		x, y File
	}{
		{"the copy is in a user file a teammate lacks", file("/p/CLAUDE.md", "project", block, "claude-code"), file("/h/.claude/CLAUDE.md", "user", block, "claude-code")},
		{"the copy is in an inherited file", file("/p/CLAUDE.md", "project", block, "claude-code"), func() File {
			f := file("/CLAUDE.md", "project", block, "claude-code")
			f.Inherited = true
			return f
		}()},
		{"the copy sits under another section", file("/p/CLAUDE.md", "project", "# Deploys\n\n## Staging\n\n#"+block, "claude-code"), file("/p/AGENTS.md", "project", "# Deploys\n\n## Production\n\n#"+block, "claude-code")},
		{"the copy's file has another title", rules(file("/p/.claude/rules/staging.md", "project", "# Staging\n\n"+block, "claude-code")), rules(file("/p/.claude/rules/prod.md", "project", "# Production\n\n"+block, "claude-code"))},
		{"the copy is only part of a block", file("/p/CLAUDE.md", "project", "- Every migration is reviewed by two people.\n- Ask first.\n", "claude-code"), file("/p/AGENTS.md", "project", "- Every migration is reviewed by two people.\n- Never edit a released migration.\n", "claude-code")},
		{"a read-only file is never cut", func() File { f := file("/h/x.md", "project", block, "claude-code"); f.ReadOnly = true; return f }(), file("/p/AGENTS.md", "project", block, "claude-code")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PlanQuick([]File{tt.x, tt.y}, Options{})
			if c := crossCutsOf(p, tt.x.Path); len(c) > 0 {
				t.Fatalf("cut: %+v\n%s", c, p.Files[0].New)
			}
		})
	}
}

// Two files loaded by the same platforms holding each other's copy: one copy stays.
func TestCrossFileCopyNeverBoth(t *testing.T) {
	block := "## Rules\n\n- Every migration is reviewed by two people.\n- Never edit a released migration.\n"
	x := file("/p/CLAUDE.md", "project", block, "claude-code")
	y := file("/p/.claude/CLAUDE.md", "project", block, "claude-code")
	p := PlanQuick([]File{x, y}, Options{})
	kept := 0
	for _, f := range p.Files {
		if strings.Contains(string(f.New), "two people") {
			kept++
		}
	}
	if kept != 1 {
		t.Fatalf("%d copies kept, want exactly 1:\n%s\n---\n%s", kept, p.Files[0].New, p.Files[1].New)
	}
}

// A line past what a platform loads of the copy's file (a truncated head) is no copy for
// that platform.
func TestCrossFileCopyPastATruncation(t *testing.T) {
	block := "## Rules\n\n- Every migration is reviewed by two people.\n- Never edit a released migration.\n"
	x := file("/p/CLAUDE.md", "project", block, "claude-code")
	y := file("/m/MEMORY.md", "local", "# index\n\n"+block, "claude-code")
	y.Scope = "project"
	y.Loads["claude-code"] = 9 // only "# index\n\n" loads
	p := PlanQuick([]File{x, y}, Options{})
	if c := crossCutsOf(p, x.Path); len(c) > 0 {
		t.Fatalf("cut against a copy that never loads: %+v", c)
	}
}

// A subdirectory AGENTS.md repeating its ancestor in the same Codex chain: every session that
// loads it loads the root's too, whatever each file's title.
func TestCrossFileCopyNestedChain(t *testing.T) {
	rulesBlock := "## Conventions\n\n- Every migration is reviewed by two people.\n- Never edit a released migration.\n"
	root := file("/r/AGENTS.md", "project", "# Monorepo\n\n"+rulesBlock, "codex")
	sub := file("/r/pkg/api/AGENTS.md", "project", "# API package\n\nRun the API tests with make api-test.\n\n"+rulesBlock, "codex")
	p := PlanQuick([]File{root, sub}, Options{})
	if len(crossCutsOf(p, sub.Path)) == 0 || strings.Contains(string(p.Files[1].New), "two people") || !strings.Contains(string(p.Files[1].New), "make api-test") {
		t.Fatalf("nested copy not cut:\n%s", p.Files[1].New)
	}
	if p.Files[0].Changed {
		t.Fatal("the root keeps its rules")
	}
}

// A generator's managed-block markers (HTML comments) and @import lines stay in their file
// even when the other file holds them too.
func TestCrossFileCopyKeepsMarkersAndImports(t *testing.T) {
	body := "## Agents\n\n- Use the test-architect agent for every test strategy change.\n- Deployments go through the deployment-manager agent.\n"
	shared := "<!-- tool:block:start -->\n\n" + body + "\n<!--\n  managed by the tool\n-->\n\n@WORKSPACE.md\n\n<!-- tool:block:end -->\n"
	x := file("/p/CLAUDE.md", "project", "# CLAUDE.md\n\n"+shared+"\n@AIWG.md\n", "claude-code")
	y := file("/p/AIWG.md", "project", "# AIWG\n\n"+shared, "claude-code")
	x.Imports = []string{y.Real}
	p := PlanQuick([]File{x, y}, Options{})
	got := string(p.Files[0].New)
	if strings.Contains(got, "test-architect") {
		t.Errorf("the repeated section was not cut:\n%s", got)
	}
	for _, kept := range []string{"<!-- tool:block:start -->", "managed by the tool", "-->", "@WORKSPACE.md", "<!-- tool:block:end -->", "@AIWG.md"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q left CLAUDE.md:\n%s", kept, got)
		}
	}
	if p.Files[1].Changed {
		t.Errorf("AIWG.md changed:\n%s", p.Files[1].New)
	}
}

// A file that pastes the file it imports under a heading of its own still repeats it: the
// wrapping heading is a label, not a scope. Under a heading that contradicts the copy's
// ("## Staging" against "## Production"), it does not.
func TestCrossFileCopyUnderAWrappingHeading(t *testing.T) {
	claude := "# CLAUDE.md\n\nOur notes.\n\n## AIWG framework\n\n" + strings.ReplaceAll(strings.TrimPrefix(framework, "# AIWG\n\n"), "## ", "### ") + "\n@AIWG.md\n"
	x := file("/p/CLAUDE.md", "project", claude, "claude-code")
	y := file("/p/AIWG.md", "project", framework, "claude-code")
	x.Imports = []string{y.Real}
	p := PlanQuick([]File{x, y}, Options{})
	if got := string(p.Files[0].New); strings.Contains(got, "test-architect") {
		t.Errorf("the pasted copy under a wrapping heading was not cut:\n%s", got)
	}
	block := "- Every migration is reviewed by two people.\n- Never edit a released migration.\n"
	x = file("/p/CLAUDE.md", "project", "# Deploys\n\n## Staging\n\n"+block+"\n@AIWG.md\n", "claude-code")
	y = file("/p/AIWG.md", "project", "# Deploys\n\n## Production\n\n"+block, "claude-code")
	x.Imports = []string{y.Real}
	p = PlanQuick([]File{x, y}, Options{})
	if c := crossCutsOf(p, x.Path); len(c) > 0 {
		t.Errorf("a copy under another scope was cut: %+v", c)
	}
}
