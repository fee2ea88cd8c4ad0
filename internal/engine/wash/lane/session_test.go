package lane

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// The spawn meter counts SubagentStart reports and prices each at the files the session
// reported loading; the PostToolUse fallback never double-counts a spawn the exact meter saw.
func TestSpawnMeter(t *testing.T) {
	f := newFixture(t)
	claude := f.write("CLAUDE.md", strings.Repeat("- a rule the agent follows in every session\n", 40))
	local := f.write("CLAUDE.local.md", "- my own note for this checkout\n")
	for _, ld := range []Loaded{{Path: claude, LoadReason: "session_start", MemoryType: "Project", Cwd: f.root},
		{Path: local, LoadReason: "session_start", MemoryType: "Local", Cwd: f.root}} {
		if err := f.lane.RecordLoaded("s1", ld); err != nil {
			t.Fatal(err)
		}
	}
	want := gauge.Estimate([]byte(f.read(claude))) + gauge.Estimate([]byte(f.read(local)))
	if err := f.lane.RecordSpawn("s1", "general-purpose", "a1", ViaSubagentStart); err != nil {
		t.Fatal(err)
	}
	// The same spawn seen by PostToolUse (older-CLI fallback) and by a second install.
	if err := f.lane.RecordSpawn("s1", "general-purpose", "a1", ViaToolUse); err != nil {
		t.Fatal(err)
	}
	if err := f.lane.RecordSpawn("s1", "general-purpose", "a1", ViaSubagentStart); err != nil {
		t.Fatal(err)
	}
	if err := f.lane.RecordSpawn("s1", "Explore", "a2", ViaSubagentStart); err != nil {
		t.Fatal(err)
	}
	s, err := f.lane.Spawns("s1")
	if err != nil {
		t.Fatal(err)
	}
	if s.Spawns != 2 || s.Tokens != 2*want || s.Via != ViaSubagentStart || s.ByType["general-purpose"] != 1 || s.ByType["Explore"] != 1 {
		t.Fatalf("spawns = %+v, want 2 spawns of %d tok each", s, want)
	}
	// A PostToolUse report written before the spawn's SubagentStart (hooks race): the exact
	// meter wins, the spawn counts once.
	if err := f.lane.RecordSpawn("race", "general-purpose", "a9", ViaToolUse); err != nil {
		t.Fatal(err)
	}
	if err := f.lane.RecordSpawn("race", "general-purpose", "a9", ViaSubagentStart); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.lane.Spawns("race"); s.Spawns != 1 || s.Via != ViaSubagentStart {
		t.Fatalf("raced spawn = %+v, want it once, by SubagentStart", s)
	}
	// An older CLI: no SubagentStart, PostToolUse counts, priced at the last gauge's load.
	if _, err := f.lane.Gauge(GaugeOptions{}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := f.lane.RecordSpawn("old", "general-purpose", "", ViaToolUse); err != nil {
			t.Fatal(err)
		}
	}
	s, _ = f.lane.Spawns("old")
	st := LoadState(f.stateDir())
	var load int
	for _, p := range st.Cache.Measurement.Platforms {
		if p.Platform == discover.ClaudeCode {
			load = p.Footprint + p.Inherited
		}
	}
	if s.Spawns != 3 || load == 0 || s.Tokens != 3*load || s.Via != ViaToolUse {
		t.Fatalf("fallback spawns = %+v, want 3 of %d tok", s, load)
	}
	all, _ := f.lane.AllSpawns()
	if len(all) != 3 {
		t.Errorf("all spawns: %+v", all)
	}
}

