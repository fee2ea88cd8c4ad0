package lane

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
)

func sha(s string) string { return fsx.SHA256([]byte(s)).String() }

func mustPlan(t *testing.T, v any) Plan {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(b, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	noteA = "# Staging\n\nThe staging database runs on port 5433 since 2030-01-04.\n"
	noteB = "# Staging (old)\n\nStaging moved to port 5433 on 2030-01-04; see [runbook](https://example.com/runbook).\n"
)

func planWorld(f *fixture) (a, b string) {
	f.memFile("MEMORY.md", "# Memory\n\n- [staging](staging.md)\n- [old staging](staging-old.md)\n")
	a = f.memFile("staging.md", noteA)
	b = f.memFile("staging-old.md", noteB)
	f.write("CLAUDE.md", "# Rules\n\n- Run `make check` first.\n")
	return
}

func TestPlanMergeAppliesAndRecordsKeeps(t *testing.T) {
	f := newFixture(t)
	a, b := planWorld(f)
	// A value must stay on as many distinct lines as the sources had it: the two statements
	// stay, the old note's heading goes.
	merged := "# Staging\n\nThe staging database runs on port 5433 since 2030-01-04.\nStaging moved to port 5433 on 2030-01-04; see [runbook](https://example.com/runbook).\n"
	p := mustPlan(t, map[string]any{
		"version": 1, "judge": "agent:claude-code",
		"actions": []map[string]any{{"type": "merge", "path": a, "expect": sha(noteA), "content": merged, "reason": "duplicate notes",
			"sources": []map[string]any{{"path": b, "expect": sha(noteB)}}}},
		"keeps": []map[string]any{{"target": "CLAUDE.md:3", "reason": "the check target is real", "anchor": "make check", "anchorFile": "CLAUDE.md"}},
	})
	res, err := f.lane.ApplyPlan(p, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(a) != merged {
		t.Fatalf("target %q", f.read(a))
	}
	if _, err := os.Stat(b); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("merged source not deleted")
	}
	if res.Event == "" || !strings.HasPrefix(res.Event, "plan-") || res.Keeps != 1 || res.Receipt == "" {
		t.Fatalf("result %+v", res)
	}
	keeps, err := LoadKeeps(f.stateDir())
	if err != nil || len(keeps) != 1 || keeps[0].Date == "" {
		t.Fatalf("keeps %+v %v", keeps, err)
	}
	// The source is in the plan bin.
	m, err := bins.OpenReadOnly(f.stateDir()).Get(res.Event)
	if err != nil || len(m.Items) != 2 {
		t.Fatalf("bin %+v %v", m, err)
	}
}

func TestPlanGateBlocksUnapprovedDrop(t *testing.T) {
	f := newFixture(t)
	a, _ := planWorld(f)
	shrunk := "# Staging\n\nThe staging database runs on port 5433.\n" // the date is gone
	act := map[string]any{"type": "shrink", "path": a, "expect": sha(noteA), "content": shrunk, "reason": "over-verbose"}
	_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{act}}), PlanOptions{})
	var be *BlockedError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "date:2030-01-04") {
		t.Fatalf("err = %v", err)
	}
	if f.read(a) != noteA {
		t.Fatal("a blocked plan wrote")
	}
	// Approved, it goes through, and the original is in the plan bin.
	res, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": []string{"date:2030-01-04@memory:staging.md:3"}, "actions": []any{act}}), PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(a) != shrunk || res.Event == "" {
		t.Fatalf("approved shrink: %q %+v", f.read(a), res)
	}
}

