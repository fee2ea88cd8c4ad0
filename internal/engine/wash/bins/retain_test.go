package bins

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"
	"time"
)

// base is an arbitrary fixed instant: tests never depend on the wall clock.
var base = time.Date(2030, 6, 15, 12, 0, 0, 0, time.UTC)

func ev(id string, age time.Duration, bytes int64) Event {
	return Event{ID: id, At: base.Add(-age), Bytes: bytes}
}

func decided(d Decision) (keep, gone map[string]string) {
	keep, gone = map[string]string{}, map[string]string{}
	for _, k := range d.Keep {
		keep[k] = "keep"
	}
	for _, x := range d.Destroy {
		gone[x.ID] = x.Rule
	}
	return
}

func TestRetainLadder(t *testing.T) {
	p := DefaultPolicy(Quick, 0)
	evs := []Event{
		ev("fresh1", 1*time.Hour, 10), ev("fresh2", 2*time.Hour, 10), ev("fresh3", 47*time.Hour, 10),
		// Day 5: three runs, the newest stays.
		ev("d5a", 5*Day+1*time.Hour, 10), ev("d5b", 5*Day+2*time.Hour, 10), ev("d5c", 5*Day+3*time.Hour, 10),
		ev("d6", 6*Day+5*time.Hour, 10),
		// Weeks 3 and 4: one per week.
		ev("w3a", 20*Day, 10), ev("w3b", 20*Day+time.Hour, 10),
		ev("old", 31*Day, 10), ev("older", 45*Day, 10),
	}
	keep, gone := decided(Retain(evs, base, p))
	for _, id := range []string{"fresh1", "fresh2", "fresh3", "d5a", "d6", "w3a"} {
		if keep[id] == "" {
			t.Errorf("%s destroyed (%s), want kept", id, gone[id])
		}
	}
	want := map[string]string{"d5b": RuleDensity, "d5c": RuleDensity, "w3b": RuleDensity, "old": RuleHorizon, "older": RuleHorizon}
	for id, rule := range want {
		if gone[id] != rule {
			t.Errorf("%s: rule %q, want %q", id, gone[id], rule)
		}
	}
	// The plan bin's horizon is 60 days: "old" and "older" stay (one per week).
	keep, _ = decided(Retain(evs, base, DefaultPolicy(Plan, 0)))
	if keep["old"] == "" || keep["older"] == "" {
		t.Errorf("plan bin dropped events inside its 60-day horizon: %v", keep)
	}
}

func TestRetainDoubtKeeps(t *testing.T) {
	evs := []Event{{ID: "zero", Bytes: 5}, {ID: "future", At: base.Add(time.Hour), Bytes: 5}, ev("ancient", 400*Day, 5)}
	keep, gone := decided(Retain(evs, base, DefaultPolicy(Quick, 1)))
	if keep["zero"] == "" || keep["future"] == "" || gone["ancient"] != RuleHorizon {
		t.Fatalf("keep %v gone %v", keep, gone)
	}
}

func TestRetainSizeCap(t *testing.T) {
	// Budget 2 x 100 = 200 bytes.
	p := DefaultPolicy(Quick, 100)
	evs := []Event{
		ev("new", 1*time.Hour, 150), // under 48h: protected
		ev("d3", 3*Day, 60),         // week A
		ev("d4", 4*Day, 60),         // week A or B
		ev("d20", 20*Day, 60),       // alone in its week
		ev("d29", 29*Day, 0),        // weightless, alone in its week
	}
	d := Retain(evs, base, p)
	keep, gone := decided(d)
	if keep["new"] == "" {
		t.Fatal("the size cap evicted an event under 48h")
	}
	var kept int64
	for _, e := range evs {
		if keep[e.ID] != "" {
			kept += e.Bytes
		}
	}
	if kept > p.Budget && d.Conflict == nil {
		t.Fatalf("kept %d > budget %d without a conflict", kept, p.Budget)
	}
	if len(gone) == 0 {
		t.Fatal("nothing evicted over budget")
	}
	for id, rule := range gone {
		if rule != RuleSizeCap {
			t.Errorf("%s: rule %s", id, rule)
		}
	}

	// The 48h floor alone over budget: a conflict, never a deletion under 48h.
	d = Retain([]Event{ev("a", time.Hour, 500), ev("b", 2*time.Hour, 500)}, base, p)
	if len(d.Destroy) != 0 || d.Conflict == nil || d.Conflict.Kept != 1000 {
		t.Fatalf("floor over budget: %+v", d)
	}
}

