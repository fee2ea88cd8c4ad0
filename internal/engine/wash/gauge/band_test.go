package gauge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestBandHysteresis(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RunCostMultiplier = 1000 // keep the economic proof out of this test
	steps := []struct {
		fat  int
		want Level
	}{
		{100, Lean}, {499, Lean}, {500, Obese}, {350, Obese}, {201, Obese}, {200, Lean}, {450, Lean}, {600, Obese},
	}
	var st State
	for i, s := range steps {
		v, next := Band(st, Measurement{Footprint: 5000, Fat: s.fat, StoreTokens: 5000}, cfg)
		if v.Band != s.want {
			t.Fatalf("step %d fat %d: band %s, want %s (%s)", i, s.fat, v.Band, s.want, v.Advice)
		}
		if next.Sessions != i+1 {
			t.Fatalf("sessions %d", next.Sessions)
		}
		st = next
	}
}

func TestBandEconomicLatch(t *testing.T) {
	cfg := DefaultConfig()
	// Store of 3000 tokens: a run costs 9000; 600 tok of fat over 30 sessions = 18000 > 9000.
	v, st := Band(State{}, Measurement{Footprint: 3000, Fat: 600, StoreTokens: 3000}, cfg)
	if v.Band != Full || v.Reason != ReasonEconomic || v.RunCost != 9000 || v.BreakEvenSessions != 15 || !v.Economical {
		t.Fatalf("verdict %+v", v)
	}
	if !strings.Contains(v.Advice, "9000") || !strings.Contains(v.Advice, "15.0 sessions") {
		t.Errorf("advice lacks the numbers: %q", v.Advice)
	}
	// The store grows so the fresh proof fails, fat still armed: the latch holds FULL.
	v, st = Band(st, Measurement{Footprint: 3000, Fat: 300, StoreTokens: 9000}, cfg)
	if v.Band != Full || !v.Latched || v.Economical {
		t.Fatalf("latched verdict %+v", v)
	}
	// Fat falls below the disarm line: LEAN clears the latch.
	v, st = Band(st, Measurement{Footprint: 3000, Fat: 100, StoreTokens: 9000}, cfg)
	if v.Band != Lean || st.EconLatched {
		t.Fatalf("lean verdict %+v state %+v", v, st)
	}
	// Armed again but uneconomical: OBESE, not FULL.
	v, _ = Band(st, Measurement{Footprint: 3000, Fat: 500, StoreTokens: 9000}, cfg)
	if v.Band != Obese {
		t.Fatalf("want OBESE, got %+v", v)
	}
}

func TestBandWalls(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		name   string
		m      Measurement
		reason string
	}{
		{"footprint wall, no fat", Measurement{Footprint: 20_000, Fat: 50, StoreTokens: 20_000}, ReasonExternalize},
		{"index lines wall", Measurement{Footprint: 2_000, Fat: 0, IndexLines: 200}, ReasonExternalize},
		{"index bytes wall with fat", Measurement{Footprint: 8_000, Fat: 900, IndexBytes: 30_000, StoreTokens: 100_000}, ReasonWallWash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := Band(State{}, tt.m, cfg)
			if v.Band != Full || v.Reason != tt.reason || len(v.Walls) == 0 {
				t.Fatalf("verdict %+v", v)
			}
			if tt.reason == ReasonExternalize && !strings.Contains(v.Advice, "split or externalize") {
				t.Errorf("advice %q", v.Advice)
			}
		})
	}
}

func TestStateJSONRoundTrip(t *testing.T) {
	_, st := Band(State{}, Measurement{Footprint: 3000, Fat: 600, StoreTokens: 3000, Files: []FileStat{{"/p/CLAUDE.md", 1200}}}, DefaultConfig())
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Schema != StateSchema || !back.Armed || !back.EconLatched || back.Last == nil || back.Last.Files[0].Size != 1200 || back.Last.TotalBytes != 1200 {
		t.Fatalf("round trip lost state: %s", b)
	}
	// A state from an unknown schema starts over un-armed rather than trusting old fields.
	v, _ := Band(State{Schema: 99, Armed: true, EconLatched: true}, Measurement{Footprint: 3000, Fat: 300, StoreTokens: 9000}, DefaultConfig())
	if v.Band != Lean {
		t.Fatalf("unknown schema trusted: %+v", v)
	}
}

