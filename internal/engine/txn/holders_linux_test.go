package txn

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/testkit/holdfile"
)

// TestKillLoopWithHolders runs the kill -9 loop with one file held by a
// real process that writes to it after every run (killed or not) and its
// recovery: through a shared writable mapping whose descriptor is closed,
// or (for an unattended run, RefuseOtherOpeners) by reopening a read-only
// descriptor for appending through /proc/self/fd/N. Every write the holder
// made must be in the file at its name, the held file is never reported
// committed, and the other files end as their original or, for a run that
// committed, their candidate.
func TestKillLoopWithHolders(t *testing.T) {
	rounds := 12
	if testing.Short() {
		rounds = 5
	}
	cases := []struct {
		mode   holdfile.Mode
		refuse bool
	}{
		{holdfile.MapWrite, false},
		{holdfile.MapProtect, false},
		{holdfile.MapWrite, true},
		{holdfile.Reopen, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/refuse-other-openers=%v", c.mode, c.refuse), func(t *testing.T) {
			killLoopWithHolder(t, c.mode, c.refuse, rounds)
		})
	}
}

func killLoopWithHolder(t *testing.T, mode holdfile.Mode, refuse bool, rounds int) {
	w := newWorld(t)
	const held = "held.md"
	base := "# Held\n\nprose\u200b here\n"
	for range rounds + 1 {
		base += "- " + holdfile.Slot + "\n"
	}
	w.write(held, base, 0o644)
	orig := map[string]string{}
	for i := range 4 {
		name := fmt.Sprintf("f%02d.md", i)
		orig[name] = strings.Repeat(fmt.Sprintf("original %d \u200b\n", i), 4000)
		w.write(name, orig[name], 0o644)
	}
	h := holdfile.Start(t, mode, w.path(held))
	// expect is the held file as every write so far leaves it.
	expect := func(writes int) string {
		if mode == holdfile.Reopen {
			s := base
			for n := 1; n <= writes; n++ {
				s += holdfile.Line(n)
			}
			return s
		}
		return strings.Replace(base, holdfile.Slot, holdfile.Filled, writes)
	}
	spec := helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, RefuseOtherOpeners: refuse}
	ops := func(writes int) []helperOp {
		list := []Op{{Kind: Replace, Path: w.path(held), Data: []byte("# Held\n\nprose here\n"), Expect: fsx.SHA256([]byte(expect(writes)))}}
		for name := range orig {
			list = append(list, w.replace(name, "candidate "+name+"\n"))
		}
		return toHelperOps(list)
	}
	spec.Ops = ops(0)
	killed, c := runChild(t, spec, "")
	if killed {
		t.Fatal("the timing run was killed")
	}
	span := c.res(t).RunUS
	rng := rand.New(rand.NewPCG(11, uint64(span)))
	writes, kills := 0, 0
	for round := range rounds {
		if round > 0 {
			spec.Ops = ops(writes)
			spec.KillAfterUS = 1 + rng.Int64N(span+span/4)
		}
		killed, c := runChild(t, spec, "")
		if !killed {
			if s := c.res(t).Files[w.path(held)]; s == StatusCommitted || s == StatusInstalled {
				t.Fatalf("round %d: the held file was reported %s", round, s)
			}
		} else {
			kills++
		}
		if rep, err := Recover(w.state, RecoverOptions{Root: w.root}); err != nil || rep.Unresolved {
			t.Fatalf("round %d: recover %+v %v\n%s", round, rep, err, c.out.String())
		}
		writes = h.WriteNow(t)
		if got, _ := w.read(held); got != expect(writes) {
			t.Fatalf("round %d (kill after %dus): the holder's write %d is not in the file:\n%q", round, spec.KillAfterUS, writes, got)
		}
		for name := range orig {
			got, _ := w.read(name)
			if got != orig[name] && got != "candidate "+name+"\n" {
				t.Fatalf("round %d: %s holds neither side", round, name)
			}
			w.write(name, orig[name], 0o644)
		}
		w.noTempFiles()
	}
	t.Logf("%d rounds over a %dus run, %d killed, %d writes by the holder, all in the file", rounds, span, kills, writes)
}
