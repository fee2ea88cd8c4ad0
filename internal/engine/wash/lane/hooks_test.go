package lane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// lowThresholds arm the band on little fat; the staleness horizon is out of reach so the
// dated lines of the fixtures leave these tests about mechanical fat.
const lowThresholds = "[wash]\nfat_arm_tokens = 20\nfat_disarm_tokens = 5\nstale_days = 36500\n"

func TestMeasureAndRecheckBlockOnce(t *testing.T) {
	f := newFixture(t)
	f.config(lowThresholds)
	f.fatWorld()
	r, err := f.lane.Measure("s1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Band == gauge.Lean || !strings.Contains(r.Context, string(r.Band)) || !strings.Contains(r.Context, "prosewash wash quick") {
		t.Fatalf("session start %+v", r)
	}
	reason, err := f.lane.Recheck("s1")
	if err != nil || !strings.Contains(reason, "`prosewash wash quick`") || strings.Contains(reason, "pgbouncer") {
		t.Fatalf("stop: %q %v", reason, err)
	}
	// Never a repeating nag: the same session, and the next one on a plateau, stay silent.
	for _, s := range []string{"s1", "s2"} {
		if s == "s2" {
			if _, err := f.lane.Measure(s); err != nil {
				t.Fatal(err)
			}
		}
		if reason, _ := f.lane.Recheck(s); reason != "" {
			t.Fatalf("%s: nagged again: %q", s, reason)
		}
	}
	// Quick makes it LEAN; Stop stays silent.
	if _, err := f.lane.Quick(QuickOptions{}); err != nil {
		t.Fatal(err)
	}
	if reason, _ := f.lane.Recheck("s2"); reason != "" {
		t.Fatalf("after quick: %q", reason)
	}
	if st := LoadState(f.stateDir()); st.Verdict.Band != gauge.Lean || st.Crossing != nil {
		t.Fatalf("state after quick %+v", st.Verdict)
	}
}

func TestStopRechecksKnownFilesWithoutDiscovery(t *testing.T) {
	f := newFixture(t)
	f.config(lowThresholds)
	memPath := f.memFile("MEMORY.md", "# Memory\n\n- one fact about the build cache, v1.2.3\n")
	r, err := f.lane.Measure("s1")
	if err != nil || r.Band != gauge.Lean || r.Context != "" {
		t.Fatalf("lean start %+v %v", r, err)
	}
	// A fat file the last gauge never saw: Stop does not walk, so it does not see it.
	f.write("AGENTS.md", strings.Repeat("- a duplicated instruction that costs tokens every session\n", 40))
	if reason, _ := f.lane.Recheck("s1"); reason != "" {
		t.Fatalf("stop discovered a new file: %q", reason)
	}
	// The known index grows by duplicates within the session: a stat sees the drift, the
	// known files are re-read, the band rises, and Stop blocks once.
	f.write(memPath, "# Memory\n\n- one fact about the build cache, v1.2.3\n"+strings.Repeat("- the same note pasted again and again by an agent\n\nPasted once more by the agent.\n\n", 60))
	reason, err := f.lane.Recheck("s1")
	if err != nil || reason == "" {
		t.Fatalf("drift not caught: %q %v", reason, err)
	}
	if reason, _ := f.lane.Recheck("s1"); reason != "" {
		t.Fatal("blocked twice")
	}
}

func TestHooksRespectMode(t *testing.T) {
	for _, mode := range []string{"manual", "off"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t)
			f.config(lowThresholds + "mode = \"" + mode + "\"\n")
			f.fatWorld()
			r, err := f.lane.Measure("s1")
			if err != nil || r.Band != "" || r.Context != "" {
				t.Fatalf("session start %+v %v", r, err)
			}
			if st := LoadState(f.stateDir()); st.Verdict != nil {
				t.Fatal("measured in mode " + mode)
			}
			if reason, _ := f.lane.Recheck("s1"); reason != "" {
				t.Fatal("stop spoke in mode " + mode)
			}
			p := filepath.Join(f.mem, "MEMORY.md")
			if err := f.lane.Snapshot("s1", p); err != nil {
				t.Fatal(err)
			}
			list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Guard)
			if want := map[string]int{"manual": 1, "off": 0}[mode]; len(list) != want {
				t.Fatalf("mode %s: %d guard snapshots, want %d", mode, len(list), want)
			}
		})
	}
}

