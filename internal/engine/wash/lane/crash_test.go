//go:build unix

package lane

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/txn"
)

const crashHelperEnv = "PROSEWASH_LANE_CRASH_HELPER"

// crashSpec tells the helper process what to run.
type crashSpec struct {
	Root, Home, State string
	Mode              string // quick or plan
	Plan              []byte
	// ConflictPath/ConflictData: a foreign write after banking, to force a rollback.
	ConflictPath string
	ConflictData string
}

// TestLaneCrashHelper is the child process of the crash tests: it runs one wash with the
// failpoint from its environment armed and is expected to be killed by it. Run directly it
// has nothing to do.
func TestLaneCrashHelper(t *testing.T) {
	specPath := os.Getenv(crashHelperEnv)
	if specPath == "" {
		return
	}
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	var spec crashSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PROSEWASH_STATE_DIR": spec.State, "HOME": spec.Home, "XDG_CONFIG_HOME": filepath.Join(spec.Home, ".xdg"),
		txn.EnvFailpoint: os.Getenv(txn.EnvFailpoint)}
	getenv := func(k string) string { return env[k] }
	p, err := project.Find(project.Options{Root: spec.Root, Dir: spec.Root, Getenv: getenv, Home: spec.Home})
	if err != nil {
		t.Fatal(err)
	}
	l := New(p, Options{Home: spec.Home, Getenv: getenv, Now: func() time.Time { return t0 }})
	if spec.ConflictPath != "" {
		l.afterBank = func() { _ = os.WriteFile(spec.ConflictPath, []byte(spec.ConflictData), 0o644) }
	}
	switch spec.Mode {
	case "quick":
		_, err = l.Quick(QuickOptions{})
	case "plan":
		var pl Plan
		if pl, err = ParsePlan(spec.Plan, spec.Root); err == nil {
			_, err = l.ApplyPlan(pl, PlanOptions{})
		}
	}
	// Reaching here means the failpoint did not fire; the parent reports it.
	t.Logf("helper finished without being killed: %v", err)
}

// runCrashChild runs the helper and reports whether SIGKILL ended it.
func runCrashChild(t *testing.T, spec crashSpec, failpoint string) (bool, string) {
	t.Helper()
	b, _ := json.Marshal(spec)
	sp := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(sp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLaneCrashHelper$", "-test.count=1", "-test.v")
	var envv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, txn.EnvFailpoint+"=") && !strings.HasPrefix(kv, crashHelperEnv+"=") {
			envv = append(envv, kv)
		}
	}
	cmd.Env = append(envv, crashHelperEnv+"="+sp, txn.EnvFailpoint+"="+failpoint)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, string(out)
		}
	}
	return false, string(out)
}

// crashCase is one scenario: the files involved, their originals and gated results (absent
// content means "no file").
type crashCase struct {
	f        *fixture
	spec     crashSpec
	orig     map[string]*string
	result   map[string]*string
	conflict bool
}

func strp(s string) *string { return &s }

