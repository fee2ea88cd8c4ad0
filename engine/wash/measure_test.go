package wash

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/prosewash/prosewash/engine/wash/discover"
	"github.com/prosewash/prosewash/engine/wash/gate"
	"github.com/prosewash/prosewash/engine/wash/gauge"
	"github.com/prosewash/prosewash/engine/wash/quick"
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