func TestWriteGuard(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	other := f.write("src/main.go", "package main\n")
	// Not memory, not existing: nothing banked.
	for _, p := range []string{other, filepath.Join(f.mem, "new-note.md")} {
		if err := f.lane.Snapshot("s1", p); err != nil {
			t.Fatal(err)
		}
	}
	// A relative path resolves against the project; CLAUDE.md and MEMORY.md are banked once.
	for i := 0; i < 3; i++ {
		if err := f.lane.Snapshot("s1", "CLAUDE.md"); err != nil {
			t.Fatal(err)
		}
		if err := f.lane.Snapshot("s1", memPath); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Guard)
	if len(list) != 2 {
		t.Fatalf("%d guard snapshots, want 2", len(list))
	}
	// A clean edit (a duplicate removed, a line added) is silent.
	f.write(memPath, fatMemory+"- another note, version 3.1.4\n")
	if fyi := f.lane.Compare("s1", memPath); fyi != "" {
		t.Fatalf("clean edit: %q", fyi)
	}
	// Dropping the release version and the date: one FYI naming the classes and the event.
	f.write(memPath, strings.Replace(fatMemory, "release 2.4.1 shipped on 2030-02-11", "release shipped", 1))
	fyi := f.lane.Compare("s1", memPath)
	if !strings.Contains(fyi, "FYI (not a block)") || !strings.Contains(fyi, "date") || !strings.Contains(fyi, "version") || !strings.Contains(fyi, "prosewash wash restore guard-") {
		t.Fatalf("fyi %q", fyi)
	}
	if strings.Contains(fyi, "2.4.1") {
		t.Fatalf("the FYI quotes content: %q", fyi)
	}
	// Reported once.
	if again := f.lane.Compare("s1", memPath); again != "" {
		t.Fatalf("reported twice: %q", again)
	}
	// Another session snapshots afresh.
	if err := f.lane.Snapshot("s2", memPath); err != nil {
		t.Fatal(err)
	}
	if list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Guard); len(list) != 3 {
		t.Fatalf("%d guard snapshots after a new session", len(list))
	}
	// A file with no snapshot this session is silent.
	if fyi := f.lane.Compare("s3", memPath); fyi != "" {
		t.Fatalf("no snapshot: %q", fyi)
	}
}

