package lane

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/bins"
)

// Each safety check of the apply path must be what stops a loss: with the check on the loss
// is refused; with it disabled (in the test only) the same input loses the fact.

// memoryHas reports whether any memory file of the fixture (project and memory dir) holds s.
func (f *fixture) memoryHas(s string) bool {
	found := false
	for _, dir := range []string{f.root, f.mem} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), s) {
				found = true
			}
			return nil
		})
	}
	return found
}

// binsHave reports whether any banked original holds s.
func (f *fixture) binsHave(s string) bool {
	store := bins.OpenReadOnly(f.stateDir())
	for _, b := range bins.Names() {
		ms, _ := store.List(b)
		for _, m := range ms {
			for i := range m.Items {
				if data, err := store.Read(m, i); err == nil && strings.Contains(string(data), s) {
					return true
				}
			}
		}
	}
	return false
}

func TestMutationGateInApply(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t)
		a, _ := planWorld(f)
		f.lane.off.gate = off
		shrunk := "# Staging\n\nThe staging database runs on port 5433.\n"
		p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{
			map[string]any{"type": "shrink", "path": a, "expect": sha(noteA), "content": shrunk, "reason": "over-verbose"}}})
		_, err := f.lane.ApplyPlan(p, PlanOptions{})
		lost := !strings.Contains(f.read(a), "2030-01-04")
		if !off && (err == nil || lost) {
			t.Fatalf("gate on: err=%v lost=%v", err, lost)
		}
		if off && (err != nil || !lost) {
			t.Fatalf("gate off: the loss should land (err=%v lost=%v)", err, lost)
		}
	}
}

func TestMutationPinRefusal(t *testing.T) {
	const pinnedNote = "---\npinned: true\n---\n# Incident\n\nA queue restart during a backfill drops jobs silently.\n"
	for _, off := range []bool{false, true} {
		f := newFixture(t)
		planWorld(f)
		p0 := f.memFile("incident.md", pinnedNote)
		f.lane.off.pin = off
		// The rewrite keeps every structured token (the dropped sentence states no rule), so only
		// the pin stands in the way.
		p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{
			map[string]any{"type": "rewrite", "path": p0, "expect": sha(pinnedNote), "content": "---\npinned: true\n---\n# Incident\n", "reason": "trim"}}})
		_, err := f.lane.ApplyPlan(p, PlanOptions{})
		lost := !f.memoryHas("drops jobs silently")
		if !off && (err == nil || lost) {
			t.Fatalf("pin on: err=%v lost=%v", err, lost)
		}
		if off && (err != nil || !lost) {
			t.Fatalf("pin off: the loss should land (err=%v lost=%v)", err, lost)
		}
	}
}

func TestMutationAllOrNothing(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t)
		a, b := planWorld(f)
		f.lane.off.allOrNothing = off
		merged := noteA + "Staging moved to port 5433 on 2030-01-04; see [runbook](https://example.com/runbook).\n"
		p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{
			map[string]any{"type": "merge", "path": a, "expect": sha(noteA), "content": merged, "reason": "dup",
				"sources": []any{map[string]any{"path": b, "expect": sha(noteB)}}}}})
		// Someone edits the merge target after the plan was banked, before the swap.
		f.lane.afterBank = func() { f.write(a, noteA+"- edited by hand\n") }
		_, err := f.lane.ApplyPlan(p, PlanOptions{})
		lost := !f.memoryHas("example.com/runbook")
		if !off && (err == nil || lost) {
			t.Fatalf("all-or-nothing on: err=%v lost=%v", err, lost)
		}
		if off && !lost {
			t.Fatalf("all-or-nothing off: the merge's source should be gone from memory (err=%v)", err)
		}
		if !off {
			var ce *ChangedError
			if !errors.As(err, &ce) || f.read(b) != noteB {
				t.Fatalf("err = %v; source %q", err, f.read(b))
			}
		}
	}
}

func TestMutationBinsKeepTheCut(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t)
		_, b := planWorld(f)
		f.lane.off.bank = off
		// An approved delete: the runbook link leaves memory on purpose.
		p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": []string{"link:https://example.com/runbook@memory:staging-old.md:3"},
			"actions": []any{map[string]any{"type": "delete", "path": b, "expect": sha(noteB), "reason": "superseded"}}})
		if _, err := f.lane.ApplyPlan(p, PlanOptions{}); err != nil {
			t.Fatal(err)
		}
		kept := f.memoryHas("example.com/runbook") || f.binsHave("example.com/runbook")
		if !off && !kept {
			t.Fatal("bins on: the cut fact is neither in memory nor in a bin")
		}
		if off && kept {
			t.Fatal("bins off: the fact should be gone from memory and bins")
		}
	}
}