func TestPlanRefusals(t *testing.T) {
	f := newFixture(t)
	a, b := planWorld(f)
	pinnedNote := f.memFile("pinned.md", "---\npinned: true\n---\nKeep this: version 1.2.3\n")
	outside := f.write(filepath.Join(f.home, "elsewhere.md"), "not memory\n")
	cases := []struct {
		name   string
		action map[string]any
		want   any
	}{
		{"pinned", map[string]any{"type": "delete", "path": pinnedNote, "expect": sha("---\npinned: true\n---\nKeep this: version 1.2.3\n"), "reason": "old"}, new(*RefusedError)},
		{"not memory", map[string]any{"type": "delete", "path": outside, "expect": sha("not memory\n"), "reason": "x"}, new(*RefusedError)},
		{"changed since the plan", map[string]any{"type": "delete", "path": a, "expect": sha("something else\n"), "reason": "x"}, new(*ChangedError)},
		{"settings are not memory", map[string]any{"type": "rewrite", "path": f.write(filepath.Join(f.home, ".claude", "settings.json"), "{}\n"), "expect": sha("{}\n"), "content": "{\"hooks\":{}}\n", "reason": "x"}, new(*RefusedError)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{c.action}}), PlanOptions{})
			switch w := c.want.(type) {
			case **RefusedError:
				if !errors.As(err, w) {
					t.Fatalf("err = %v", err)
				}
			case **ChangedError:
				if !errors.As(err, w) {
					t.Fatalf("err = %v", err)
				}
			}
		})
	}
	if f.read(a) != noteA || f.read(b) != noteB {
		t.Fatal("a refused plan wrote")
	}
	// A missing expect is refused.
	_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{map[string]any{"type": "delete", "path": a, "reason": "x"}}}), PlanOptions{})
	if err == nil || !strings.Contains(err.Error(), "expect") {
		t.Fatalf("missing expect: %v", err)
	}
}

func TestPlanLocalOnly(t *testing.T) {
	f := newFixture(t)
	a, _ := planWorld(f)
	f.config("[wash]\nlocal_only = true\n")
	shrink := map[string]any{"type": "rewrite", "path": a, "expect": sha(noteA), "content": noteA + "\n", "reason": "x"}
	for _, judge := range []string{"agent:claude-code", "remote:api", ""} {
		_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": judge, "actions": []any{shrink}}), PlanOptions{})
		var lo *LocalOnlyError
		if !errors.As(err, &lo) {
			t.Fatalf("judge %q: err = %v", judge, err)
		}
	}
	if _, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "local:ollama-rewrite/qwen2.5", "actions": []any{shrink}}), PlanOptions{DryRun: true}); err != nil {
		t.Fatalf("local judge: %v", err)
	}
}

func TestPlanAnchoredKeepBinds(t *testing.T) {
	f := newFixture(t)
	planWorld(f)
	claude := f.read("CLAUDE.md")
	keep := map[string]any{"target": "CLAUDE.md:3", "reason": "used by CI", "anchor": "Run `make check` first.", "anchorFile": "CLAUDE.md"}
	// A plan that rewrites CLAUDE.md dropping the anchored line (and approving its token).
	rw := map[string]any{"type": "rewrite", "path": "CLAUDE.md", "expect": sha(claude), "content": "# Rules\n", "reason": "trim"}
	_, err := f.lane.ApplyPlan(mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "approvedDrops": []string{"code:make check@CLAUDE.md:3"}, "keeps": []any{keep}, "actions": []any{rw}}), PlanOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "would not survive") {
		t.Fatalf("err = %v", err)
	}
	if f.read("CLAUDE.md") != claude {
		t.Fatal("anchored keep broken")
	}
}