func TestMeasureReusesAnUnchangedMeasurement(t *testing.T) {
	f := newFixture(t)
	f.config(lowThresholds)
	f.fatWorld()
	first, err := f.lane.Measure("s1")
	if err != nil {
		t.Fatal(err)
	}
	if LoadState(f.stateDir()).Cache == nil {
		t.Fatal("no cache recorded")
	}
	// Same size, same modification time, different bytes: the cache is trusted (nothing is
	// read), which is what makes a session start cheap.
	memPath := filepath.Join(f.mem, "MEMORY.md")
	fi, _ := os.Stat(memPath)
	f.write(memPath, strings.Replace(fatMemory, "5433", "5434", 2))
	if err := os.Chtimes(memPath, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	second, err := f.lane.Measure("s2")
	if err != nil || second.Verdict.Footprint != first.Verdict.Footprint || second.Verdict.Fat != first.Verdict.Fat {
		t.Fatalf("cached %+v %v", second.Verdict, err)
	}
	if st := LoadState(f.stateDir()); st.Sessions != 2 || len(st.History) != 2 {
		t.Fatalf("sessions %d history %d", st.Sessions, len(st.History))
	}
	// A real change (size) is measured again.
	f.write(memPath, fatMemory+"- The staging database runs on port 5433 behind pgbouncer\n")
	third, err := f.lane.Measure("s3")
	if err != nil || third.Verdict.Footprint <= first.Verdict.Footprint || third.Verdict.Fat <= first.Verdict.Fat {
		t.Fatalf("not re-measured: %+v vs %+v %v", third.Verdict, first.Verdict, err)
	}
	// A new memory file changes the discovered set: measured again.
	f.memFile("extra.md", "- a new recall-only note\n")
	if _, err := f.lane.Measure("s4"); err != nil {
		t.Fatal(err)
	}
	if st := LoadState(f.stateDir()); len(st.Cache.Files) != 4 {
		t.Fatalf("cache files %d", len(st.Cache.Files))
	}
}

// TestOversizedMemoryIsReadByStreaming (issue 9, item 8): a 20 MB CLAUDE.md is over the
// 4 MiB read cap. It is never 0 tokens: the session-start gauge reads it by streaming, bands
// FULL with the advice to split or externalize it and says so; quick never rewrites it; the
// Stop hook's recheck prices it the same way.
func TestOversizedMemoryIsReadByStreaming(t *testing.T) {
	f := newFixture(t)
	para := "Deploy with tool v1.4.2 and check the runbook at https://example.com/runbook before every release.\n\n"
	big := strings.Repeat(para, 20<<20/len(para))
	f.write("CLAUDE.md", big)
	f.memFile("MEMORY.md", "# Memory\n\n- one fact about the build cache, v1.2.3\n")
	r, err := f.lane.Measure("s1")
	if err != nil {
		t.Fatal(err)
	}
	want := gauge.Estimate([]byte(big))
	if r.Band != gauge.Full || r.Verdict.Footprint < want*9/10 || !strings.Contains(r.Context, "split") || !strings.Contains(r.Context, "CLAUDE.md") {
		t.Fatalf("20 MB memory: %+v, footprint %d, want about %d", r, r.Verdict.Footprint, want)
	}
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read("CLAUDE.md") != big {
		t.Fatal("quick rewrote a file over the read cap")
	}
	flagged := false
	for _, fl := range res.Flags {
		flagged = flagged || fl.Kind == "oversize" && fl.Path == "CLAUDE.md"
	}
	if !flagged || len(res.Errors) > 0 {
		t.Fatalf("flags %+v errors %v", res.Flags, res.Errors)
	}
	// The Stop recheck re-reads the known files: the big one by streaming again.
	f.write("CLAUDE.md", big+para)
	if _, err := f.lane.Recheck("s1"); err != nil {
		t.Fatal(err)
	}
	st := LoadState(f.stateDir())
	if st.Verdict == nil || st.Verdict.Footprint < want*9/10 {
		t.Fatalf("stop recheck lost the big file: %+v", st.Verdict)
	}
}

// The write guard banks the legacy single-file rule files too (.cursorrules, .windsurfrules,
// .clinerules): memory a platform loads, named without an extension.
func TestWriteGuardLegacyRuleFiles(t *testing.T) {
	f := newFixture(t)
	names := []string{".cursorrules", ".windsurfrules", ".clinerules"}
	for _, n := range names {
		f.write(n, "- Deploy with release 2.4.1 only.\n- Never skip the review.\n")
	}
	for _, n := range names {
		if err := f.lane.Snapshot("s1", n); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Guard)
	if len(list) != len(names) {
		t.Fatalf("%d guard snapshots of %d legacy rule files", len(list), len(names))
	}
	for _, n := range names {
		f.write(n, "- Deploy with the release only.\n- Never skip the review.\n")
		if fyi := f.lane.Compare("s1", n); !strings.Contains(fyi, n) || !strings.Contains(fyi, "version") {
			t.Errorf("%s: a dropped version is not reported: %q", n, fyi)
		}
	}
}