// Hooks run in parallel: many processes appending to one session record lose no line and
// tear none.
func TestSessionRecordParallelAppends(t *testing.T) {
	f := newFixture(t)
	const workers, each = 8, 50
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := New(f.proj, Options{Home: f.home, Getenv: f.getenv})
			for i := range each {
				if err := l.RecordSpawn("par", "t", fmt.Sprintf("w%d-%d", w, i), ViaSubagentStart); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	// Processes too: the test binary appends from children.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for p := range 4 {
		cmd := exec.Command(exe, "-test.run=^TestSessionRecordAppendChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PROSEWASH_APPEND_CHILD="+fmt.Sprint(p), "PROSEWASH_APPEND_STATE="+f.state,
			"PROSEWASH_APPEND_ROOT="+f.root, "PROSEWASH_APPEND_HOME="+f.home)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := f.lane.SessionEvents("par")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != workers*each+4*each {
		t.Fatalf("%d events, want %d", len(evs), workers*each+4*each)
	}
	b, _ := os.ReadFile(sessionRecordPath(f.stateDir(), "par"))
	if n := strings.Count(string(b), "\n"); n != len(evs) {
		t.Errorf("%d lines, %d events: a line was torn", n, len(evs))
	}
}

// TestSessionRecordAppendChild is a child process of TestSessionRecordParallelAppends; run
// directly it has nothing to do.
func TestSessionRecordAppendChild(t *testing.T) {
	p := os.Getenv("PROSEWASH_APPEND_CHILD")
	if p == "" {
		return
	}
	f := &fixture{t: t, root: os.Getenv("PROSEWASH_APPEND_ROOT"), home: os.Getenv("PROSEWASH_APPEND_HOME"), state: os.Getenv("PROSEWASH_APPEND_STATE")}
	f.env = map[string]string{"PROSEWASH_STATE_DIR": f.state, "HOME": f.home}
	f.reopen()
	for i := range 50 {
		if err := f.lane.RecordSpawn("par", "t", fmt.Sprintf("p%s-%d", p, i), ViaSubagentStart); err != nil {
			t.Fatal(err)
		}
	}
}

// The gauge prefers what the last session reported loading over the derived chain, says so,
// and keeps the derived chain as the fallback.
func TestGaugePrefersInstructionsLoaded(t *testing.T) {
	f := newFixture(t)
	claude := f.write("CLAUDE.md", "# Rules\n\n- one rule for every session\n")
	notLoaded := f.write(".claude/CLAUDE.md", "# More\n\n- a file this CLI version did not load\n")
	extra := f.write("docs/shared.md", "# Shared\n\n- a file the CLI loaded by a rule the derivation does not know\n")
	outside := filepath.Join(t.TempDir(), "elsewhere.md")
	if err := os.WriteFile(outside, []byte("- not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := f.lane.Gauge(GaugeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Source == nil || g.Source.Source != SourceDerived {
		t.Fatalf("no record: source %+v, want derived", g.Source)
	}
	for _, p := range []string{claude, extra, outside} {
		if err := f.lane.RecordLoaded("s1", Loaded{Path: p, LoadReason: "session_start", MemoryType: "Project", Cwd: f.root}); err != nil {
			t.Fatal(err)
		}
	}
	// A report from a session started elsewhere is another load, never this one.
	if err := f.lane.RecordLoaded("s0", Loaded{Path: notLoaded, LoadReason: "session_start", Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	g, err = f.lane.Gauge(GaugeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Source == nil || g.Source.Source != SourceLoaded || g.Source.Session != "s1" {
		t.Fatalf("source %+v, want instructions-loaded from s1", g.Source)
	}
	loaded := map[string]bool{}
	for _, fr := range g.Files {
		if fr.Platform == discover.ClaudeCode && fr.AlwaysLoaded && !fr.Inherited {
			loaded[fr.Real] = true
			if fr.Real == extra && fr.Owned {
				t.Error("a reported file the derivation did not find is owned: it must be measured only")
			}
		}
	}
	if !loaded[claude] || !loaded[extra] || loaded[notLoaded] || loaded[outside] || len(loaded) != 2 {
		t.Errorf("loaded = %v, want CLAUDE.md and docs/shared.md", loaded)
	}
	if len(g.Source.NotLoaded) != 1 || g.Source.NotLoaded[0] != notLoaded || len(g.Source.Extra) != 1 {
		t.Errorf("source %+v", g.Source)
	}
	// The reported file's tokens are part of the load it was reported in.
	want := 0
	for _, fr := range g.Files {
		if fr.Real == claude || fr.Real == extra {
			want += fr.Tokens
		}
	}
	for _, pl := range g.Measure.Platforms {
		if pl.Platform == discover.ClaudeCode && pl.Footprint < want {
			t.Errorf("claude-code footprint %d leaves out the reported file (want at least %d)", pl.Footprint, want)
		}
	}
	found := false
	for _, p := range g.Problems {
		found = found || p.Path == outside
	}
	if !found {
		t.Errorf("a reported path outside every root was not refused: %+v", g.Problems)
	}
}
