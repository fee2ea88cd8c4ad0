package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// self is a file that stands for the prosewash binary where the engine is
// faked: the approval fingerprints it, nothing runs it.
func self(t *testing.T) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func open(t *testing.T, f *hooktest.Fixture, env *session.Env, id string) *session.Session {
	t.Helper()
	s, err := env.Open("claude-code", id, f.Root, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOpenRefusesWhatNamesNoProject(t *testing.T) {
	f := hooktest.New(t)
	env := f.Env("prosewash")
	for _, tt := range []struct{ id, cwd, fallback, want string }{
		{"", f.Root, "", "no session id"},
		{"s", "", "", "no cwd and no project directory"},
		{"s", "rel/dir", "", "not an absolute path"},
	} {
		if _, err := env.Open("codex", tt.id, tt.cwd, tt.fallback); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q, %q, %q) = %v, want an error naming %q", tt.id, tt.cwd, tt.fallback, err, tt.want)
		}
	}
	// No cwd: the fallback is the project.
	s, err := env.Open("codex", "s", "", f.Root)
	if err != nil || s.Project.Root != f.Root {
		t.Fatalf("fallback only: %v, %v", s, err)
	}
}

// An agent that cd'd into another project still writes for the project its
// session started in (the fallback), and one that stayed inside uses cwd's.
func TestOpenPrefersTheSessionsProjectOverAForeignCwd(t *testing.T) {
	f := hooktest.New(t)
	env := f.Env("prosewash")
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, ".prosewash.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := env.Open("claude-code", "s", other, f.Root)
	if err != nil || s.Project.Root != f.Root {
		t.Fatalf("cwd in another project: root %v (%v), want %s", s, err, f.Root)
	}
	sub := f.Write("sub/x.md", "x\n")
	s, err = env.Open("claude-code", "s", filepath.Dir(sub), f.Root)
	if err != nil || s.Project.Root != f.Root || s.Cwd != filepath.Dir(sub) {
		t.Fatalf("cwd inside the project: %+v (%v)", s, err)
	}
}

