//go:build unix

package archive

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/testkit/archivetest"
)

var now0 = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

type world struct {
	t     *testing.T
	o     Options
	store archivetest.Store
}

// newWorld generates a store of n sessions (some live, some recent) for a project.
func newWorld(t *testing.T, n int, bytes int64) *world {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, proj, st, arch := filepath.Join(base, "claude"), filepath.Join(base, "proj"), filepath.Join(base, "state"), filepath.Join(base, "archive")
	for _, d := range []string{cfg, proj, st} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ps, _ := procStartTime(os.Getpid())
	gen, err := archivetest.Generate(cfg, proj, archivetest.Options{Sessions: n, Bytes: bytes, Seed: int64(n), Now: now0,
		LiveFiles: n / 20, Recent: n / 20, ProcStart: ps})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, store: gen}
	w.o = Options{ConfigDir: cfg, Store: gen.Dir, Archive: filepath.Join(arch, filepath.Base(gen.Dir)), Root: proj, StateDir: st,
		After: 14 * 24 * time.Hour, Now: func() time.Time { return now0 }, Version: "test"}
	return w
}

// inventory hashes every file under the store.
func (w *world) inventory() map[string]fsx.Hash {
	w.t.Helper()
	out := map[string]fsx.Hash{}
	err := filepath.Walk(w.o.Store, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			h, _, err := fsx.HashFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(w.o.Store, p)
			out[filepath.ToSlash(rel)] = h
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

// archived decompresses every archived file whose session has a manifest and checks it
// against the manifest; it returns rel -> hash of what the archives hold.
func (w *world) archived() map[string]fsx.Hash {
	w.t.Helper()
	out := map[string]fsx.Hash{}
	as, err := ListArchived(w.o.Archive)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, a := range as {
		if a.Err != "" {
			w.t.Fatalf("archive %s: %s", a.Dir, a.Err)
		}
		m, _ := readManifest(a.Dir)
		for _, f := range m.Files {
			fh, err := os.Open(filepath.Join(a.Dir, filepath.FromSlash(f.Archive)))
			if err != nil {
				w.t.Fatal(err)
			}
			zr, err := gzip.NewReader(fh)
			if err != nil {
				w.t.Fatal(err)
			}
			h, err := fsx.HashReader(zr)
			fh.Close()
			if err != nil || h.String() != f.SHA256 {
				w.t.Fatalf("%s: archive does not decompress to its manifest's hash (%v)", f.Rel, err)
			}
			out[f.Rel] = h
		}
	}
	return out
}

// lossless checks that every file of before is either in the store unchanged or in an
// archive that decompresses to it, and that no session is half archived.
func (w *world) lossless(before map[string]fsx.Hash) (archivedSessions map[string]bool) {
	w.t.Helper()
	now := w.inventory()
	arch := w.archived()
	archivedSessions = map[string]bool{}
	for rel, h := range before {
		inStore := now[rel] == h
		inArch := arch[rel] == h
		if !inStore && !inArch {
			w.t.Fatalf("%s is lost: neither in the store nor in an archive", rel)
		}
	}
	for rel := range arch {
		sid := strings.SplitN(strings.TrimSuffix(rel, ".jsonl"), "/", 2)[0]
		if strings.HasPrefix(sid, "agent-") {
			continue
		}
		archivedSessions[sid] = true
	}
	// A session is archived whole or not at all: no file of an archived session stays.
	for rel := range now {
		sid := strings.SplitN(strings.TrimSuffix(rel, ".jsonl"), "/", 2)[0]
		if archivedSessions[sid] && (strings.HasSuffix(rel, ".jsonl") || strings.Contains(rel, "/subagents/") || strings.Contains(rel, "/tool-results/") || strings.Contains(rel, "/workflows/")) {
			w.t.Fatalf("%s is still in the store though its session was archived", rel)
		}
	}
	return archivedSessions
}

func TestArchiveGeneratedStore(t *testing.T) {
	w := newWorld(t, 200, 6<<20)
	before := w.inventory()
	rep, err := Run(w.o, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if after := w.inventory(); len(after) != len(before) || rep.Archived != 0 {
		t.Fatal("a dry run wrote")
	}
	rep, err = Run(w.o, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	archived := w.lossless(before)
	bands := map[string]SessionResult{}
	for _, s := range rep.Sessions {
		bands[s.ID] = s
		if s.Err != "" {
			t.Errorf("%s: %s", s.ID, s.Err)
		}
	}
	var subs, results, flat, unknown int
	for _, s := range w.store.Sessions {
		got := bands[s.ID]
		old := now0.Sub(s.Newest) >= w.o.After
		switch {
		case s.Recent || s.Live:
			if got.Band != Live || archived[s.ID] {
				t.Errorf("%s (recent %v, live %v): band %s %q, archived %v", s.ID, s.Recent, s.Live, got.Band, got.Why, archived[s.ID])
			}
		case old:
			if !got.Archived || !archived[s.ID] {
				t.Errorf("%s: old, not archived: %+v", s.ID, got)
			}
			subs += s.Subagents
			results += s.ToolResults
			flat += s.Flat
			if s.Unknown {
				unknown++
				if _, err := os.Stat(filepath.Join(w.o.Store, s.ID, "notes-by-a-user.txt")); err != nil {
					t.Errorf("%s: an unknown entry of the session directory was not left in place: %v", s.ID, err)
				}
			} else if _, err := os.Stat(filepath.Join(w.o.Store, s.ID)); err == nil {
				t.Errorf("%s: the emptied session directory was not pruned", s.ID)
			}
		default:
			if got.Band != Recent || archived[s.ID] {
				t.Errorf("%s: %+v", s.ID, got)
			}
		}
	}
	t.Logf("%d sessions: %d archived (%d subagent transcripts, %d spilled results, %d flat agent files, %d with unknown entries), %d bytes freed, %d compressed",
		len(w.store.Sessions), rep.Archived, subs, results, flat, unknown, rep.Freed, rep.Compressed)
	if subs == 0 || results == 0 || flat == 0 || rep.Archived < 100 {
		t.Fatalf("the generated store does not exercise every shape: %d %d %d %d", subs, results, flat, rep.Archived)
	}
	for _, p := range []string{"memory/MEMORY.md", ".session-aliases"} {
		if before[p] != w.inventory()[p] {
			t.Errorf("%s was touched", p)
		}
	}
	// Restore puts a session back byte for byte, with its modification times.
	var sid string
	for _, s := range w.store.Sessions {
		if archived[s.ID] && s.Subagents > 0 {
			sid = s.ID
			break
		}
	}
	res, err := Restore(w.o, sid)
	if err != nil || len(res.Restored) < 2 {
		t.Fatalf("restore %s: %+v %v", sid, res, err)
	}
	now := w.inventory()
	for _, rel := range res.Restored {
		if now[rel] != before[rel] {
			t.Fatalf("%s restored with other bytes", rel)
		}
		fi, _ := os.Stat(filepath.Join(w.o.Store, filepath.FromSlash(rel)))
		if !fi.ModTime().Equal(w.sessionNewest(sid)) {
			t.Errorf("%s: mtime %v, want %v", rel, fi.ModTime(), w.sessionNewest(sid))
		}
	}
	if res, err := Restore(w.o, sid); err != nil || len(res.Restored) != 0 || len(res.Present) == 0 {
		t.Errorf("second restore: %+v %v", res, err)
	}
	// A live file with other content is never overwritten, and nothing else is written.
	victim := filepath.Join(w.o.Store, sid+".jsonl")
	if err := os.WriteFile(victim, []byte("a live session's new transcript\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(w.o.Store, filepath.FromSlash(res.Restored[len(res.Restored)-1]))
	if err := os.Remove(other); err != nil && !strings.HasSuffix(victim, other) {
		t.Fatal(err)
	}
	var ce *ConflictError
	if _, err := Restore(w.o, sid); !errors.As(err, &ce) {
		t.Fatalf("restore over a live file: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "a live session's new transcript\n" {
		t.Fatal("restore overwrote a live file")
	}
	st, err := Stats(w.o.ConfigDir, filepath.Dir(w.o.Archive), now0)
	if err != nil {
		t.Fatal(err)
	}
	var byAge int64
	for _, b := range st.Projects[0].ByAge {
		byAge += b
	}
	if len(st.Projects) != 1 || st.Ratio < 3 || byAge != st.Projects[0].Bytes || st.Projects[0].Archived != rep.Archived || st.Projects[0].Memory == 0 {
		t.Errorf("stats %+v", st)
	}
	t.Logf("measured compression %.1f:1 on %d bytes", st.Ratio, st.SampleBytes)
}

func (w *world) sessionNewest(id string) time.Time {
	for _, s := range w.store.Sessions {
		if s.ID == id {
			return s.Newest
		}
	}
	return time.Time{}
}

// A live session file that cannot be read makes every session live: doubt keeps them all.
func TestArchiveDoubtIsLive(t *testing.T) {
	w := newWorld(t, 20, 200<<10)
	if err := os.MkdirAll(filepath.Join(w.o.ConfigDir, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.o.ConfigDir, "sessions", "999.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := w.inventory()
	rep, err := Run(w.o, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Archived != 0 {
		t.Fatalf("archived %d sessions while the live sessions were unknown", rep.Archived)
	}
	for _, s := range rep.Sessions {
		if s.Band != Live {
			t.Errorf("%s: %s", s.ID, s.Band)
		}
	}
	if len(w.inventory()) != len(before) {
		t.Fatal("files changed")
	}
	// A dead process's session file is no evidence: the sessions are archived.
	w.o.Alive = func(int, string) (bool, error) { return false, nil }
	if err := os.Remove(filepath.Join(w.o.ConfigDir, "sessions", "999.json")); err != nil {
		t.Fatal(err)
	}
	if rep, err := Run(w.o, false, nil); err != nil || rep.Archived == 0 {
		t.Fatalf("after the doubt is gone: %+v %v", rep, err)
	}
}

const crashEnv = "PROSEWASH_ARCHIVE_CRASH_SPEC"

// TestArchiveCrashHelper is the child process of TestArchiveCrashAtEveryStep; run directly it
// has nothing to do.
func TestArchiveCrashHelper(t *testing.T) {
	sp := os.Getenv(crashEnv)
	if sp == "" {
		return
	}
	b, err := os.ReadFile(sp)
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	o.Now = func() time.Time { return now0 }
	o.Alive = nil
	o.Getenv = os.Getenv
	_, err = Run(o, false, nil)
	t.Logf("the run finished without being killed: %v", err)
}

// An archive run over a generated store is killed with SIGKILL at every step of its journal;
// recovery leaves every byte either in the store or in a verified archive, never a half
// archived session, and a second run then finishes the job.
func TestArchiveCrashAtEveryStep(t *testing.T) {
	steps := []string{txn.FailArchivingOne, txn.FailArchivedOne, txn.FailPrepared, txn.FailInstallingOne, txn.FailInstalledOne, txn.FailInstalled, txn.FailCommitted}
	for _, fp := range steps {
		t.Run(fp, func(t *testing.T) {
			w := newWorld(t, 40, 1<<20)
			before := w.inventory()
			plain := w.o
			plain.Now, plain.Getenv, plain.Alive = nil, nil, nil
			spec, err := json.Marshal(plain)
			if err != nil {
				t.Fatal(err)
			}
			sp := filepath.Join(t.TempDir(), "spec.json")
			if err := os.WriteFile(sp, spec, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestArchiveCrashHelper$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), crashEnv+"="+sp, txn.EnvFailpoint+"="+fp)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the run was not killed at %s: %v\n%s", fp, err, out)
			}
			// Until recovery, the interrupted run blocks another (a committed one is finished).
			if fp != txn.FailCommitted {
				if _, err := Run(w.o, false, nil); !errors.As(err, new(*txn.PendingError)) {
					t.Fatalf("a run after the crash was not refused: %v", err)
				}
			}
			rep, err := txn.Recover(w.o.StateDir, txn.RecoverOptions{Root: w.o.Root, Roots: []string{w.o.Store, w.o.Archive}})
			if err != nil || rep.Unresolved {
				t.Fatalf("recover: %v %+v", err, rep.Runs)
			}
			archived := w.lossless(before)
			if fp == txn.FailCommitted && (len(archived) == 0 || len(archived) > batchSessions) {
				t.Errorf("after a kill at committed, %d sessions archived, want the first batch", len(archived))
			}
			if fp != txn.FailCommitted && len(archived) != 0 {
				t.Errorf("after a kill at %s, %d sessions archived, want none (undone)", fp, len(archived))
			}
			if _, err := Run(w.o, false, nil); err != nil {
				t.Fatal(err)
			}
			w.lossless(before)
		})
	}
}

// A FIFO where the archive reads (a live-session file of Claude Code's, a flat agent
// transcript, an archived file that restore decompresses) is refused at once, naming it:
// before, each plain open waited for a writer for ever. Nothing is lost either way.
func TestArchiveFIFOsAreRefusedNotWaitedOn(t *testing.T) {
	w := newWorld(t, 20, 200<<10)
	sessions := filepath.Join(w.o.ConfigDir, "sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		t.Fatal(err)
	}
	liveFIFO, flatFIFO := filepath.Join(sessions, "999.json"), filepath.Join(w.o.Store, "agent-fifo.jsonl")
	for _, p := range []string{liveFIFO, flatFIFO} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := w.inventory()
	rep, err := noWait(t, "an archive run", func() (Report, error) { return Run(w.o, false, nil) })
	if err != nil || rep.Archived != 0 {
		t.Fatalf("with a FIFO for a live-session file: archived %d, %v", rep.Archived, err)
	}
	for _, s := range rep.Sessions {
		if s.Band != Live || !strings.Contains(s.Why, liveFIFO+": refused: not a regular file") {
			t.Errorf("%s: %s %q, want live, naming the FIFO", s.ID, s.Band, s.Why)
		}
	}
	if len(w.inventory()) != len(before) {
		t.Fatal("files changed")
	}
	if err := os.Remove(liveFIFO); err != nil {
		t.Fatal(err)
	}
	w.o.Alive = func(int, string) (bool, error) { return false, nil }
	if rep, err = noWait(t, "an archive run", func() (Report, error) { return Run(w.o, false, nil) }); err != nil || rep.Archived == 0 {
		t.Fatalf("without the FIFO: %+v %v", rep, err)
	}
	w.lossless(before)
	if fi, err := os.Lstat(flatFIFO); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the flat FIFO was touched: %v", err)
	}
	// Restore meets a FIFO in place of an archived file.
	var s SessionResult
	for _, s = range rep.Sessions {
		if s.Archived {
			break
		}
	}
	m, err := readManifest(s.Archive)
	if err != nil || len(m.Files) == 0 {
		t.Fatalf("manifest of %s: %+v %v", s.ID, m, err)
	}
	gz := filepath.Join(s.Archive, filepath.FromSlash(m.Files[0].Archive))
	if err := os.Rename(gz, gz+".saved"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(gz, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := noWait(t, "a restore", func() (RestoreResult, error) { return Restore(w.o, s.ID) }); err == nil || !strings.Contains(err.Error(), gz+": refused: not a regular file") {
		t.Fatalf("restore from a FIFO: %v, want a refusal naming %s", err, gz)
	}
	if _, err := os.Lstat(filepath.Join(w.o.Store, filepath.FromSlash(m.Files[0].Rel))); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("restore from a FIFO left %s: %v", m.Files[0].Rel, err)
	}
	if err := os.Rename(gz+".saved", gz); err != nil {
		t.Fatal(err)
	}
	res, err := Restore(w.o, s.ID)
	if err != nil || len(res.Restored) != len(m.Files) {
		t.Fatalf("restore once the archive is back: %+v %v", res, err)
	}
	now := w.inventory()
	for _, rel := range res.Restored {
		if now[rel] != before[rel] {
			t.Errorf("%s restored with other bytes", rel)
		}
	}
}

// noWait runs f, failing the test when it has not returned within a minute: what it reads
// must never wait on a FIFO (the bound is far above any run here, only a blocked open meets it).
func noWait[T any](t *testing.T, what string, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(time.Minute):
		t.Fatalf("%s still waits after a minute: an open blocks on a FIFO", what)
	}
	panic("unreachable")
}
