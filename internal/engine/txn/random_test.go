//go:build unix

package txn

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// fileState is what a file must hold: its exact content, or absent.
type fileState struct {
	content string
	exists  bool
}

// randomStats counts what the randomized test exercised.
type randomStats struct {
	runs, crashes, childRecoverCrashes, commits, conflicts, restored, kept,
	outsideEdits, staleEdits, raceEdits, humanEdits, postCrashEdits, unresolved, steps int
}

// TestRandomizedNoLoss interleaves runs (in child processes), crashes at
// random failpoints, outside edits (before a run reads, while it runs, after
// it crashed) and recoveries, on a fixed list of seeds. After every step
// each file must be exactly what the model says, where the model only ever
// holds an original, a validated candidate, a human edit or an outside
// edit: never anything else, and never a lost edit.
func TestRandomizedNoLoss(t *testing.T) {
	seeds := []uint64{1, 2, 3, 5, 8, 13}
	steps := 25
	if testing.Short() {
		seeds, steps = seeds[:2], 10
	}
	var total randomStats
	distinct := map[randomStats]bool{}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			st := randomSession(t, seed, steps)
			distinct[st] = true
			total.runs += st.runs
			total.crashes += st.crashes
			total.childRecoverCrashes += st.childRecoverCrashes
			total.commits += st.commits
			total.conflicts += st.conflicts
			total.restored += st.restored
			total.kept += st.kept
			total.outsideEdits += st.outsideEdits
			total.staleEdits += st.staleEdits
			total.raceEdits += st.raceEdits
			total.humanEdits += st.humanEdits
			total.postCrashEdits += st.postCrashEdits
			total.unresolved += st.unresolved
			total.steps += st.steps
		})
	}
	// A generator that ignored its seed would run one script over and
	// over; a session that never crashed or never met an outside edit
	// would prove nothing about recovery.
	if len(seeds) > 1 && len(distinct) < 2 {
		t.Errorf("every seed ran the same session (%+v): the generator ignores its seed", total)
	}
	if total.crashes == 0 || total.outsideEdits == 0 || total.commits == 0 {
		t.Errorf("the randomized sessions never crashed, met an outside edit or committed: %+v", total)
	}
	t.Logf("randomized: %d seeds, %d steps, %d runs, %d killed at a failpoint, %d recoveries killed, "+
		"%d files committed, %d conflicts, %d restored, %d kept; outside edits: %d between runs, %d stale reads, "+
		"%d racing a swap, %d after a crash; %d human edits during validation; %d unresolved recoveries abandoned",
		len(seeds), total.steps, total.runs, total.crashes, total.childRecoverCrashes, total.commits, total.conflicts,
		total.restored, total.kept, total.outsideEdits, total.staleEdits, total.raceEdits, total.postCrashEdits, total.humanEdits, total.unresolved)
}

