package lane

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRestoreAfterQuick(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Untouched since: the whole event goes back.
	rr, err := f.lane.Restore(res.Event, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(memPath) != fatMemory || f.read("CLAUDE.md") != projectClaude || len(rr.Files) != 2 {
		t.Fatalf("restore %+v", rr)
	}
	// Restoring again changes nothing.
	if rr, err := f.lane.Restore(res.Event, RestoreOptions{}); err != nil || !strings.HasPrefix(rr.Receipt, "restored 0") {
		t.Fatalf("second restore %+v %v", rr, err)
	}
}

func TestRestoreRefusesToLoseNewContent(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	washed := f.read(memPath)
	added := washed + "- A fact written after the wash: deploys freeze on Fridays\n"
	f.write(memPath, added)
	_, err = f.lane.Restore(res.Event, RestoreOptions{})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Lines != 1 {
		t.Fatalf("err = %v", err)
	}
	if f.read(memPath) != added || f.read("CLAUDE.md") == projectClaude {
		t.Fatal("a refused restore wrote")
	}
	// The other file alone can still come back, and the banked bytes are there to merge by hand.
	var claudeRef, memRef string
	evs, _ := f.lane.Bins()
	for _, ev := range evs {
		for _, bf := range ev.Files {
			if strings.HasSuffix(bf.Path, "CLAUDE.md") {
				claudeRef = bf.Ref
			} else {
				memRef = bf.Ref
			}
		}
	}
	if _, err := f.lane.Restore(claudeRef, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if f.read("CLAUDE.md") != projectClaude {
		t.Fatal("single-file restore")
	}
	b, err := f.lane.BinBytes(memRef)
	if err != nil || string(b) != fatMemory {
		t.Fatalf("bin bytes %q %v", b, err)
	}
}

func TestRestoreRecreatesDeletedFile(t *testing.T) {
	f := newFixture(t)
	_, b := planWorld(f)
	// A plan deletes the old note, approving its tokens.
	p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x",
		"approvedDrops": []string{"link:https://example.com/runbook@memory:staging-old.md:3"},
		"actions":       []any{map[string]any{"type": "delete", "path": b, "expect": sha(noteB), "reason": "superseded by staging.md"}}})
	res, err := f.lane.ApplyPlan(p, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("not deleted")
	}
	rr, err := f.lane.Restore(res.Event, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(b) != noteB || rr.Files[0].Action != "create" {
		t.Fatalf("%+v", rr)
	}
}

func TestRestoreRefusesPinnedFile(t *testing.T) {
	f := newFixture(t)
	pin := "---\npinned: true\n---\n- deploy window: 02:00-04:00 UTC\n- owner: @ops (since 2029)\n"
	p := f.memFile("MEMORY.md", pin)
	// The write guard banks the pinned file; an agent then drops a line.
	if err := f.lane.Snapshot("s1", p); err != nil {
		t.Fatal(err)
	}
	cut := "---\npinned: true\n---\n- deploy window: 02:00-04:00 UTC\n"
	f.write(p, cut)
	fyi := f.lane.Compare("s1", p)
	ref := fyi[strings.Index(fyi, "restore ")+len("restore ") : strings.Index(fyi, " --stdout")]
	// Restoring would only add content, but prosewash never writes a pinned file.
	_, err := f.lane.Restore(ref, RestoreOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "pinned") {
		t.Fatalf("err = %v", err)
	}
	if f.read(p) != cut {
		t.Fatal("pinned file touched")
	}
	if b, err := f.lane.BinBytes(ref); err != nil || string(b) != pin {
		t.Fatalf("banked bytes %q %v", b, err)
	}
}

func TestRestoreBadRefs(t *testing.T) {
	f := newFixture(t)
	for _, ref := range []string{"../../etc/passwd", "quick-nope", "quick-20300101T000000-abcdef.7"} {
		if _, err := f.lane.Restore(ref, RestoreOptions{}); err == nil {
			t.Errorf("%q accepted", ref)
		}
	}
}

func TestRestoreUndoesAMerge(t *testing.T) {
	f := newFixture(t)
	a, b := planWorld(f)
	merged := noteA + "Staging moved to port 5433 on 2030-01-04; see [runbook](https://example.com/runbook).\n"
	res, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{
		map[string]any{"type": "merge", "path": a, "expect": sha(noteA), "content": merged, "reason": "dup",
			"sources": []any{map[string]any{"path": b, "expect": sha(noteB)}}}}}), PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The target alone cannot go back: the moved line lives nowhere else now.
	var targetRef string
	evs, _ := f.lane.Bins()
	for _, bf := range evs[0].Files {
		if strings.HasSuffix(bf.Path, "staging.md") {
			targetRef = bf.Ref
		}
	}
	var ce *ConflictError
	if _, err := f.lane.Restore(targetRef, RestoreOptions{}); !errors.As(err, &ce) {
		t.Fatalf("target alone: %v", err)
	}
	// The whole event: the moved line returns with its source.
	if _, err := f.lane.Restore(res.Event, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if f.read(a) != noteA || f.read(b) != noteB {
		t.Fatal("merge not undone")
	}
}