func TestRecordKeepsInsideFilesOnlyAndRefusesDotDot(t *testing.T) {
	f := hooktest.New(t)
	env := f.Env("prosewash")
	s := open(t, f, &env, "s1")
	a := f.Write("a.md", "a\n")
	b := f.Write("docs/b.md", "b\n")
	outside := filepath.Join(t.TempDir(), "o.md")
	if err := os.WriteFile(outside, []byte("o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	escape := f.Root + "/docs/../../" + filepath.Base(f.Root) + "x/e.md"
	_, err := s.Record([]session.Written{
		{Path: a, Raw: a},
		{Path: filepath.Clean(escape), Raw: escape},
		{Path: outside, Raw: outside},
		{Path: b, Raw: "docs/b.md"},
	})
	if err == nil || !strings.Contains(err.Error(), "through '..'") {
		t.Fatalf("Record error %v, want the '..' escape named", err)
	}
	got := f.Recorded("s1")
	if strings.Join(got, ",") != "a.md,docs/b.md" {
		t.Fatalf("recorded %v, want a.md and docs/b.md (the escape and the outside file left out)", got)
	}
	// The hash recorded is the file's content at the time.
	for _, e := range f.Entries("s1") {
		want, _ := scope.HashFile(e.Path)
		if e.Hash != want {
			t.Errorf("%s recorded at %s, file hashes to %s", e.Path, e.Hash, want)
		}
	}
}

func TestStartTouchesTheRecord(t *testing.T) {
	f := hooktest.New(t)
	env := f.Env("prosewash")
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	env.Now = func() time.Time { return at }
	s := open(t, f, &env, "s1")
	st, err := s.Start()
	if err != nil || st != (session.Start{}) {
		t.Fatalf("Start = %+v, %v; want nothing to say", st, err)
	}
	fi, err := os.Stat(filepath.Join(f.State, "sessions", "s1.log"))
	if err != nil || !fi.ModTime().Equal(at) {
		t.Fatalf("record after Start: %v, %v; want it touched at %v", fi, err, at)
	}
}

// fakeClean returns a Clean that answers with rep (or err) and counts its
// calls.
func fakeClean(rep *report.Run, err error, calls *int) func(context.Context, *clean.Plan, clean.Batch) (*report.Run, error) {
	return func(context.Context, *clean.Plan, clean.Batch) (*report.Run, error) {
		*calls++
		return rep, err
	}
}

// turnFixture is a project in mode m (approved), with files recorded for
// session s1, and the engine replaced by clean.
func turnFixture(t *testing.T, m string, files ...string) (*hooktest.Fixture, *session.Env) {
	t.Helper()
	f := hooktest.New(t)
	bin := self(t)
	f.Mode(bin, m)
	env := f.Env(bin)
	s := open(t, f, &env, "s1")
	var ws []session.Written
	for _, rel := range files {
		p := f.Write(rel, "x\u200by\n")
		ws = append(ws, session.Written{Path: p, Raw: p})
	}
	if _, err := s.Record(ws); err != nil {
		t.Fatal(err)
	}
	return f, &env
}

func wouldChange(paths ...string) *report.Run {
	rep := &report.Run{Command: "clean"}
	for _, p := range paths {
		rep.Files = append(rep.Files, report.File{Path: p, Status: report.WouldChange,
			Stages: []report.Stage{{Role: "transform", Removed: 1}}})
	}
	rep.Summary = report.Summary{WouldChange: len(paths), Removed: len(paths)}
	return rep
}

func TestEndTurnManualRunsNothing(t *testing.T) {
	f, env := turnFixture(t, approval.Manual, "a.md")
	calls := 0
	env.Clean = fakeClean(nil, errors.New("must not run"), &calls)
	if turn := open(t, f, env, "s1").EndTurn(context.Background()); turn != (session.Turn{}) || calls != 0 {
		t.Fatalf("manual: %+v after %d engine runs, want silence and none", turn, calls)
	}
}

// Confirm mode asks once per state of the files, names at most five and
// counts the rest; a dry run, never a write.
func TestEndTurnConfirmAsksOncePerState(t *testing.T) {
	names := []string{"a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md"}
	f, env := turnFixture(t, approval.Confirm, names...)
	calls := 0
	var dry bool
	env.Clean = func(_ context.Context, plan *clean.Plan, b clean.Batch) (*report.Run, error) {
		calls++
		dry = b.DryRun && !plan.Unattended && plan.Mode == approval.Confirm
		return wouldChange(names...), nil
	}
	s := open(t, f, env, "s1")
	turn := s.EndTurn(context.Background())
	if !dry {
		t.Errorf("confirm mode ran the engine for real")
	}
	for _, want := range []string{"7 invisible Unicode carriers", "7 files", "a.md, b.md, c.md, d.md, e.md, and 2 more", "prosewash clean --session s1"} {
		if !strings.Contains(turn.Continue, want) {
			t.Errorf("confirm: %q lacks %q", turn.Continue, want)
		}
	}
	if strings.Contains(turn.Continue, "f.md") || turn.User != "" || turn.Failed {
		t.Errorf("confirm: %+v", turn)
	}
	if again := s.EndTurn(context.Background()); again.Continue != "" {
		t.Fatalf("second end of turn with the same files asked again: %+v", again)
	}
	// Another content is another state: asked again.
	f.Write("a.md", "changed\u200b\n")
	if _, err := s.Record([]session.Written{{Path: f.Path("a.md"), Raw: "a.md"}}); err != nil {
		t.Fatal(err)
	}
	if next := s.EndTurn(context.Background()); next.Continue == "" {
		t.Fatalf("a changed file was not asked about")
	}
	if calls != 3 {
		t.Errorf("engine ran %d times, want 3", calls)
	}
}

// Automatic mode says what the engine did, and the files it cleaned are
// told, once, to the next turn.
func TestEndTurnAutomaticNotesWhatItRewrote(t *testing.T) {
	f, env := turnFixture(t, approval.Automatic, "a.md", "b.md")
	rep := &report.Run{Command: "clean", Files: []report.File{
		{Path: "a.md", Status: report.Cleaned, Stages: []report.Stage{{Role: "transform", Removed: 2}}},
		{Path: "b.md", Status: report.Unchanged},
	}, Summary: report.Summary{Cleaned: 1, Unchanged: 1, Removed: 2}}
	calls := 0
	var automatic bool
	env.Clean = func(_ context.Context, plan *clean.Plan, b clean.Batch) (*report.Run, error) {
		calls++
		automatic = plan.Unattended && !b.DryRun && b.Record != nil
		return rep, nil
	}
	s := open(t, f, env, "s1")
	turn := s.EndTurn(context.Background())
	if !automatic {
		t.Errorf("automatic mode did not run the engine unattended on the session's record")
	}
	if turn.User != "prosewash: "+rep.Headline() || turn.Continue != "" {
		t.Fatalf("automatic: %+v, want the headline %q", turn, rep.Headline())
	}
	if got := s.TakeRewritten(); strings.Join(got, ",") != "a.md" {
		t.Fatalf("TakeRewritten = %v, want [a.md]", got)
	}
	if got := s.TakeRewritten(); got != nil {
		t.Fatalf("TakeRewritten twice = %v, want nothing the second time", got)
	}
}

// Two hooks taking the note at once get it once between them.
func TestTakeRewrittenOnceUnderRace(t *testing.T) {
	f, env := turnFixture(t, approval.Automatic, "a.md")
	calls := 0
	env.Clean = fakeClean(&report.Run{Files: []report.File{{Path: "a.md", Status: report.Cleaned}}, Summary: report.Summary{Cleaned: 1}}, nil, &calls)
	open(t, f, env, "s1").EndTurn(context.Background())
	var mu sync.Mutex
	var got [][]string
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := open(t, f, env, "s1").TakeRewritten(); r != nil {
				mu.Lock()
				got = append(got, r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(got) != 1 || strings.Join(got[0], ",") != "a.md" {
		t.Fatalf("eight racing takers got %v, want [a.md] exactly once", got)
	}
}

// A second hook ending the same turn gives way at once, without reading a
// file of the turn.
func TestEndTurnGivesWayToTheSameTurn(t *testing.T) {
	f, env := turnFixture(t, approval.Automatic, "a.md")
	calls := 0
	env.Clean = fakeClean(wouldChange("a.md"), nil, &calls)
	release, err := txn.AcquireTurn(f.State, "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	start := time.Now()
	if turn := open(t, f, env, "s1").EndTurn(context.Background()); turn != (session.Turn{}) || calls != 0 {
		t.Fatalf("turn held elsewhere: %+v after %d engine runs, want silence and none", turn, calls)
	}
	if d := time.Since(start); d > txn.DefaultLockWait/2 {
		t.Errorf("gave way after %v, want at once", d)
	}
}

// Engine failures fail open with one line; a pending run is said once per
// set of runs; another process's lock is silence.
func TestEndTurnEngineFailures(t *testing.T) {
	for _, tt := range []struct {
		name   string
		err    error
		first  string
		failed bool
		again  bool // said again at the next turn
	}{
		{"engine error", errors.New("validation\nexploded"), "prosewash: stop hook skipped: nothing cleaned: validation exploded", true, true},
		{"pending", &txn.PendingError{RunIDs: []string{"r1"}}, "prosewash: nothing cleaned: ", false, false},
		{"locked", &txn.LockedError{}, "", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, env := turnFixture(t, approval.Automatic, "a.md")
			calls := 0
			env.Clean = fakeClean(nil, tt.err, &calls)
			s := open(t, f, env, "s1")
			turn := s.EndTurn(context.Background())
			if !strings.HasPrefix(turn.User, tt.first) || (tt.first == "" && turn.User != "") || turn.Failed != tt.failed || turn.Continue != "" {
				t.Fatalf("%+v, want User starting %q, Failed %v", turn, tt.first, tt.failed)
			}
			if next := s.EndTurn(context.Background()); (next.User != "") != tt.again {
				t.Fatalf("next turn: %+v, said again: want %v", next, tt.again)
			}
		})
	}
}

// An unreadable configuration is manual, said once per problem.
func TestEndTurnBadConfigurationSaidOnce(t *testing.T) {
	f := hooktest.New(t)
	env := f.Env(self(t))
	calls := 0
	env.Clean = fakeClean(nil, nil, &calls)
	s := open(t, f, &env, "s1")
	f.Write(".prosewash.toml", "[clean]\nmode = \"sometimes\"\n")
	turn := s.EndTurn(context.Background())
	if !turn.Failed || !strings.Contains(turn.User, "configuration") || !strings.Contains(turn.User, "manual until it is fixed") {
		t.Fatalf("bad configuration: %+v", turn)
	}
	if again := s.EndTurn(context.Background()); again.User != "" || calls != 0 {
		t.Fatalf("said twice (%+v) or ran the engine (%d)", again, calls)
	}
}

func TestRewrittenContextNamesTenAtMost(t *testing.T) {
	if session.RewrittenContext(nil) != "" {
		t.Fatal("nothing rewritten must say nothing")
	}
	one := session.RewrittenContext([]string{"a.md"})
	if !strings.Contains(one, "of a.md after") || !strings.Contains(one, "re-read it") {
		t.Errorf("one file: %q", one)
	}
	var many []string
	for i := range 12 {
		many = append(many, fmt.Sprintf("f%02d.md", i))
	}
	got := session.RewrittenContext(many)
	if !strings.Contains(got, "f09.md, and 2 more") || strings.Contains(got, "f10.md") || !strings.Contains(got, "re-read them") {
		t.Errorf("twelve files: %q", got)
	}
}

func TestOneLineAndJoin(t *testing.T) {
	if got := session.OneLine("a\nb"); got != "a b" {
		t.Errorf("OneLine = %q", got)
	}
	if got := session.OneLine(strings.Repeat("x", 400)); len(got) != 303 || !strings.HasSuffix(got, "...") {
		t.Errorf("OneLine bounds to 300 bytes and an ellipsis, got %d bytes", len(got))
	}
	for _, tt := range [][3]string{{"", "", ""}, {"a", "", "a"}, {"", "b", "b"}, {"a", "b", "a\nb"}} {
		if got := session.JoinLines(tt[0], tt[1]); got != tt[2] {
			t.Errorf("JoinLines(%q, %q) = %q", tt[0], tt[1], got)
		}
	}
}

// The real engine at the end of a turn: automatic cleans the prose carrier
// of a recorded file and keeps the one in code.
func TestEndTurnAutomaticWithTheRealEngine(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Mode(bin, approval.Automatic)
	env := f.Env(bin)
	s := open(t, f, &env, "s1")
	p := f.Write("notes.md", hooktest.Dirty)
	if _, err := s.Record([]session.Written{{Path: p, Raw: p}}); err != nil {
		t.Fatal(err)
	}
	turn := s.EndTurn(context.Background())
	if !strings.HasPrefix(turn.User, "prosewash: cleaned 1 file") || turn.Failed {
		t.Fatalf("automatic: %+v", turn)
	}
	if got := f.Read("notes.md"); got != hooktest.Cleaned {
		t.Fatalf("notes.md = %q, want %q", got, hooktest.Cleaned)
	}
	if got := s.TakeRewritten(); strings.Join(got, ",") != "notes.md" {
		t.Fatalf("TakeRewritten = %v", got)
	}
}

// RunsEngine says yes only when the end of the turn would run the engine:
// a file recorded and a mode other than manual approved. It agrees with
// what EndTurn then does, which counts the engine's runs.
func TestRunsEngineAgreesWithEndTurn(t *testing.T) {
	for _, tt := range []struct {
		name  string
		mode  string
		files []string
		runs  bool
	}{
		{"nothing recorded", approval.Automatic, nil, false},
		{"manual", approval.Manual, []string{"a.md"}, false},
		{"confirm", approval.Confirm, []string{"a.md"}, true},
		{"automatic", approval.Automatic, []string{"a.md", "b.md"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, env := turnFixture(t, tt.mode, tt.files...)
			calls := 0
			env.Clean = fakeClean(wouldChange(tt.files...), nil, &calls)
			s := open(t, f, env, "s1")
			runs := s.RunsEngine()
			s.EndTurn(context.Background())
			if runs != tt.runs || (calls > 0) != tt.runs {
				t.Fatalf("RunsEngine = %v and the engine ran %d times; want %v", runs, calls, tt.runs)
			}
		})
	}
}

// A hook that ends the turn in process defers the engine: files recorded
// after it looked are left, silently and still recorded, for the next turn.
func TestDeferEngineLeavesTheFilesForTheNextTurn(t *testing.T) {
	f, env := turnFixture(t, approval.Automatic, "a.md")
	env.Clean = session.DeferEngine
	if turn := open(t, f, env, "s1").EndTurn(context.Background()); turn != (session.Turn{}) {
		t.Fatalf("deferred: %+v, want silence", turn)
	}
	if got := f.Recorded("s1"); strings.Join(got, ",") != "a.md" {
		t.Fatalf("recorded after a deferred turn: %v, want a.md still", got)
	}
	calls := 0
	env.Clean = fakeClean(wouldChange("a.md"), nil, &calls)
	open(t, f, env, "s1").EndTurn(context.Background())
	if calls != 1 {
		t.Fatalf("the next turn ran the engine %d times, want once", calls)
	}
}
