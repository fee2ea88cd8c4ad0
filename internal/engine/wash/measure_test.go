package wash

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

func TestMeasureEndToEnd(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	proj := filepath.Join(home, "proj")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dup := "- always run `go test ./...` before committing\n"
	write(filepath.Join(home, "CLAUDE.md"), "# umbrella\n"+dup)
	write(filepath.Join(proj, "CLAUDE.md"), "# Rules\n"+dup+dup+"\n\n\n\n- deploy on 2024-03-05\n@AGENTS.md\n")
	write(filepath.Join(proj, "AGENTS.md"), "# Agents\n- use pnpm 9\n")
	memDir := filepath.Join(home, ".claude", "projects", discover.Slug(proj), "memory")
	write(filepath.Join(memDir, "MEMORY.md"), "- [Gone](gone.md) — old note\n- [Kept](kept.md) — note\n")
	write(filepath.Join(memDir, "kept.md"), "kept note body\n")
	res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := quick.ScanTree([]string{proj, memDir}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	rep := Measure(res, Config{Read: os.ReadFile, Quick: quick.Options{Tree: tree}})
	if len(rep.Errors) != 0 {
		t.Fatal(rep.Errors)
	}
	m := rep.Measurement
	if m.Footprint == 0 || m.Inherited == 0 || m.Fat == 0 || m.StoreTokens <= m.Footprint || m.IndexLines != 2 {
		t.Fatalf("measurement %+v", m)
	}
	// AGENTS.md is loaded by Claude Code (import) and Codex: counted once.
	n := 0
	for _, f := range rep.Files {
		if filepath.Base(f.Path) == "AGENTS.md" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("AGENTS.md counted %d times", n)
	}
	// The inherited umbrella shares the duplicate line but is never cut.
	for _, fp := range rep.Plan.Files {
		if filepath.Dir(fp.Path) == home && fp.Changed {
			t.Error("inherited file planned for change")
		}
	}
	if !gate.CheckSet(rep.Plan.GateChanges(), nil).OK {
		t.Fatal("measured plan does not pass the gate")
	}
	v, st := gauge.Band(gauge.State{}, m, gauge.DefaultConfig())
	if v.Band != gauge.Lean || st.Last == nil || len(st.Last.Files) == 0 {
		t.Errorf("band %+v", v)
	}
	if d := gauge.Recheck(st.Last, func(p string) (int64, error) {
		fi, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}, gauge.DefaultConfig()); d.Regauge || len(d.Changed) != 0 {
		t.Errorf("fresh recheck drifted: %+v", d)
	}
}

func TestMeasureReadError(t *testing.T) {
	res := discover.Result{Entries: []discover.Entry{{Path: "/x/CLAUDE.md", Real: "/x/CLAUDE.md", AlwaysLoaded: true, Platform: discover.ClaudeCode}}}
	rep := Measure(res, Config{Read: func(string) ([]byte, error) { return nil, errors.New("denied") }})
	if len(rep.Errors) != 1 || rep.Measurement.Footprint != 0 || len(rep.Files) != 1 {
		t.Fatalf("read error handling: %+v", rep)
	}
}

// TestMeasureAlwaysLoadedSameMeasurement: the light gauge skips planning recall-only notes and
// must not change a single figure of the measurement.
func TestMeasureAlwaysLoadedSameMeasurement(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	memDir := filepath.Join(home, ".claude", "projects", discover.Slug(proj), "memory")
	files := map[string]string{
		filepath.Join(proj, "CLAUDE.md"):            "# Rules\n- run the linters before every push\n- run the linters before every push\n\n\n\n",
		filepath.Join(memDir, "MEMORY.md"):          "- [A](a.md) — note a from 2024-01-02\n- [Gone](gone.md) — removed\n- [A](a.md) — note a from 2024-01-02\n",
		filepath.Join(memDir, "a.md"):               "# A\n- the same recall-only line here\n- the same recall-only line here\n\n\n\n",
		filepath.Join(memDir, "b.md"):               "- run the linters before every push\n",
		filepath.Join(memDir, "broken.md"):          "bad \xff byte\n",
		filepath.Join(home, ".claude", "CLAUDE.md"): "- run the linters before every push\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj})
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := quick.ScanTree([]string{proj, memDir}, 1000)
	full := Measure(res, Config{Read: os.ReadFile, Quick: quick.Options{Tree: tree}})
	light := Measure(res, Config{Read: os.ReadFile, Quick: quick.Options{Tree: tree}, Light: true})
	a, b := full.Measurement, light.Measurement
	if a.Footprint != b.Footprint || a.Fat != b.Fat || a.StoreTokens != b.StoreTokens || a.Inherited != b.Inherited ||
		a.IndexBytes != b.IndexBytes || a.IndexLines != b.IndexLines || len(a.Files) != len(b.Files) || a.Fat == 0 {
		t.Fatalf("full %+v\nlight %+v", a, b)
	}
	if len(light.Plan.Files) >= len(full.Plan.Files) {
		t.Fatalf("light planned %d files, full %d", len(light.Plan.Files), len(full.Plan.Files))
	}
}

func writeAll(t *testing.T, files map[string]string) {
	t.Helper()
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPerPlatformTotals: a repository with the same guide as CLAUDE.md, AGENTS.md and
// GEMINI.md (as 0000005/WeAgentChat ships it), a .cursorrules and a Copilot file. Each agent
// loads its own files: the figures are per platform and the headline is one platform's, never
// the sum no agent loads.
func TestPerPlatformTotals(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	guide := "# Guide\n\n" + strings.Repeat("- Use pnpm for every package script in this repository.\n", 1) + "- Tests run with vitest; never with jest.\n"
	writeAll(t, map[string]string{
		filepath.Join(proj, ".git", "HEAD"):                       "ref: refs/heads/main\n",
		filepath.Join(proj, "CLAUDE.md"):                          guide,
		filepath.Join(proj, "AGENTS.md"):                          guide,
		filepath.Join(proj, "GEMINI.md"):                          guide,
		filepath.Join(proj, ".cursorrules"):                       "- Prefer small components.\n",
		filepath.Join(proj, ".github", "copilot-instructions.md"): "Answer briefly.\n",
	})
	res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj})
	if err != nil {
		t.Fatal(err)
	}
	rep := Measure(res, Config{Read: os.ReadFile})
	one := gauge.Estimate([]byte(guide))
	loads := map[string]gauge.PlatformLoad{}
	for _, l := range rep.Measurement.Platforms {
		loads[l.Platform] = l
	}
	cursorRules := gauge.Estimate([]byte("- Prefer small components.\n"))
	want := map[string]int{discover.ClaudeCode: one, discover.Codex: one, discover.Gemini: one,
		discover.Cursor: one + cursorRules, discover.Copilot: 3*one + gauge.Estimate([]byte("Answer briefly.\n"))}
	for p, n := range want {
		if loads[p].Footprint != n {
			t.Errorf("%s loads %d tok, want %d (%+v)", p, loads[p].Footprint, n, loads[p])
		}
	}
	m := rep.Measurement
	// The Copilot CLI and coding agent read the root AGENTS.md, CLAUDE.md and GEMINI.md
	// beside .github/copilot-instructions.md: the largest load here.
	if m.Platform != discover.Copilot || m.Footprint != want[discover.Copilot] {
		t.Errorf("headline %s %d, want copilot %d (the largest load)", m.Platform, m.Footprint, want[discover.Copilot])
	}
	// The session's own platform, when known, is the headline.
	rep = Measure(res, Config{Read: os.ReadFile, Platform: discover.ClaudeCode})
	if rep.Measurement.Platform != discover.ClaudeCode || rep.Measurement.Footprint != one {
		t.Errorf("claude headline %+v", rep.Measurement)
	}
	// No figure is the sum across platforms.
	sum := 0
	for _, l := range m.Platforms {
		sum += l.Footprint
	}
	if m.Footprint >= sum {
		t.Errorf("headline %d is the sum %d", m.Footprint, sum)
	}
	// Each identical copy is reported, never cut: every reader keeps its rules.
	cross := 0
	for _, fl := range rep.Plan.Flags {
		if fl.Kind == quick.CrossFileDuplicate {
			cross++
		}
	}
	if cross != 2 || rep.Measurement.Fat != 0 {
		t.Errorf("cross-file copies: %d flags, fat %d: %+v", cross, rep.Measurement.Fat, rep.Plan.Flags)
	}
}

// TestStartInSubdirectory: a session started in pkg/api loads the CLAUDE.md, AGENTS.md and
// GEMINI.md of every directory from the project root down to it, owned like the root's;
// a sibling's files stay out, and so does a subdirectory below the start (loaded only when
// the agent reads files there).
func TestStartInSubdirectory(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	files := map[string]string{filepath.Join(proj, ".git", "HEAD"): "ref: refs/heads/main\n"}
	for _, d := range []string{"", "pkg", "pkg/api", "pkg/web", "pkg/api/internal"} {
		for _, n := range []string{"CLAUDE.md", "AGENTS.md", "GEMINI.md"} {
			files[filepath.Join(proj, d, n)] = "# " + d + " " + n + "\n\n- A rule for " + d + " read by " + n + ".\n"
		}
	}
	files[filepath.Join(proj, "pkg", "api", ".claude", "rules", "api.md")] = "- API rule loaded from the start directory's rules.\n"
	writeAll(t, files)
	res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj, Start: filepath.Join(proj, "pkg", "api")})
	if err != nil {
		t.Fatal(err)
	}
	rep := Measure(res, Config{Read: os.ReadFile})
	got := map[string][]string{}
	for _, f := range rep.Files {
		rel, _ := filepath.Rel(proj, f.Real)
		if !f.Owned || !f.AlwaysLoaded || f.Inherited {
			t.Errorf("%s: owned %v always %v inherited %v", rel, f.Owned, f.AlwaysLoaded, f.Inherited)
		}
		for _, p := range f.Platforms {
			got[p] = append(got[p], filepath.ToSlash(rel))
		}
	}
	want := map[string]string{
		discover.ClaudeCode: "CLAUDE.md pkg/CLAUDE.md pkg/api/CLAUDE.md pkg/api/.claude/rules/api.md",
		discover.Codex:      "AGENTS.md pkg/AGENTS.md pkg/api/AGENTS.md",
		discover.Gemini:     "GEMINI.md pkg/GEMINI.md pkg/api/GEMINI.md",
	}
	for p, w := range want {
		g := got[p]
		sort.Strings(g)
		ws := strings.Fields(w)
		sort.Strings(ws)
		if strings.Join(g, " ") != strings.Join(ws, " ") {
			t.Errorf("%s loads %v, want %v", p, g, ws)
		}
	}
	// From the root, the same project loads a third of that for Claude Code.
	root, _ := discover.Discover(discover.Options{Home: home, ProjectRoot: proj})
	atRoot := Measure(root, Config{Read: os.ReadFile, Platform: discover.ClaudeCode}).Measurement.Footprint
	inSub := Measure(res, Config{Read: os.ReadFile, Platform: discover.ClaudeCode}).Measurement.Footprint
	if inSub <= 2*atRoot {
		t.Errorf("start in pkg/api loads %d tok, the root %d: the subdirectory chain is missing", inSub, atRoot)
	}
}