func randomSession(t *testing.T, seed uint64, steps int) randomStats {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	w := newWorld(t)
	names := []string{"a.md", "b.md", "dir/c.md", "d.md", "e.md", "f.md"}
	model := map[string]fileState{}
	for i, n := range names {
		if i < 5 {
			content := fmt.Sprintf("%s original seed %d\u200b\n", n, seed)
			w.write(n, content, 0o644)
			model[n] = fileState{content, true}
		} else {
			model[n] = fileState{}
		}
	}
	var st randomStats
	uniq := 0
	fresh := func(kind string) string {
		uniq++
		return fmt.Sprintf("%s %d.%d\n", kind, seed, uniq)
	}
	check := func(when string) {
		t.Helper()
		for _, n := range names {
			got, ok := w.read(n)
			want := model[n]
			if ok != want.exists || got != want.content {
				t.Fatalf("seed %d, %s: %s = %q (exists %v), want %q (exists %v)", seed, when, n, got, ok, want.content, want.exists)
			}
		}
	}
	for step := range steps {
		st.steps++
		if rng.IntN(100) < 15 {
			// An outside edit between runs: write, delete or create.
			n := names[rng.IntN(len(names))]
			if model[n].exists && rng.IntN(4) == 0 {
				if err := os.Remove(w.path(n)); err != nil {
					t.Fatal(err)
				}
				model[n] = fileState{}
			} else {
				c := fresh("outside")
				w.write(n, c, 0o644)
				model[n] = fileState{c, true}
			}
			st.outsideEdits++
			check(fmt.Sprintf("step %d outside edit", step))
			continue
		}
		st.runs++
		// Plan a run over a random subset.
		before := map[string]fileState{}
		for k, v := range model {
			before[k] = v
		}
		cand := map[string]fileState{}
		var ops []Op
		for _, n := range names {
			if rng.IntN(2) == 0 {
				continue
			}
			cur := model[n]
			switch {
			case !cur.exists:
				c := fresh("created")
				ops = append(ops, Op{Kind: Create, Path: w.path(n), Data: []byte(c), Mode: 0o644})
				cand[n] = fileState{c, true}
			case rng.IntN(5) == 0:
				ops = append(ops, Op{Kind: Delete, Path: w.path(n), Expect: fsx.SHA256([]byte(cur.content))})
				cand[n] = fileState{}
			default:
				c := fresh("candidate")
				ops = append(ops, Op{Kind: Replace, Path: w.path(n), Data: []byte(c), Expect: fsx.SHA256([]byte(cur.content))})
				cand[n] = fileState{c, true}
			}
		}
		if len(ops) == 0 {
			continue
		}
		spec := helperSpec{Mode: "run", Root: w.root, State: w.state, Ops: toHelperOps(ops), Validate: "ok",
			Test: rng.IntN(7) == 0, AllOrNothing: rng.IntN(5) == 0}
		if rng.IntN(4) == 0 {
			spec.Validate = "fail"
		}
		// A stale read: someone edits a planned file after the run read it.
		stale := ""
		if rng.IntN(6) == 0 {
			i := rng.IntN(len(ops))
			n, _ := filepath.Rel(w.root, ops[i].Path)
			n = filepath.ToSlash(n)
			c := fresh("stale")
			w.write(n, c, 0o644)
			model[n] = fileState{c, true}
			before[n] = model[n]
			stale = n
			st.staleEdits++
		}
		// The file the validation command edits by hand, if any.
		var human string
		var humanContent string
		if rng.IntN(6) == 0 {
			for _, n := range names {
				if c, ok := cand[n]; ok && c.exists && n != stale {
					human, humanContent = n, fresh("human")
					spec.HumanEdit = &helperEdit{Path: w.path(n), Data: []byte(humanContent)}
					spec.Validate = "fail"
					break
				}
			}
		}
		// A racing edit: an outside party writes a planned file (not the
		// stale or human one) just before one of the swaps.
		race, raceContent := "", ""
		if rng.IntN(5) == 0 {
			i := rng.IntN(len(ops))
			n, _ := filepath.Rel(w.root, ops[i].Path)
			n = filepath.ToSlash(n)
			if n != stale && n != human {
				race, raceContent = n, fresh("race")
				spec.RaceEdit = &helperEdit{Path: ops[i].Path, Data: []byte(raceContent)}
				spec.RaceAt = 2 + rng.IntN(len(ops)) // call 1 is Begin's check
				spec.RaceDone = filepath.Join(t.TempDir(), "raced")
			}
		}
		fp := ""
		if rng.IntN(100) < 40 {
			all := failpointNames()
			fp = all[rng.IntN(len(all))]
		}
		killed, c := runChild(t, spec, fp)
		when := fmt.Sprintf("step %d (%s, fp=%q, stale=%q, human=%q, race=%q@%d)", step, describe(spec, fp), fp, stale, human, race, spec.RaceAt)
		// The helper marks the racing edit when it makes it; the file's
		// content must not be used to tell, since losing it is the bug
		// this looks for.
		raced := false
		if race != "" {
			_, err := os.Stat(spec.RaceDone)
			raced = err == nil
			if raced {
				st.raceEdits++
			}
		}
		if !killed {
			r := c.res(t)
			for p, s := range r.Files {
				n, _ := filepath.Rel(w.root, p)
				n = filepath.ToSlash(n)
				switch s {
				case StatusCommitted:
					if spec.Test || spec.Validate == "fail" {
						t.Fatalf("%s: %s committed by a run that must not commit", when, n)
					}
					model[n] = cand[n]
					st.commits++
				case StatusKept:
					if n != human && !(raced && n == race) {
						t.Fatalf("%s: %s kept, but only %q was edited", when, n, human)
					}
					if n == human {
						model[n] = fileState{humanContent, true}
					}
					st.kept++
				case StatusConflict:
					st.conflicts++
				case StatusRestored:
					st.restored++
				}
			}
			if raced {
				// Whatever the run did, the racing edit is never overwritten.
				model[race] = fileState{raceContent, true}
			}
			if n := human; n != "" {
				if s, ok := r.Files[w.path(n)]; !ok || (s != StatusKept && s != StatusRestored && s != StatusSkipped && s != StatusConflict) {
					t.Fatalf("%s: human-edited %s reported %q", when, n, s)
				}
			}
			check(when)
			if p, _ := Pending(w.state); len(p) != 0 {
				t.Fatalf("%s: pending %+v after a run that exited", when, p)
			}
			continue
		}
		st.crashes++
		// Before recovery every file is its original, its candidate or the human edit.
		for _, n := range names {
			got, ok := w.read(n)
			cur := fileState{got, ok}
			if cur != before[n] && cur != cand[n] && !(n == human && got == humanContent) && !(n == race && got == raceContent) {
				t.Fatalf("%s: after the crash %s = %q (exists %v): neither original, candidate nor human edit", when, n, got, ok)
			}
		}
		// The human edit happened if validation was reached before the kill;
		// its content is unique, so the file tells.
		humanWritten := false
		if human != "" {
			got, _ := w.read(human)
			humanWritten = got == humanContent
		}
		if humanWritten {
			st.humanEdits++
		}
		// Sometimes a human edits a planned file before recovering.
		postEdit := ""
		var postContent string
		if rng.IntN(4) == 0 {
			i := rng.IntN(len(ops))
			n, _ := filepath.Rel(w.root, ops[i].Path)
			postEdit, postContent = filepath.ToSlash(n), fresh("after-crash")
			w.write(postEdit, postContent, 0o644)
			st.postCrashEdits++
		}
		// Sometimes the recovery itself is killed first, after it restored
		// one file (only possible when the run had installed something).
		installedSome := fp == FailInstalledOne || fp == FailInstalled || fp == FailValidating || fp == FailRollingBack
		if installedSome && rng.IntN(2) == 0 {
			k, c := runChild(t, helperSpec{Mode: "recover", Root: w.root, State: w.state}, FailRollingBackOne)
			if k {
				st.childRecoverCrashes++
			} else if r := c.res(t); r.Err != "" {
				t.Fatalf("%s: child recovery: %s", when, r.Err)
			}
		}
		rep, err := Recover(w.state, RecoverOptions{Root: w.root})
		if err != nil {
			t.Fatalf("%s: recover: %v", when, err)
		}
		for _, n := range names {
			_, planned := cand[n]
			switch {
			case n == postEdit:
				model[n] = fileState{postContent, true}
			case n == race && raced:
				model[n] = fileState{raceContent, true}
			case n == human && humanWritten:
				model[n] = fileState{humanContent, true}
			case fp == FailCommitted && planned && n != stale:
				model[n] = cand[n]
			default:
				model[n] = before[n]
			}
		}
		if rep.Unresolved {
			if postEdit == "" && !humanWritten && !raced {
				t.Fatalf("%s: unresolved without any later edit: %+v", when, rep.Runs)
			}
			st.unresolved++
			for _, r := range rep.Runs {
				if _, err := Abandon(w.state, r.RunID, 0); err != nil {
					t.Fatalf("%s: abandon: %v", when, err)
				}
			}
		}
		check(when + " after recover")
		w.noTrace()
	}
	return st
}