func TestParsePlanRejects(t *testing.T) {
	for name, js := range map[string]string{
		"version":      `{"version":2,"judge":"x","actions":[{"type":"delete","path":"a","reason":"r"}]}`,
		"no actions":   `{"version":1,"judge":"x","actions":[]}`,
		"unknown type": `{"version":1,"judge":"x","actions":[{"type":"nuke","path":"a","reason":"r"}]}`,
		"no reason":    `{"version":1,"judge":"x","actions":[{"type":"delete","path":"a"}]}`,
		"no content":   `{"version":1,"judge":"x","actions":[{"type":"shrink","path":"a","reason":"r"}]}`,
		"both":         `{"version":1,"judge":"x","actions":[{"type":"shrink","path":"a","reason":"r","content":"x","contentFile":"y"}]}`,
		"unknown key":  `{"version":1,"judge":"x","approvedDrop":["a:b"],"actions":[{"type":"delete","path":"a","reason":"r"}]}`,
		"bad approval": `{"version":1,"judge":"x","approvedDrops":["nocolon"],"actions":[{"type":"delete","path":"a","reason":"r"}]}`,
		"merge no src": `{"version":1,"judge":"x","actions":[{"type":"merge","path":"a","reason":"r","content":"x"}]}`,
		"bad utf8":     "{\"version\":1,\"judge\":\"x\",\"actions\":[{\"type\":\"shrink\",\"path\":\"a\",\"reason\":\"r\",\"content\":\"\\u0000\"}]}",
	} {
		if _, err := ParsePlan([]byte(js), t.TempDir()); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A hand-edited plan saved with a byte order mark reads as the same plan.
func TestParsePlanReadsPastAByteOrderMark(t *testing.T) {
	js := `{"version":1,"judge":"x","actions":[{"type":"delete","path":"a","expect":"00","reason":"r"}]}`
	want, err := ParsePlan([]byte(js), "/b")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParsePlan([]byte("\xef\xbb\xbf"+js), "/b")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("with a BOM: %+v, %v; want %+v", got, err, want)
	}
}

func FuzzParsePlan(f *testing.F) {
	f.Add([]byte(`{"version":1,"judge":"local:x","actions":[{"type":"delete","path":"a.md","expect":"00","reason":"r"}]}`))
	f.Add([]byte(`{"version":1,"actions":[{"type":"merge","path":"a","sources":[{"path":"b","expect":"x"}],"content":"c","reason":"r"}],"keeps":[{"target":"t","reason":"r"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePlan(b, t.TempDir())
		if err != nil {
			return
		}
		if p.Version != PlanVersion || len(p.Actions) == 0 {
			t.Fatalf("accepted %+v", p)
		}
		for _, a := range p.Actions {
			if strings.TrimSpace(a.Reason) == "" || a.Path == "" {
				t.Fatalf("accepted action %+v", a)
			}
			if a.Type != ActDelete && a.content == nil && a.Content == nil {
				t.Fatalf("accepted action without content %+v", a)
			}
		}
	})
}

// The brief prints a 16-hex-digit expect: a plan may give it instead of the whole sha256, and
// anything shorter, or a prefix of another hash, is refused.
func TestPlanShortExpect(t *testing.T) {
	f := newFixture(t)
	claude := "# Rules\n\n- Run `make check` first.\n- Run `make check` first.\n"
	f.write("CLAUDE.md", claude)
	shrink := func(expect string) Plan {
		return mustPlan(t, map[string]any{"version": 1, "judge": "agent:x", "actions": []any{map[string]any{"type": "shrink", "path": "CLAUDE.md",
			"expect": expect, "content": "# Rules\n\n- Run `make check` first.\n", "reason": "repeat"}}})
	}
	if _, err := f.lane.ApplyPlan(shrink(sha(claude)[:16]), PlanOptions{DryRun: true}); err != nil {
		t.Fatalf("a 16-digit expect: %v", err)
	}
	var ce *ChangedError
	if _, err := f.lane.ApplyPlan(shrink(sha("other")[:16]), PlanOptions{DryRun: true}); !errors.As(err, &ce) {
		t.Fatalf("another file's expect: %v", err)
	}
	if _, err := f.lane.ApplyPlan(shrink(sha(claude)[:8]), PlanOptions{DryRun: true}); err == nil || !strings.Contains(err.Error(), "16 hex digits") {
		t.Fatalf("an 8-digit expect: %v", err)
	}
}
