package lane

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

const aiwg = `# AIWG framework

## Agents

- Use the test-architect agent for every test strategy change.
- Deployments go through the deployment-manager agent, never by hand.
- Security reviews run before release 4.2 ships.

## Commands

| command | what |
|---|---|
| /flow-start | begin a phase |
| /flow-gate | close a phase after 2 approvals |
`

// A plan that removes CLAUDE.md's @import, with the one handle it visibly drops approved,
// unloads every rule of the imported file from Claude Code (and the Copilot CLI): the gate
// compares each platform's load, not the files on disk, so it blocks; and the dry run's
// receipt is the apply's.
func TestPlanRemovingAnImportUnloadsTheFile(t *testing.T) {
	f := newFixture(t)
	claude := "# Project\n\n@AIWG.md\n\n- Run make check before every commit.\n"
	f.write("CLAUDE.md", claude)
	f.write("AIWG.md", aiwg)
	rw := map[string]any{"type": "rewrite", "path": "CLAUDE.md", "expect": sha(claude), "content": "# Project\n\n- Run make check before every commit.\n", "reason": "trim"}
	p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": []string{"handle:@AIWG.md@CLAUDE.md:3"}, "actions": []any{rw}})
	dry, err := f.lane.ApplyPlan(p, PlanOptions{DryRun: true})
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("unloading AIWG.md passed the gate: %+v %v", dry, err)
	}
	lost := map[string]bool{}
	for _, d := range be.Drops {
		lost[d.Key()] = true
		if d.Source == "AIWG.md" && !strings.Contains(d.Note, "claude-code") {
			t.Errorf("a drop of the unloaded file does not name the platform: %+v", d)
		}
	}
	if !lost["name:test-architect"] || !lost["number:2"] {
		t.Fatalf("the imported file's facts are not drops: %+v", be.Drops)
	}
	if len(dry.Unloaded) == 0 || !strings.Contains(strings.Join(dry.Unloaded, ","), "claude-code no longer loads AIWG.md") {
		t.Errorf("the receipt does not say AIWG.md leaves the load: %+v", dry.Unloaded)
	}
	if dry.After >= dry.Before/2 {
		t.Errorf("dry run %d -> %d: the unloaded file's tokens are not counted", dry.Before, dry.After)
	}
	if f.read("CLAUDE.md") != claude {
		t.Fatal("a blocked plan wrote")
	}
	// Approved at every place, it applies, and its receipt is the dry run's.
	var keys []string
	for _, d := range be.Drops {
		keys = append(keys, PlaceKey(d))
	}
	keys = append(keys, "handle:@AIWG.md@CLAUDE.md:3")
	p = mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": keys, "actions": []any{rw}})
	dry, err = f.lane.ApplyPlan(p, PlanOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.lane.ApplyPlan(p, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Replace(dry.Receipt, "would cut", "cut", 1) != res.Receipt || dry.After != res.After || dry.Before != res.Before {
		t.Fatalf("dry run %q (%d -> %d), apply %q (%d -> %d)", dry.Receipt, dry.Before, dry.After, res.Receipt, res.Before, res.After)
	}
}

// An approval names a token at one place: approving number:1 where one line loses it does not
// let the same plan drop "max 1 per org (COMPANY_CAP=1)" from another line.
func TestApprovalIsByPlace(t *testing.T) {
	f := newFixture(t)
	claude := "# Limits\n\n- Retry at most 1 time on a 503.\n- Invites: max 1 per org (COMPANY_CAP=1).\n"
	f.write("CLAUDE.md", claude)
	shrunk := "# Limits\n\n- Retry on a 503.\n- Invites are capped per org.\n"
	rw := map[string]any{"type": "shrink", "path": "CLAUDE.md", "expect": sha(claude), "content": shrunk, "reason": "shorter"}
	p := mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": []string{"number:1@CLAUDE.md:3"}, "actions": []any{rw}})
	_, err := f.lane.ApplyPlan(p, PlanOptions{DryRun: true})
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatal("an approval at line 3 let line 4's facts go")
	}
	for _, d := range be.Drops {
		if d.Line == 3 && d.Key() == "number:1" {
			t.Errorf("the approved drop still blocks: %+v", d)
		}
	}
	// The same value lost from line 4 is its own drop: line 4 loses other
	// facts too, so only this drop shows the approval did not spread.
	atFour := false
	for _, d := range be.Drops {
		atFour = atFour || (d.Line == 4 && d.Key() == "number:1")
	}
	if !atFour {
		t.Fatalf("line 4's number:1 is not reported: %+v", be.Drops)
	}
	// A value-wide approval is refused outright.
	b := []byte(`{"version":1,"judge":"x","approvedDrops":["number:1"],"actions":[{"type":"delete","path":"a","reason":"r"}]}`)
	if _, err := ParsePlan(b, t.TempDir()); err == nil || !strings.Contains(err.Error(), "names no place") {
		t.Fatalf("value-wide approval: %v", err)
	}
}