func TestRecheck(t *testing.T) {
	cfg := DefaultConfig()
	last := &Snapshot{Files: []FileStat{{"/a", 1000}, {"/b", 500}, {"/c", 10}}}
	sizes := map[string]int64{"/a": 1000, "/b": 900, "/c": 10}
	stat := func(p string) (int64, error) {
		s, ok := sizes[p]
		if !ok {
			return 0, errors.New("missing")
		}
		return s, nil
	}
	d := Recheck(last, stat, cfg)
	if d.Regauge || d.DeltaBytes != 400 || d.DeltaTokens != 100 || len(d.Changed) != 1 {
		t.Fatalf("small drift %+v", d)
	}
	sizes["/b"] = int64(500 + 4*cfg.RegaugeDeltaTokens)
	if d := Recheck(last, stat, cfg); !d.Regauge {
		t.Fatalf("large drift not flagged: %+v", d)
	}
	sizes["/b"] = 500
	delete(sizes, "/c")
	if d := Recheck(last, stat, cfg); !d.Regauge || !d.Changed[0].Missing {
		t.Fatalf("missing file not flagged: %+v", d)
	}
	if d := Recheck(nil, stat, cfg); !d.Regauge {
		t.Fatal("no snapshot must call for a gauge")
	}
}

// A heavy memory with no mechanical fat is not LEAN: what a judgement pass could win arms
// the band, with its own hysteresis, and the advice points at the full pass.
func TestBandJudgementPotential(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RunCostMultiplier = 1000 // keep the economic proof out of the hysteresis steps
	// Over the platform's budget, duplicate-free.
	v, _ := Band(State{}, Measurement{Platform: "claude-code", Footprint: 14_000, StoreTokens: 14_000}, cfg)
	if v.Band != Obese || v.Reason != ReasonJudge || v.OverBudget != 4_000 || v.Budget != 10_000 || v.Potential != 4_000 {
		t.Fatalf("heavy duplicate-free memory: %+v", v)
	}
	if !strings.Contains(v.Advice, "wash full") || !strings.Contains(v.Advice, "10000") {
		t.Errorf("advice %q does not name the full pass and the budget", v.Advice)
	}
	// Codex's budget is its 32 KiB AGENTS.md cap.
	if v, _ := Band(State{}, Measurement{Platform: "codex", Footprint: 9_000, StoreTokens: 9_000}, cfg); v.Band != Obese || v.Budget != 8192 {
		t.Errorf("codex over its 32 KiB cap: %+v", v)
	}
	// Superseded and stale candidates, hysteresis on the fat's lines.
	steps := []struct {
		sup, stale int
		want       Level
	}{{100, 100, Lean}, {300, 250, Obese}, {150, 100, Obese}, {100, 100, Lean}, {0, 499, Lean}, {0, 500, Obese}}
	var st State
	for i, s := range steps {
		v, next := Band(st, Measurement{Platform: "claude-code", Footprint: 3_000, Superseded: s.sup, Stale: s.stale, StoreTokens: 3_000}, cfg)
		if v.Band != s.want {
			t.Fatalf("step %d (%d superseded, %d stale): %s, want %s: %s", i, s.sup, s.stale, v.Band, s.want, v.Advice)
		}
		st = next
	}
	// Mechanical fat keeps its own reason when both are armed.
	if v, _ := Band(State{}, Measurement{Footprint: 3_000, Fat: 600, Superseded: 600, StoreTokens: 3_000}, cfg); v.Reason != ReasonFatArmed {
		t.Errorf("fat and judgement both armed: reason %s", v.Reason)
	}
	// The judgement potential pays for a full pass: FULL, with both figures in the advice.
	v, _ = Band(State{}, Measurement{Platform: "claude-code", Footprint: 3_000, Superseded: 800, StoreTokens: 3_000}, DefaultConfig())
	if v.Band != Full || v.Reason != ReasonEconomic || v.CarryPerSession != 800 || !strings.Contains(v.Advice, "judgement pass") {
		t.Errorf("economic judgement pass: %+v", v)
	}
	// Under the budget with nothing to adjudicate: LEAN, as before.
	if v, _ := Band(State{}, Measurement{Platform: "claude-code", Footprint: 9_000, StoreTokens: 9_000}, cfg); v.Band != Lean {
		t.Errorf("under budget: %+v", v)
	}
}
