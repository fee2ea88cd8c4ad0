//go:build unix

package txn

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// archiveWorld is a project root, a transcript store and an archive directory (both extra
// roots, as the memory lane's archive uses them) and a private state dir.
type archiveWorld struct {
	*world
	store, arch string
}

func newArchiveWorld(t *testing.T) *archiveWorld {
	w := newWorld(t)
	base := filepath.Dir(w.root)
	a := &archiveWorld{world: w, store: filepath.Join(base, "store"), arch: filepath.Join(base, "archive")}
	for _, d := range []string{a.store, a.arch} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func (a *archiveWorld) opts() Options {
	return Options{Root: a.root, Roots: []string{a.store, a.arch}, StateDir: a.state, AllOrNothing: true}
}

// transcript writes a store file of n lines of JSON, with an old modification time.
func (a *archiveWorld) transcript(rel string, n int, mode os.FileMode) string {
	a.t.Helper()
	p := filepath.Join(a.store, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		a.t.Fatal(err)
	}
	var b bytes.Buffer
	r := rand.New(rand.NewSource(int64(len(rel) + n)))
	for i := range n {
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"%08x","message":{"content":"line %d of %s with some words %d"}}`+"\n", r.Uint32(), i, rel, r.Intn(1e6))
	}
	if err := os.WriteFile(p, b.Bytes(), mode); err != nil {
		a.t.Fatal(err)
	}
	old := time.Date(2029, 1, 2, 3, 4, 5, 6000, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		a.t.Fatal(err)
	}
	return p
}

// archiveOp lists a store file as the archive does: hash, size and modification time.
func (a *archiveWorld) archiveOp(p string) Op {
	a.t.Helper()
	h, _, err := fsx.HashFile(p)
	if err != nil {
		a.t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		a.t.Fatal(err)
	}
	rel, _ := filepath.Rel(a.store, p)
	return Op{Kind: Archive, Path: p, Expect: h, To: filepath.Join(a.arch, "run1", rel+".gz"), Size: fi.Size(), ModTime: fi.ModTime()}
}

// snapshot records every store file's bytes, mode and modification time.
type snap struct {
	data  string
	mode  os.FileMode
	mtime time.Time
}

func (a *archiveWorld) snapshot() map[string]snap {
	a.t.Helper()
	out := map[string]snap{}
	_ = filepath.Walk(a.store, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = snap{string(b), fi.Mode().Perm(), fi.ModTime()}
		}
		return nil
	})
	return out
}

func (a *archiveWorld) sameAs(want map[string]snap) {
	a.t.Helper()
	got := a.snapshot()
	if len(got) != len(want) {
		a.t.Fatalf("store holds %d files, want %d", len(got), len(want))
	}
	for p, w := range want {
		g, ok := got[p]
		if !ok || g.data != w.data || g.mode != w.mode || !g.mtime.Equal(w.mtime) {
			a.t.Fatalf("%s: not byte-identical to its original (present %v, mode %v/%v, mtime %v/%v)", p, ok, g.mode, w.mode, g.mtime, w.mtime)
		}
	}
}

// archives lists the files in the archive directory.
func (a *archiveWorld) archives() []string {
	var out []string
	_ = filepath.Walk(a.arch, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func gunzip(t *testing.T, p string) (string, *gzip.Header) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), &zr.Header
}

func (a *archiveWorld) fixture() ([]Op, map[string]snap) {
	a.transcript("s1.jsonl", 3000, 0o600)
	a.transcript("s1/subagents/agent-a.jsonl", 500, 0o600)
	a.transcript("s1/tool-results/t1.txt", 200, 0o644)
	var ops []Op
	for _, rel := range []string{"s1.jsonl", "s1/subagents/agent-a.jsonl", "s1/tool-results/t1.txt"} {
		ops = append(ops, a.archiveOp(filepath.Join(a.store, filepath.FromSlash(rel))))
	}
	ops = append(ops, Op{Kind: Create, Path: filepath.Join(a.arch, "run1", "manifest.json"), Data: []byte(`{"files":3}` + "\n"), Mode: 0o600})
	return ops, a.snapshot()
}

func TestArchiveRun(t *testing.T) {
	a := newArchiveWorld(t)
	ops, before := a.fixture()
	if err := os.MkdirAll(filepath.Join(a.arch, "run1"), 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := Run(a.opts(), ops, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Count(StatusCommitted); n != 4 {
		t.Fatalf("%d committed: %+v", n, res.Files)
	}
	if got := a.snapshot(); len(got) != 0 {
		t.Fatalf("originals left: %v", got)
	}
	for p, s := range before {
		rel, _ := filepath.Rel(a.store, p)
		data, hdr := gunzip(t, filepath.Join(a.arch, "run1", rel+".gz"))
		if data != s.data || hdr.Name != filepath.Base(p) || !hdr.ModTime.Equal(s.mtime.Truncate(time.Second)) {
			t.Fatalf("%s: archive does not hold the original (name %q, mtime %v)", rel, hdr.Name, hdr.ModTime)
		}
	}
	a.noTrace()
}

// A file that changed after it was listed is never archived or deleted, and the run leaves no
// archive behind: size, modification time, and content with both kept.
func TestArchiveRefusesChangedFiles(t *testing.T) {
	for _, change := range []string{"size", "mtime", "content", "archive-exists", "symlink", "placeholder"} {
		t.Run(change, func(t *testing.T) {
			a := newArchiveWorld(t)
			ops, _ := a.fixture()
			p := ops[1].Path
			switch change {
			case "size":
				a.transcript("s1/subagents/agent-a.jsonl", 501, 0o600)
			case "mtime":
				if err := os.Chtimes(p, time.Now(), time.Now()); err != nil {
					t.Fatal(err)
				}
			case "content":
				b, _ := os.ReadFile(p)
				b[10] ^= 1
				fi, _ := os.Stat(p)
				if err := os.WriteFile(p, b, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
					t.Fatal(err)
				}
			case "archive-exists":
				if err := os.MkdirAll(filepath.Dir(ops[1].To), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(ops[1].To, []byte("someone's archive"), 0o600); err != nil {
					t.Fatal(err)
				}
			case "placeholder":
				// A size and no blocks on this disk, as a cloud-sync placeholder has: a sparse file.
				fi, _ := os.Stat(p)
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, fi.Size()); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
					t.Fatal(err)
				}
				if pfi, _ := os.Stat(p); !fsx.IsPlaceholder(pfi) {
					t.Skip("this filesystem allocates blocks for a sparse file: no placeholder to test")
				}
			case "symlink":
				if err := os.Rename(p, p+".real"); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(p+".real", p); err != nil {
					t.Fatal(err)
				}
			}
			before := a.snapshot()
			pre := a.archives()
			_, err := Run(a.opts(), ops, nil)
			var ab *AbortedError
			if !errors.As(err, &ab) {
				t.Fatalf("err = %v, want an aborted run", err)
			}
			if change == "placeholder" && !errors.Is(err, fsx.ErrPlaceholder) {
				t.Errorf("err = %v, want the placeholder named", err)
			}
			a.sameAs(before)
			if got := a.archives(); len(got) != len(pre) {
				t.Fatalf("archives left behind: %v", got)
			}
			a.noTrace()
		})
	}
}

// The compare-and-swap at delete time: a file rewritten between the archive and the delete
// (same size) stays, and the run is undone; so does a file whose archive was tampered with.
func TestArchiveCASAtDelete(t *testing.T) {
	for _, what := range []string{"original", "archive"} {
		t.Run(what, func(t *testing.T) {
			a := newArchiveWorld(t)
			ops, _ := a.fixture()
			o := a.opts()
			calls := 0
			o.Guard = func() error {
				calls++
				if calls == 3 { // Begin, then the manifest's swap, then the first delete
					target := ops[0].Path
					if what == "archive" {
						target = ops[0].To
					}
					b, _ := os.ReadFile(target)
					b[len(b)/2] ^= 1
					return os.WriteFile(target, b, 0o600)
				}
				return nil
			}
			before := a.snapshot()
			_, err := Run(o, ops, nil)
			if !errors.Is(err, fsx.ErrConflict) {
				t.Fatalf("err = %v, want a conflict", err)
			}
			after := a.snapshot()
			for p, s := range before {
				g, ok := after[p]
				if !ok {
					t.Fatalf("%s deleted despite the conflict", p)
				}
				if p != ops[0].Path && g.data != s.data {
					t.Fatalf("%s changed", p)
				}
			}
			if what == "original" {
				if got := a.archives(); len(got) != 0 {
					t.Errorf("archives left after the undo: %v", got)
				}
			}
		})
	}
}

// Every crash point of an archive run, with SIGKILL: recover leaves the store byte-identical
// (content, mode, modification time) and no archive behind, or, after the commit, every
// original gone and every archive holding it.
func TestArchiveCrashAtEveryFailpoint(t *testing.T) {
	fps := append(archiveFailpoints(), failpointNames()...)
	for _, fp := range fps {
		if fp == FailValidating || fp == FailRollingBack || fp == FailRollingBackOne || fp == FailRestored {
			continue // covered below: a rollback of an archive run, killed
		}
		t.Run(fp, func(t *testing.T) {
			a := newArchiveWorld(t)
			ops, before := a.fixture()
			if err := os.MkdirAll(filepath.Join(a.arch, "run1"), 0o700); err != nil {
				t.Fatal(err)
			}
			spec := helperSpec{Mode: "run", Root: a.root, State: a.state, Roots: []string{a.store, a.arch}, AllOrNothing: true, Ops: toHelperOps(ops)}
			killed, c := runChild(t, spec, fp)
			if !killed {
				t.Fatalf("the helper was not killed at %s:\n%s", fp, c.out.String())
			}
			rep, err := Recover(a.state, RecoverOptions{Root: a.root, Roots: []string{a.store, a.arch}})
			if err != nil || rep.Unresolved {
				t.Fatalf("recover: %v %+v", err, rep.Runs)
			}
			if fp == FailCommitted {
				if got := a.snapshot(); len(got) != 0 {
					t.Fatalf("after a committed run, originals left: %v", got)
				}
				for p, s := range before {
					rel, _ := filepath.Rel(a.store, p)
					if data, _ := gunzip(t, filepath.Join(a.arch, "run1", rel+".gz")); data != s.data {
						t.Fatalf("%s: archive differs", rel)
					}
				}
			} else {
				a.sameAs(before)
				if got := a.archives(); len(got) != 0 {
					t.Fatalf("archives left after the undo: %v", got)
				}
			}
			a.noTrace()
			if l, _ := fsx.Leftovers(ops[0].To); len(l) != 0 {
				t.Fatalf("temporary archive files left: %v", l)
			}
		})
	}
}

// A rollback of an archive run (a conflict on the last delete) killed at each of its steps,
// and recoveries killed too: the end is always the untouched store.
func TestArchiveCrashDuringRollbackAndRecovery(t *testing.T) {
	for _, fp := range []string{FailRollingBack, FailRollingBackOne, FailRestored} {
		t.Run(fp, func(t *testing.T) {
			a := newArchiveWorld(t)
			ops, before := a.fixture()
			if err := os.MkdirAll(filepath.Join(a.arch, "run1"), 0o700); err != nil {
				t.Fatal(err)
			}
			// The last delete meets a file rewritten since it was listed: the first two are
			// deleted, then the run rolls back, and is killed on the way.
			last := ops[2].Path
			spec := helperSpec{Mode: "run", Root: a.root, State: a.state, Roots: []string{a.store, a.arch}, AllOrNothing: true, Ops: toHelperOps(ops),
				RaceEdit: &helperEdit{Path: last, Data: []byte(strings.Repeat("x", int(ops[2].Size)))}, RaceAt: 5, RaceDone: filepath.Join(t.TempDir(), "done")}
			killed, c := runChild(t, spec, fp)
			if !killed {
				t.Fatalf("not killed at %s:\n%s", fp, c.out.String())
			}
			want := before
			edited := want[last]
			edited.data = strings.Repeat("x", int(ops[2].Size))
			want[last] = edited
			rec := helperSpec{Mode: "recover", Root: a.root, State: a.state, Roots: []string{a.store, a.arch}}
			if fp != FailRestored {
				if killed, c := runChild(t, rec, FailRollingBackOne); !killed && fp == FailRollingBack {
					t.Logf("recovery not killed (nothing left to restore one by one):\n%s", c.out.String())
				}
			}
			rep, err := Recover(a.state, RecoverOptions{Root: a.root, Roots: []string{a.store, a.arch}})
			if err != nil || rep.Unresolved {
				t.Fatalf("recover: %v %+v", err, rep.Runs)
			}
			got := a.snapshot()
			for p, w := range want {
				if g := got[p]; g.data != w.data {
					t.Fatalf("%s: not as before the run", p)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("store %d files, want %d", len(got), len(want))
			}
			if arch := a.archives(); len(arch) != 0 {
				t.Fatalf("archives left: %v", arch)
			}
		})
	}
}

// Memory stays bounded by the buffers, not the file: a 96 MiB transcript is archived with a
// heap that never grows past a small fraction of it.
func TestArchiveBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and compresses 96 MiB; -short skips it")
	}
	a := newArchiveWorld(t)
	p := filepath.Join(a.store, "big.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	line := make([]byte, 0, 512)
	for written := 0; written < 96<<20; {
		line = fmt.Appendf(line[:0], `{"type":"user","n":%d,"text":"%x"}`+"\n", written, r.Uint64())
		n, err := f.Write(line)
		if err != nil {
			t.Fatal(err)
		}
		written += n
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	op := a.archiveOp(p)
	runtime.GC()
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	if err := os.MkdirAll(filepath.Dir(op.To), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = Run(a.opts(), []Op{op}, nil)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("96 MiB archived; peak heap in use %.1f MiB", float64(peak)/(1<<20))
	if peak > 24<<20 {
		t.Errorf("peak heap %d MiB while archiving a 96 MiB file: memory is not bounded by the buffers", peak>>20)
	}
}

// An archive run killed at its very start (its backups done, no journal
// yet) has nothing to back up: it leaves no backup directory, and recover
// has nothing to do. A directory an older version left there with an
// index of null (or no index) is nothing to recover either, and goes; one
// that holds a backup is still an orphan, reported and kept.
func TestArchiveKilledAtItsStartIsNothingToRecover(t *testing.T) {
	a := newArchiveWorld(t)
	ops, before := a.fixture()
	if err := os.MkdirAll(filepath.Join(a.arch, "run1"), 0o700); err != nil {
		t.Fatal(err)
	}
	spec := helperSpec{Mode: "run", Root: a.root, State: a.state, Roots: []string{a.store, a.arch}, AllOrNothing: true, Ops: toHelperOps(ops)}
	if killed, c := runChild(t, spec, FailBackedUp); !killed {
		t.Fatalf("not killed at %s:\n%s", FailBackedUp, c.out.String())
	}
	if ents, _ := os.ReadDir(filepath.Join(a.state, txnDir)); len(ents) != 0 {
		t.Fatalf("the run left %v in the journal directory", ents)
	}
	txnPath := func(p string) string { return filepath.Join(a.state, txnDir, p) }
	for _, index := range []string{"null", "[]", ""} {
		d := txnPath("20290101T000000-1-0000000" + fmt.Sprint(len(index)))
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if index != "" {
			if err := os.WriteFile(filepath.Join(d, indexName), []byte(index), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	kept := txnPath("20290101T000000-1-kept")
	if err := os.Mkdir(kept, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kept, "0000.bak"), []byte("an original\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o, _ := Orphans(a.state); len(o) != 1 || o[0].Dir != kept {
		t.Fatalf("orphans %+v, want only the one with a backup", o)
	}
	rep, err := Recover(a.state, RecoverOptions{Root: a.root, Roots: []string{a.store, a.arch}})
	if err != nil || rep.Unresolved || len(rep.Runs) != 0 || len(rep.Orphans) != 1 {
		t.Fatalf("recover %+v %v", rep, err)
	}
	ents, _ := os.ReadDir(filepath.Join(a.state, txnDir))
	if len(ents) != 1 || ents[0].Name() != filepath.Base(kept) {
		t.Fatalf("left in the journal directory: %v", ents)
	}
	a.sameAs(before)
	if got := a.archives(); len(got) != 0 {
		t.Fatalf("archives left: %v", got)
	}
}

// A run killed before it journalled its archives' hashes: recover knows an
// archive of its own only by decompressing it to the original. A foreign
// file at an archive's path (put there since, or never the run's) fails
// that and is kept, reported, never removed.
func TestRecoverKeepsAForeignFileAtTheArchivePath(t *testing.T) {
	a := newArchiveWorld(t)
	ops, before := a.fixture()
	if err := os.MkdirAll(filepath.Join(a.arch, "run1"), 0o700); err != nil {
		t.Fatal(err)
	}
	spec := helperSpec{Mode: "run", Root: a.root, State: a.state, Roots: []string{a.store, a.arch}, AllOrNothing: true, Ops: toHelperOps(ops)}
	if killed, c := runChild(t, spec, FailArchivingOne); !killed {
		t.Fatalf("not killed:\n%s", c.out.String())
	}
	foreign := ops[0].To
	for _, data := range []string{"not this run's archive\n", gzipped(t, "another transcript\n")} {
		if err := os.WriteFile(foreign, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := Recover(a.state, RecoverOptions{Root: a.root, Roots: []string{a.store, a.arch}})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(foreign); string(b) != data {
			t.Fatalf("the foreign file at %s was removed or changed", foreign)
		}
		if !rep.Unresolved || len(rep.Runs) != 1 || !strings.Contains(fmt.Sprint(rep.Runs[0].Files), "not this run's archive") {
			t.Fatalf("recover did not keep and report it: %+v", rep.Runs)
		}
		a.sameAs(before)
	}
}

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
