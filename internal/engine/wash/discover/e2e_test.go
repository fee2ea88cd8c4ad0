package discover_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/ccharness"
)

// The load rules against the real CLIs: every line of every memory file carries its own
// marker; the first request each CLI sends its (mock) model must hold the markers of exactly
// the bytes discovery says reach it, and none of the text it reports as never loaded.

// marked returns n lines, each with a marker unique to the file and line.
func marked(id string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- rule MK%sL%d keeps the build green.\n", id, i)
	}
	return b.String()
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// markersOf returns the markers in b.
func markersOf(b []byte) []string {
	var out []string
	for _, w := range bytes.Fields(b) {
		if bytes.HasPrefix(w, []byte("MK")) && bytes.Contains(w, []byte("L")) {
			out = append(out, string(w))
		}
	}
	return out
}

// checkLoad compares one platform's discovered load with the body the CLI sent: every
// marker in a loaded head is there; every marker of a never-loaded finding, of a truncated
// tail and of a file the platform does not always load is absent. It returns how many markers
// it checked each way, so a test can tell it checked something.
func checkLoad(t *testing.T, res discover.Result, platform string, body []byte) (present, absent int) {
	t.Helper()
	loaded := map[string]bool{}
	for _, e := range res.Entries {
		if e.Platform != platform {
			continue
		}
		c, err := os.ReadFile(e.Real)
		if err != nil {
			t.Fatal(err)
		}
		head, tail := c, []byte(nil)
		if !e.AlwaysLoaded {
			head, tail = nil, c
		} else if e.Loaded < int64(len(c)) {
			head, tail = c[:e.Loaded], c[e.Loaded:]
		}
		for _, m := range markersOf(head) {
			loaded[m] = true
			present++
			if !bytes.Contains(body, []byte(m)) {
				t.Errorf("%s: %s (%s) is loaded by discovery's rules but did not reach the model", platform, m, filepath.Base(e.Path))
			}
		}
		for _, m := range markersOf(tail) {
			if loaded[m] {
				continue
			}
			absent++
			if bytes.Contains(body, []byte(m)) {
				t.Errorf("%s: %s (%s) is not loaded by discovery's rules but reached the model", platform, m, filepath.Base(e.Path))
			}
		}
	}
	for _, u := range res.NeverLoaded {
		if u.Platform != platform {
			continue
		}
		c, err := os.ReadFile(u.Path)
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(string(c), "\n")
		for i := u.Line - 1; i < min(len(lines), u.Line-1+max(1, u.Lines)); i++ {
			for _, m := range markersOf([]byte(lines[i])) {
				if loaded[m] || strings.Contains(u.Reason, "@") {
					continue // an import line itself loads; only its target does not
				}
				absent++
				if bytes.Contains(body, []byte(m)) {
					t.Errorf("%s: %s is reported never loaded (%s) but reached the model", platform, m, u.Reason)
				}
			}
		}
	}
	return present, absent
}

// bodyWith returns the first request body holding marker, failing the test when none does.
func bodyWith(t *testing.T, bodies [][]byte, marker, summary string) []byte {
	t.Helper()
	for _, b := range bodies {
		if bytes.Contains(b, []byte(marker)) {
			return b
		}
	}
	t.Fatalf("no request carried %s: %s", marker, summary)
	return nil
}

func mockBodies(m *agentharness.Mock) [][]byte {
	var out [][]byte
	for _, r := range m.Requests() {
		out = append(out, r.Body)
	}
	return out
}