// Quick cuts what every loader of a file also loads elsewhere: the CLAUDE.md that imports
// AIWG.md and repeats it loses the copy; the gate passes on every platform's load, and the
// receipt counts each platform's own saving.
func TestQuickCutsTheCopyOfAnImport(t *testing.T) {
	f := newFixture(t)
	claude := "# Project\n\nOur own notes.\n\n@AIWG.md\n\n" + strings.TrimPrefix(aiwg, "# AIWG framework\n\n")
	f.write("CLAUDE.md", claude)
	f.write("AIWG.md", aiwg)
	dry, err := f.lane.Quick(QuickOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.read("CLAUDE.md")
	if strings.Contains(got, "test-architect") || !strings.Contains(got, "@AIWG.md") || !strings.Contains(got, "Our own notes.") {
		t.Fatalf("CLAUDE.md after quick:\n%s", got)
	}
	if f.read("AIWG.md") != aiwg {
		t.Fatal("the imported copy changed")
	}
	shares := map[string]int{}
	for _, p := range res.Platforms {
		shares[p.Platform] = p.Before - p.After
	}
	if shares["claude-code"] <= 0 || shares["copilot"] <= 0 {
		t.Fatalf("per-platform savings %+v", res.Platforms)
	}
	if strings.Replace(dry.Receipt, "would cut", "cut", 1) != res.Receipt {
		t.Fatalf("dry run %q, run %q", dry.Receipt, res.Receipt)
	}
	if res.TokensCut != max(shares["claude-code"], shares["copilot"]) {
		t.Fatalf("tokens cut %d is not one platform's saving %+v", res.TokensCut, shares)
	}
}

// A rewrite that pushes MEMORY.md past Claude Code's 200-line head drops what falls out of the
// load, though every line is still on disk.
func TestPlanPushingLinesPastTheIndexHead(t *testing.T) {
	f := newFixture(t)
	var b strings.Builder
	for i := 1; i <= 190; i++ {
		fmt.Fprintf(&b, "- [note %d](n%d.md): short\n", i, i)
	}
	b.WriteString("- Deploys freeze on 2030-12-20.\n")
	idx := b.String()
	f.memFile("MEMORY.md", idx)
	var grown strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&grown, "- [extra %d](x%d.md): short\n", i, i)
	}
	rw := map[string]any{"type": "rewrite", "path": "memory:MEMORY.md", "expect": sha(idx), "content": grown.String() + idx, "reason": "new notes first"}
	_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{rw}}), PlanOptions{DryRun: true})
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("a fact pushed out of the loaded head passed: %v", err)
	}
	found := false
	for _, d := range be.Drops {
		found = found || d.Key() == "date:2030-12-20" && strings.Contains(d.Note, "claude-code")
	}
	if !found {
		t.Fatalf("the date pushed past line 200 is not a drop for claude-code: %+v", be.Drops)
	}
}

// A subdirectory AGENTS.md repeating its ancestor in the same Codex chain: quick run from that
// directory (the session's start) cuts the repetition from the subdirectory's file, since every
// session that loads it loads the root's too; the root keeps its rules.
func TestQuickCutsASubdirectoryRepeatingItsAncestor(t *testing.T) {
	f := newFixture(t)
	rules := "## Conventions\n\n- Every migration is reviewed by two people.\n- Never edit a released migration once it shipped.\n"
	root := "# Monorepo\n\n" + rules
	f.write("AGENTS.md", root)
	sub := f.write("services/api/AGENTS.md", "# API service\n\nRun the API tests with `make api-test`.\n\n"+rules)
	l := New(f.proj, Options{Home: f.home, Getenv: f.getenv, Now: func() time.Time { return f.clock }, Start: filepath.Dir(sub)})
	res, err := l.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.read(sub)
	if strings.Contains(got, "two people") || !strings.Contains(got, "make api-test") {
		t.Fatalf("services/api/AGENTS.md after quick:\n%s", got)
	}
	if f.read("AGENTS.md") != root {
		t.Fatal("the root AGENTS.md changed")
	}
	saved := map[string]int{}
	for _, p := range res.Platforms {
		saved[p.Platform] = p.Before - p.After
	}
	if saved["codex"] <= 0 {
		t.Fatalf("codex saves nothing: %+v", res.Platforms)
	}
}