func quickCase(t *testing.T, conflict bool) crashCase {
	f := newFixture(t)
	f.fatWorld()
	c := crashCase{f: f, spec: crashSpec{Root: f.root, Home: f.home, State: f.state, Mode: "quick"}, orig: map[string]*string{}, result: map[string]*string{}}
	r, err := f.lane.measure(nil, true, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range r.rep.Plan.Files {
		real := r.realOf(fp.Path)
		c.orig[real], c.result[real] = strp(string(fp.Orig)), strp(string(fp.New))
	}
	if conflict {
		// The memory index is installed after CLAUDE.md; a foreign write to it after the
		// originals are banked makes the install fail and the run roll back.
		c.conflict = true
		c.spec.ConflictPath = filepath.Join(f.mem, "MEMORY.md")
		c.spec.ConflictData = fatMemory + "- written by another tool mid-run\n"
	}
	return c
}

func planCase(t *testing.T) crashCase {
	f := newFixture(t)
	a, b := planWorld(f)
	merged := noteA + "Staging moved to port 5433 on 2030-01-04; see [runbook](https://example.com/runbook).\n"
	plan, _ := json.Marshal(map[string]any{"version": 1, "judge": "agent:x", "actions": []any{
		map[string]any{"type": "merge", "path": a, "expect": sha(noteA), "content": merged, "reason": "dup",
			"sources": []any{map[string]any{"path": b, "expect": sha(noteB)}}}}})
	return crashCase{f: f, spec: crashSpec{Root: f.root, Home: f.home, State: f.state, Mode: "plan", Plan: plan},
		orig: map[string]*string{a: strp(noteA), b: strp(noteB)}, result: map[string]*string{a: strp(merged), b: nil}}
}

func (c crashCase) check(t *testing.T, committed bool) {
	t.Helper()
	// No temporary file of a swap is left beside any memory file.
	for p := range c.orig {
		ents, _ := os.ReadDir(filepath.Dir(p))
		for _, e := range ents {
			if strings.Contains(e.Name(), ".prosewash-") {
				t.Errorf("temporary file left beside %s: %s", p, e.Name())
			}
		}
	}
	for p, o := range c.orig {
		want := o
		if committed {
			want = c.result[p]
		}
		if c.conflict && p == c.spec.ConflictPath {
			want = strp(c.spec.ConflictData) // the foreign write wins, never overwritten
		}
		b, err := os.ReadFile(p)
		switch {
		case want == nil && !errors.Is(err, os.ErrNotExist):
			t.Errorf("%s exists, want deleted", p)
		case want != nil && err != nil:
			t.Errorf("%s: %v", p, err)
		case want != nil && string(b) != *want:
			r := c.result[p]
			t.Errorf("%s is neither what it was nor the gated result:\n%q\nwant %q (result %v)", p, b, *want, r != nil && string(b) == *r)
		}
	}
}

// TestCrashAtEveryFailpoint kills a real wash with SIGKILL at each failpoint, recovers in
// this process, and checks every memory file is byte-identical to its original, or to the
// gated result when the run had committed, and that the next wash runs.
func TestCrashAtEveryFailpoint(t *testing.T) {
	type scenario struct {
		name      string
		mk        func(*testing.T) crashCase
		failpoint string
	}
	var all []scenario
	for _, fp := range []string{txn.FailPrepared, txn.FailInstallingOne, txn.FailInstalledOne, txn.FailInstalled, txn.FailCommitted} {
		all = append(all, scenario{"quick/" + fp, func(t *testing.T) crashCase { return quickCase(t, false) }, fp})
		all = append(all, scenario{"plan/" + fp, planCase, fp})
	}
	for _, fp := range []string{txn.FailRollingBack, txn.FailRollingBackOne, txn.FailRestored} {
		all = append(all, scenario{"quick-conflict/" + fp, func(t *testing.T) crashCase { return quickCase(t, true) }, fp})
	}
	for _, sc := range all {
		t.Run(sc.name, func(t *testing.T) {
			c := sc.mk(t)
			killed, out := runCrashChild(t, c.spec, sc.failpoint)
			if !killed {
				t.Fatalf("the helper was not killed at %s:\n%s", sc.failpoint, out)
			}
			rep, err := c.f.lane.Recover()
			if err != nil {
				t.Fatal(err)
			}
			if rep.Unresolved {
				t.Fatalf("recovery unresolved: %+v", rep.Runs)
			}
			c.check(t, sc.failpoint == txn.FailCommitted)
			if p, _ := txn.Pending(c.f.stateDir()); len(p) != 0 {
				t.Fatalf("still pending: %+v", p)
			}
			// The lane runs again after recovery.
			if c.spec.Mode == "quick" {
				if _, err := c.f.lane.Quick(QuickOptions{}); err != nil {
					t.Fatalf("quick after recovery: %v", err)
				}
			}
		})
	}
}

// TestPendingJournalRefusesRuns: while an interrupted run is pending, a wash refuses.
func TestPendingJournalRefusesRuns(t *testing.T) {
	c := quickCase(t, false)
	if killed, out := runCrashChild(t, c.spec, txn.FailInstalledOne); !killed {
		t.Fatalf("not killed:\n%s", out)
	}
	_, err := c.f.lane.Quick(QuickOptions{})
	var pe *txn.PendingError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a pending journal refusal", err)
	}
	if _, err := c.f.lane.Recover(); err != nil {
		t.Fatal(err)
	}
	c.check(t, false)
}
