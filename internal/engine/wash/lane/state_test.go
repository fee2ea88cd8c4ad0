package lane

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// loadBothSlots is LoadState as it was before it read the generations
// from the front: decode both slots, keep the valid one with the higher
// generation (the first on a tie).
func loadBothSlots(stateDir string) State {
	best := State{Schema: StateSchema}
	found := false
	for slot := uint64(0); slot < 2; slot++ {
		b, err := os.ReadFile(statePath(stateDir, slot))
		if err != nil {
			continue
		}
		var s State
		if json.Unmarshal(b, &s) != nil || s.Schema != StateSchema {
			continue
		}
		if !found || s.Gen > best.Gen {
			best, found = s, true
		}
	}
	return best
}

// TestLoadStateChoosesTheSlotBothDecodesWould writes slot pairs (either
// missing, torn after its generation, of another schema, of equal
// generations, written by another encoder) and checks that LoadState
// returns what decoding both slots returns.
func TestLoadStateChoosesTheSlotBothDecodesWould(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	slotText := func(gen int) string {
		s := State{Schema: StateSchema, Gen: uint64(gen), Sessions: rng.IntN(50)}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		switch rng.IntN(7) {
		case 0:
			return ""
		case 1:
			return string(b[:len(b)/2]) // torn
		case 2:
			return strings.Replace(string(b), `"schema":1`, `"schema":2`, 1)
		case 3:
			return `{ "gen": ` + strconv.Itoa(gen) + `, "schema": 1, "sessions": 7 }` // another encoder
		}
		return string(b)
	}
	for round := 0; round < 2000; round++ {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "wash"), 0o700); err != nil {
			t.Fatal(err)
		}
		for slot := uint64(0); slot < 2; slot++ {
			if text := slotText(rng.IntN(4)); text != "" {
				if err := os.WriteFile(statePath(dir, slot), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got, want := LoadState(dir), loadBothSlots(dir); !reflect.DeepEqual(got, want) {
			a, _ := os.ReadFile(statePath(dir, 0))
			b, _ := os.ReadFile(statePath(dir, 1))
			t.Fatalf("slots %q and %q: LoadState = %+v, want %+v", a, b, got, want)
		}
	}
}

// TestReadEventsOfIsReadEventsFiltered appends random events (paths and
// prices that spell another kind's name, torn lines between them) and
// checks that reading one kind gives what reading every event and keeping
// that kind gives.
func TestReadEventsOfIsReadEventsFiltered(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	kinds := []string{EvLoaded, EvSpawn, "start"}
	words := []string{"loaded", "spawn", "start", "/x/loaded/CLAUDE.md", `"loaded"`, "gauge", ""}
	for round := 0; round < 200; round++ {
		dir := t.TempDir()
		for n := rng.IntN(30); n > 0; n-- {
			ev := SessionEvent{Ev: kinds[rng.IntN(len(kinds))], At: time.Unix(int64(rng.IntN(1e9)), 0).UTC(), Session: "s1",
				Path: words[rng.IntN(len(words))], Priced: words[rng.IntN(len(words))], LoadReason: words[rng.IntN(len(words))]}
			if err := appendEvent(dir, ev); err != nil {
				t.Fatal(err)
			}
			if rng.IntN(8) == 0 {
				f, err := os.OpenFile(sessionRecordPath(dir, "s1"), os.O_WRONLY|os.O_APPEND, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = f.WriteString(`{"ev":"loaded","at":"20` + "\n")
				f.Close()
			}
		}
		path := sessionRecordPath(dir, "s1")
		all, err := readEvents(path)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, kind := range kinds {
			var want []SessionEvent
			for _, ev := range all {
				if ev.Ev == kind {
					want = append(want, ev)
				}
			}
			got, _ := readEventsOf(path, kind)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, kind %q: readEventsOf = %+v, want %+v", round, kind, got, want)
			}
		}
	}
}