// Deleting the file CLAUDE.md imports unloads it from Claude Code (the import stays, pointing
// at nothing): every fact of it is a drop for that platform, though no other file changed.
func TestPlanDeletingAnImportedFile(t *testing.T) {
	f := newFixture(t)
	f.write("CLAUDE.md", "# Project\n\n@AIWG.md\n\n- Run make check before every commit.\n")
	f.write("AIWG.md", aiwg)
	del := map[string]any{"type": "delete", "path": "AIWG.md", "expect": sha(aiwg), "reason": "unused"}
	_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{del}}), PlanOptions{DryRun: true})
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("deleting an imported file passed the gate: %v", err)
	}
	found := false
	for _, d := range be.Drops {
		found = found || d.Key() == "name:test-architect" && strings.Contains(d.Note, "claude-code")
	}
	if !found {
		t.Fatalf("the deleted file's facts are not drops for claude-code: %+v", be.Drops)
	}
	if f.read("AIWG.md") != aiwg {
		t.Fatal("a blocked plan deleted the file")
	}
}

// Codex stops at 32 KiB over the AGENTS.md chain, root first: a root AGENTS.md grown by a plan
// pushes the subdirectory's rules out of Codex's load, though both files are still on disk.
func TestPlanPushingASubdirectoryPastTheCodexBudget(t *testing.T) {
	f := newFixture(t)
	var pad strings.Builder
	for i := 1; pad.Len() < 31*1024; i++ {
		fmt.Fprintf(&pad, "- Guideline %d: keep the handlers small and the errors wrapped.\n", i)
	}
	root := "# Monorepo\n\n" + pad.String()
	f.write("AGENTS.md", root)
	sub := f.write("services/api/AGENTS.md", "# API\n\n- The API listens on port 8443 behind the gateway.\n")
	grown := root + strings.Repeat("- Another guideline that only takes room in the budget.\n", 40)
	rw := map[string]any{"type": "rewrite", "path": "AGENTS.md", "expect": sha(root), "content": grown, "reason": "more rules"}
	l := New(f.proj, Options{Home: f.home, Getenv: f.getenv, Now: func() time.Time { return f.clock }, Start: filepath.Dir(sub)})
	_, err := l.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{rw}}), PlanOptions{DryRun: true})
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("the subdirectory's rules left Codex's load and the gate passed: %v", err)
	}
	found := false
	for _, d := range be.Drops {
		found = found || d.Key() == "number:8443" && strings.Contains(d.Note, "codex")
	}
	if !found {
		t.Fatalf("the port pushed past the budget is not a drop for codex: %+v", be.Drops)
	}
}

// TestSettleCoversOnlyTheApprovedPlace: a gate that names one line for a value
// lost from two (its first) is settled line by line: the approval at line 3
// lets line 3's loss go and moves the drop to line 4, where the same value is
// lost unapproved. TestApprovalIsByPlace cannot show this on its own: the gate
// names each line's loss there, and line 4 loses other facts too.
func TestSettleCoversOnlyTheApprovedPlace(t *testing.T) {
	orig := "# Limits\n\n- Retry 1 time on a 503.\n- Invites: 1 per org.\n"
	result := "# Limits\n\n- Retry on a 503.\n- Invites are capped per org.\n"
	changes := []gate.Change{{Path: "CLAUDE.md", Kind: gate.Rewrite, Orig: []byte(orig), Result: []byte(result)}}
	one := gate.Drop{Token: gate.Token{Type: "number", Value: "1"}, Line: 3, Source: "CLAUDE.md"}
	a := approvals{place: map[string]bool{"number:1@CLAUDE.md:3": true}}
	blocking, approved := a.settle(changes, []gate.Drop{one})
	if len(blocking) != 1 || blocking[0].Line != 4 {
		t.Fatalf("blocking %+v (approved %v): want number:1 still blocking at line 4", blocking, approved)
	}
	a.place["number:1@CLAUDE.md:4"] = true
	if blocking, _ := a.settle(changes, []gate.Drop{one}); len(blocking) != 0 {
		t.Fatalf("both places approved, still blocking: %+v", blocking)
	}
}