func TestRetainCapPhases(t *testing.T) {
	// Two weeks with one event each plus a crowded week; the cap first takes the crowded
	// week's older event, sparing each week's last one, then (phase 2) the oldest.
	p := Policy{Horizon: 60 * Day, KeepAll: KeepAllFor, DailyUntil: DailyUntil, Budget: 250}
	evs := []Event{ev("n", time.Hour, 100), ev("w2", 11*Day, 100), ev("w2b", 12*Day, 100), ev("w5", 36*Day, 100)}
	if week(evs[1].At) != week(evs[2].At) {
		t.Fatal("fixture days straddle a week boundary for this base date")
	}
	d := Retain(evs, base, p)
	_, gone := decided(d)
	// Total 400 > 250: phase 1 may only evict w2b (w2 and w5 are the last of their weeks);
	// still 300 > 250, so phase 2 evicts the oldest, w5.
	if gone["w2b"] != RuleSizeCap || gone["w5"] != RuleSizeCap || gone["w2"] != "" || gone["n"] != "" {
		t.Fatalf("gone = %v", gone)
	}
	if d.Conflict != nil {
		t.Fatalf("unexpected conflict %+v", d.Conflict)
	}
}

func TestRetainDeterministic(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	evs := randomEvents(r, 80)
	want := fmt.Sprint(Retain(evs, base, DefaultPolicy(Quick, 2000)))
	for i := 0; i < 20; i++ {
		r.Shuffle(len(evs), func(a, b int) { evs[a], evs[b] = evs[b], evs[a] })
		if got := fmt.Sprint(Retain(evs, base, DefaultPolicy(Quick, 2000))); got != want {
			t.Fatalf("order-dependent decision:\n%s\n%s", got, want)
		}
	}
}

func randomEvents(r *rand.Rand, n int) []Event {
	var evs []Event
	for i := 0; i < n; i++ {
		age := time.Duration(r.Int63n(int64(70 * Day)))
		if r.Intn(10) == 0 {
			age = time.Duration(r.Int63n(int64(48 * time.Hour)))
		}
		evs = append(evs, ev(fmt.Sprintf("e%03d", i), age, r.Int63n(500)))
	}
	return evs
}

// checkInvariants: every event decided exactly once; nothing under 48h, nothing doubtful and
// not the newest destroyed; past the horizon nothing kept.
func checkInvariants(t *testing.T, evs []Event, d Decision, p Policy) {
	t.Helper()
	keep, gone := decided(d)
	if len(keep)+len(gone) != len(evs) {
		t.Fatalf("%d events, %d kept + %d destroyed", len(evs), len(keep), len(gone))
	}
	newest := ""
	sorted := append([]Event(nil), evs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].At.Equal(sorted[j].At) {
			return sorted[i].At.After(sorted[j].At)
		}
		return sorted[i].ID > sorted[j].ID
	})
	if len(sorted) > 0 {
		newest = sorted[0].ID
	}
	for _, e := range evs {
		age := base.Sub(e.At)
		doubt := e.At.IsZero() || e.At.After(base)
		if (doubt || age <= p.KeepAll) && gone[e.ID] != "" {
			t.Fatalf("%s (age %s) destroyed by %s", e.ID, age, gone[e.ID])
		}
		if e.ID == newest && !doubt && age <= p.Horizon && gone[e.ID] != "" {
			t.Fatalf("newest event %s destroyed", e.ID)
		}
		if !doubt && age > p.Horizon && keep[e.ID] != "" {
			t.Fatalf("%s past the horizon kept", e.ID)
		}
	}
}

func TestRetainInvariantsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		evs := randomEvents(r, 1+r.Intn(60))
		p := DefaultPolicy([]string{Quick, Plan}[r.Intn(2)], r.Int63n(3000))
		checkInvariants(t, evs, Retain(evs, base, p), p)
	}
}

func FuzzRetain(f *testing.F) {
	f.Add(int64(1), uint8(10), int64(500))
	f.Add(int64(2), uint8(0), int64(0))
	f.Fuzz(func(t *testing.T, seed int64, n uint8, store int64) {
		if store < 0 {
			store = -store
		}
		r := rand.New(rand.NewSource(seed))
		evs := randomEvents(r, int(n))
		p := DefaultPolicy(Quick, store%100000)
		checkInvariants(t, evs, Retain(evs, base, p), p)
	})
}

func BenchmarkRetain(b *testing.B) {
	evs := randomEvents(rand.New(rand.NewSource(3)), 500)
	p := DefaultPolicy(Quick, 10000)
	for b.Loop() {
		Retain(evs, base, p)
	}
}
