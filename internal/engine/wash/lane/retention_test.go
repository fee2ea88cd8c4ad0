package lane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/bins"
)

// fatten appends a fresh duplicate to MEMORY.md so the next quick run has something to cut.
func (f *fixture) fatten(i int) {
	line := "- a note saved twice by an agent, number " + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + "\n"
	p := filepath.Join(f.mem, "MEMORY.md")
	b, _ := os.ReadFile(p)
	f.write(p, string(b)+line+"\nSaved again by the agent.\n\n"+line)
}

// TestBinsAreThinnedOnlyInsideRealRuns: with a fake clock, quick runs bank one event each;
// time passing alone destroys nothing (gauge, stats, bins listings, dry runs, hooks); the next
// real run thins the bin by the ladder and logs every destruction.
func TestBinsAreThinnedOnlyInsideRealRuns(t *testing.T) {
	f := newFixture(t)
	f.memFile("MEMORY.md", "# Memory\n\n- the first fact, port 5433\n")
	// A store large enough that the size cap (twice the store) does not bind: this test is
	// about the ladder.
	var rules strings.Builder
	rules.WriteString("# Rules\n\n")
	for i := 0; i < 400; i++ {
		rules.WriteString("- rule number " + strings.Repeat("i", i%7) + " about the build " + string(rune('A'+i%26)) + string(rune('a'+i/26)) + "\n")
	}
	f.write("CLAUDE.md", rules.String())
	// Five runs on each of three days, 20 days ago.
	start := t0
	for d := 0; d < 3; d++ {
		for k := 0; k < 5; k++ {
			f.clock = start.Add(time.Duration(d)*24*time.Hour + time.Duration(k)*time.Hour)
			f.fatten(d*5 + k)
			if res, err := f.lane.Quick(QuickOptions{}); err != nil || res.Event == "" {
				t.Fatalf("run %d/%d: %+v %v", d, k, res, err)
			}
		}
	}
	store := bins.OpenReadOnly(f.stateDir())
	count := func() int { ms, _ := store.List(bins.Quick); return len(ms) }
	// Runs thin as they go: events older than 48h keep one a day; the last 48h stay whole.
	ms, _ := store.List(bins.Quick)
	recent := 0
	for _, m := range ms {
		if f.clock.Sub(m.At) <= 48*time.Hour {
			recent++
		}
	}
	if recent < 10 || len(ms) < 11 || len(ms) > 12 {
		t.Fatalf("%d events (%d in the last 48h) after three days of runs", len(ms), recent)
	}
	banked := len(ms)
	deathsSoFar, _ := store.ReadDeathLog()
	// 20 days later: reading, listing, gauging, dry runs and hooks destroy nothing.
	f.clock = start.Add(20 * 24 * time.Hour)
	if _, err := f.lane.Gauge(GaugeOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.lane.Stats(); err != nil {
		t.Fatal(err)
	}
	f.lane.Bins()
	f.fatten(99)
	if _, err := f.lane.Quick(QuickOptions{DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.lane.Measure("s"); err != nil {
		t.Fatal(err)
	}
	if err := f.lane.Snapshot("s", filepath.Join(f.mem, "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != banked {
		t.Fatalf("%d events after time passed without a run, want %d", n, banked)
	}
	if lines, _ := store.ReadDeathLog(); len(lines) != len(deathsSoFar) {
		t.Fatalf("death log grew without a real run: %q", lines)
	}
	// A real run: the three days 20 days ago keep one event per week (they fall in one or two
	// weeks), the new run's event stays.
	if _, err := f.lane.Quick(QuickOptions{}); err != nil {
		t.Fatal(err)
	}
	n := count()
	if n < 2 || n > 3 {
		t.Fatalf("%d events after the sweep, want the new one plus one per week", n)
	}
	lines, _ := store.ReadDeathLog()
	if len(lines) != 16-n {
		t.Fatalf("%d death log lines for %d destroyed events", len(lines), 16-n)
	}
	for _, l := range lines {
		if !strings.Contains(l, "rule density") {
			t.Fatalf("death line %q", l)
		}
	}
	// 40 days later still, the next real run destroys the rest by the horizon.
	f.clock = start.Add(60 * 24 * time.Hour)
	f.fatten(100)
	if _, err := f.lane.Quick(QuickOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d events after the horizon, want only the newest", n)
	}
}

func TestStateIsPrivateAndRecordsTheBand(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	g, err := f.lane.Gauge(GaugeOptions{})
	if err != nil || !g.Recorded {
		t.Fatalf("%+v %v", g, err)
	}
	st0 := LoadState(f.stateDir())
	fi, err := os.Stat(statePath(f.stateDir(), st0.Gen))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v %v", fi.Mode(), err)
	}
	st := LoadState(f.stateDir())
	if st.Verdict == nil || st.Band.Last == nil || len(st.Known) != 2 {
		t.Fatalf("state %+v", st)
	}
	// Inherited files are measured and shown, never counted.
	f.write(filepath.Join(filepath.Dir(f.root), "CLAUDE.md"), "# Umbrella\n\n- shared rules for every repository below\n")
	g, _ = f.lane.Gauge(GaugeOptions{})
	if g.Verdict.Inherited == 0 || g.Verdict.Footprint != st.Verdict.Footprint {
		t.Fatalf("inherited %d footprint %d (was %d)", g.Verdict.Inherited, g.Verdict.Footprint, st.Verdict.Footprint)
	}
	// A gauge limited to some platforms is shown, not recorded.
	before := len(LoadState(f.stateDir()).History)
	g, _ = f.lane.Gauge(GaugeOptions{Platforms: []string{"codex"}})
	if g.Recorded || len(LoadState(f.stateDir()).History) != before {
		t.Fatal("a limited gauge was recorded")
	}
	// A torn newest slot falls back to the other one; both torn is a fresh state, never an
	// error.
	cur := LoadState(f.stateDir())
	if err := os.WriteFile(statePath(f.stateDir(), cur.Gen), []byte("{\"schema\":1,\"gen\":99,\"verd"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st := LoadState(f.stateDir()); st.Gen != cur.Gen-1 || st.Verdict == nil {
		t.Fatalf("torn slot: got gen %d, want the other slot's %d", st.Gen, cur.Gen-1)
	}
	if err := os.WriteFile(statePath(f.stateDir(), cur.Gen-1), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st := LoadState(f.stateDir()); st.Verdict != nil || st.Schema != StateSchema {
		t.Fatalf("corrupt state %+v", st)
	}
	if _, err := f.lane.Measure("s1"); err != nil {
		t.Fatal(err)
	}
}

func TestReceiptLine(t *testing.T) {
	for _, c := range []struct {
		before, after int
		dry           bool
		want          string
	}{
		{1000, 860, false, "cut ~140 tok (-14%)"},
		{1000, 1000, false, "cut ~0 tok (-0%)"},
		{1000, 1004, false, "grew ~4 tok (+0.4%)"},
		{1000, 996, true, "would cut ~4 tok (-0.4%)"},
		{0, 0, false, "cut ~0 tok (-0%)"},
		{50, 60, true, "would grow ~10 tok (+20%)"},
	} {
		if got := ReceiptLine(c.before, c.after, c.dry); got != c.want {
			t.Errorf("ReceiptLine(%d, %d, %v) = %q, want %q", c.before, c.after, c.dry, got, c.want)
		}
	}
}
