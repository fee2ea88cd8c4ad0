package bins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func bank(t *testing.T, s *Store, bin string, at time.Time, files ...string) Meta {
	t.Helper()
	var items []Item
	var data [][]byte
	for i, f := range files {
		items = append(items, Item{Path: "/mem/f" + string(rune('a'+i)) + ".md", Op: OpRewrite, Result: fsx.SHA256([]byte("cut"))})
		data = append(data, []byte(f))
	}
	m, err := s.Add(Meta{Bin: bin, At: at, Reason: "test", Items: items}, data)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = s.Commit(m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStoreAddReadList(t *testing.T) {
	s := newStore(t)
	m := bank(t, s, Quick, base, "alpha\n", "beta\n")
	if !ValidID(m.ID) || !strings.HasPrefix(m.ID, "quick-") || m.Bytes != 11 {
		t.Fatalf("meta %+v", m)
	}
	for i, want := range []string{"alpha\n", "beta\n"} {
		b, err := s.Read(m, i)
		if err != nil || string(b) != want {
			t.Fatalf("item %d = %q, %v", i, b, err)
		}
	}
	got, err := s.Get(m.ID)
	if err != nil || !got.Committed || len(got.Items) != 2 {
		t.Fatalf("get: %+v %v", got, err)
	}
	// Private files and directories.
	for _, p := range []string{filepath.Join(s.dir, Quick, m.ID), filepath.Join(s.dir, Quick, m.ID, "0.orig")} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Fatalf("%s: %v %v", p, fi.Mode(), err)
		}
	}
	second := bank(t, s, Quick, base.Add(time.Minute), "gamma\n")
	list, errs := s.List(Quick)
	if len(errs) != 0 || len(list) != 2 || list[0].ID != second.ID {
		t.Fatalf("list %v %v", list, errs)
	}
	// A damaged copy is detected, never served.
	if err := os.WriteFile(filepath.Join(s.dir, Quick, m.ID, "1.orig"), []byte("bXta\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(m, 1); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged item read: %v", err)
	}
}

func TestStoreDiscardOnlyUncommitted(t *testing.T) {
	s := newStore(t)
	m, err := s.Add(Meta{Bin: Plan, At: base, Items: []Item{{Path: "/x", Op: OpDelete}}}, [][]byte{[]byte("x\n")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Discard(m); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(m.ID); err == nil {
		t.Fatal("discarded event still there")
	}
	c := bank(t, s, Plan, base, "kept\n")
	if err := s.Discard(c); err == nil {
		t.Fatal("a committed cut was discarded")
	}
}

func TestRefs(t *testing.T) {
	for _, bad := range []string{"", "../x", "quick-../../etc", "nope-2030", "quick-a.b.c", "quick-x.-1", "quick/a"} {
		if _, _, err := ParseRef(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	id, n, err := ParseRef("plan-20300101T000000-abcdef.2")
	if err != nil || id != "plan-20300101T000000-abcdef" || n != 2 {
		t.Fatalf("%s %d %v", id, n, err)
	}
}

func TestSweepDestroysAndLogs(t *testing.T) {
	s := newStore(t)
	old := bank(t, s, Quick, base.Add(-40*Day), "old\n")
	dupA := bank(t, s, Quick, base.Add(-5*Day-time.Hour), "a\n")
	dupB := bank(t, s, Quick, base.Add(-5*Day-2*time.Hour), "b\n")
	fresh := bank(t, s, Quick, base.Add(-time.Hour), "fresh\n")
	rep := s.Sweep(Quick, base, DefaultPolicy(Quick, 0))
	if len(rep.Errors) != 0 || len(rep.Destroyed) != 2 || rep.Kept != 2 {
		t.Fatalf("sweep %+v", rep)
	}
	for _, gone := range []Meta{old, dupB} {
		if _, err := s.Get(gone.ID); err == nil {
			t.Errorf("%s survived", gone.ID)
		}
	}
	for _, kept := range []Meta{dupA, fresh} {
		if _, err := s.Get(kept.ID); err != nil {
			t.Errorf("%s destroyed: %v", kept.ID, err)
		}
	}
	lines, err := s.ReadDeathLog()
	if err != nil || len(lines) != 2 {
		t.Fatalf("death log %q %v", lines, err)
	}
	for _, l := range lines {
		if !strings.Contains(l, " destroyed ") || !(strings.Contains(l, "rule horizon") || strings.Contains(l, "rule density")) {
			t.Errorf("death log line %q", l)
		}
	}
	// A second sweep at the same time destroys nothing more.
	if rep := s.Sweep(Quick, base, DefaultPolicy(Quick, 0)); len(rep.Destroyed) != 0 {
		t.Fatalf("second sweep destroyed %v", rep.Destroyed)
	}
}

func TestSweepCapConflictIsLogged(t *testing.T) {
	s := newStore(t)
	bank(t, s, Guard, base.Add(-time.Hour), strings.Repeat("x", 100))
	rep := s.Sweep(Guard, base, DefaultPolicy(Guard, 10))
	if rep.Conflict == nil || len(rep.Destroyed) != 0 {
		t.Fatalf("%+v", rep)
	}
	lines, _ := s.ReadDeathLog()
	if len(lines) != 1 || !strings.Contains(lines[0], "cap-conflict") {
		t.Fatalf("%q", lines)
	}
}