// discoverAs discovers one platform's load with the environment the CLI ran with.
func discoverAs(t *testing.T, home, proj, start, platform string, env map[string]string) discover.Result {
	t.Helper()
	res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj, Start: start, Platforms: []string{platform},
		Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Claude Code 2.1.197: CLAUDE.md with an import, .claude/CLAUDE.md, rules (one scoped to
// paths no file matches), CLAUDE.local.md, and a 230-line MEMORY.md of which only the first
// 200 lines load.
func TestE2EClaudeCodeLoad(t *testing.T) {
	proj := ccharness.NewProject(t)
	write(t, filepath.Join(proj, "CLAUDE.md"), "# Project\n\n"+marked("c", 3)+"\n@docs/imp.md\n")
	write(t, filepath.Join(proj, "docs", "imp.md"), marked("i", 2))
	write(t, filepath.Join(proj, ".claude", "CLAUDE.md"), marked("d", 2))
	write(t, filepath.Join(proj, ".claude", "rules", "go.md"), marked("r", 2))
	write(t, filepath.Join(proj, ".claude", "rules", "py.md"), "---\npaths: \"**/*.py\"\n---\n"+marked("p", 2))
	write(t, filepath.Join(proj, "CLAUDE.local.md"), marked("l", 2))
	memory := marked("m", 230)
	res := ccharness.Run(t, ccharness.Options{ProjectDir: proj,
		ConfigFiles: map[string][]byte{"projects/" + discover.Slug(proj) + "/memory/MEMORY.md": []byte(memory)}})
	var bodies [][]byte
	for _, r := range res.Requests {
		bodies = append(bodies, r.Body)
	}
	body := bodyWith(t, bodies, "MKc", res.Summary())
	got := discoverAs(t, res.Home, proj, "", discover.ClaudeCode, map[string]string{"CLAUDE_CONFIG_DIR": res.ConfigDir})
	present, absent := checkLoad(t, got, discover.ClaudeCode, body)
	if present < 200 || absent < 30 {
		t.Fatalf("checked %d loaded and %d unloaded markers: the head and tail of MEMORY.md were not both checked", present, absent)
	}
}

// Codex 0.169.0: its home's AGENTS.md, a root AGENTS.md of 30,000 bytes and a subdirectory's
// whose tail falls past the 32 KiB project_doc_max_bytes, a directory where AGENTS.override.md
// shadows AGENTS.md, and a fallback name from config.toml.
func TestE2ECodexLoad(t *testing.T) {
	bin := agentharness.Codex(t)
	proj := ccharness.NewProject(t)
	start := filepath.Join(proj, "pkg", "api")
	write(t, filepath.Join(proj, "AGENTS.md"), marked("a", 820)) // ~31 KB
	write(t, filepath.Join(proj, "pkg", "AGENTS.override.md"), marked("o", 2))
	write(t, filepath.Join(proj, "pkg", "AGENTS.md"), marked("s", 2))
	write(t, filepath.Join(start, "NOTES.md"), marked("n", 80))
	mock, err := agentharness.NewCodexMock("hello.txt", "hi\n")
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Close()
	home := agentharness.CodexHome(t, mock.URL(), proj)
	cfg, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	write(t, filepath.Join(home, "config.toml"), "project_doc_fallback_filenames = [\"NOTES.md\"]\n"+string(cfg))
	write(t, filepath.Join(home, "AGENTS.md"), marked("g", 2))
	s := agentharness.RunCodex(t, bin, home, agentharness.Options{Dir: start})
	body := bodyWith(t, mockBodies(mock), "MKa", s.Summary())
	got := discoverAs(t, t.TempDir(), proj, start, discover.Codex, map[string]string{"CODEX_HOME": home})
	present, absent := checkLoad(t, got, discover.Codex, body)
	if present < 800 || absent < 10 {
		t.Fatalf("checked %d loaded and %d unloaded markers: the budget's cut was not checked", present, absent)
	}
}

// Gemini CLI 0.61.0: the workspace's context.fileName names AGENTS.md and GEMINI.md; an import
// inside the repository loads, CLAUDE.md (not named) does not.
func TestE2EGeminiLoad(t *testing.T) {
	bin := agentharness.Gemini(t)
	proj := ccharness.NewProject(t)
	write(t, filepath.Join(proj, ".gemini", "settings.json"), `{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}`)
	write(t, filepath.Join(proj, "AGENTS.md"), marked("a", 3))
	write(t, filepath.Join(proj, "GEMINI.md"), marked("g", 2)+"\n@docs/imp.md\n")
	write(t, filepath.Join(proj, "docs", "imp.md"), marked("i", 2))
	write(t, filepath.Join(proj, "CLAUDE.md"), marked("c", 2))
	mock, err := agentharness.NewGeminiMock("hello.txt", "hi\n")
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Close()
	s := agentharness.RunGemini(t, bin, mock.URL(), agentharness.Options{Dir: proj})
	body := bodyWith(t, mockBodies(mock), "MKa", s.Summary())
	got := discoverAs(t, t.TempDir(), proj, "", discover.Gemini, nil)
	if present, _ := checkLoad(t, got, discover.Gemini, body); present < 7 {
		t.Fatalf("checked %d loaded markers", present)
	}
	if bytes.Contains(body, []byte("MKcL1")) {
		t.Error("CLAUDE.md reached Gemini although context.fileName does not name it")
	}
}

// The Copilot CLI 1.0.102: the user's instructions, the root AGENTS.md, CLAUDE.md (with its
// import) and GEMINI.md, an instructions file without applyTo; not .claude/CLAUDE.md, not an
// instructions file whose applyTo matches no file.
func TestE2ECopilotLoad(t *testing.T) {
	bin := agentharness.Copilot(t)
	proj := ccharness.NewProject(t)
	write(t, filepath.Join(proj, "AGENTS.md"), marked("a", 2))
	write(t, filepath.Join(proj, "CLAUDE.md"), marked("c", 2)+"\n@imp.md\n")
	write(t, filepath.Join(proj, "imp.md"), marked("i", 2))
	write(t, filepath.Join(proj, "GEMINI.md"), marked("g", 2))
	write(t, filepath.Join(proj, ".claude", "CLAUDE.md"), marked("d", 2))
	write(t, filepath.Join(proj, ".github", "copilot-instructions.md"), marked("p", 2))
	write(t, filepath.Join(proj, ".github", "instructions", "all.instructions.md"), "---\ndescription: every file\n---\n"+marked("x", 2))
	write(t, filepath.Join(proj, ".github", "instructions", "rs.instructions.md"), "---\napplyTo: \"**/*.rs\"\n---\n"+marked("y", 2))
	home := agentharness.CopilotHome(t, proj)
	write(t, filepath.Join(home, "copilot-instructions.md"), marked("u", 2))
	mock, err := agentharness.NewChatMock()
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Close()
	s := agentharness.RunCopilot(t, bin, home, mock.URL(), "hello", agentharness.Options{Dir: proj})
	body := bodyWith(t, mockBodies(mock), "MKa", s.Summary())
	got := discoverAs(t, t.TempDir(), proj, "", discover.Copilot, map[string]string{"COPILOT_HOME": home})
	present, absent := checkLoad(t, got, discover.Copilot, body)
	if present < 14 || absent < 2 {
		t.Fatalf("checked %d loaded and %d unloaded markers", present, absent)
	}
	if bytes.Contains(body, []byte("MKdL1")) {
		t.Error(".claude/CLAUDE.md reached the Copilot CLI")
	}
}
