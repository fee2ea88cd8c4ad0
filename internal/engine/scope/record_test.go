package scope

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func project(t *testing.T) (root, state string) {
	t.Helper()
	d := t.TempDir()
	root, state = filepath.Join(d, "proj"), filepath.Join(d, "state")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	return root, state
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestRecordLifecycle(t *testing.T) {
	root, state := project(t)
	a := write(t, filepath.Join(root, "a.md"), "one\n")
	b := write(t, filepath.Join(root, "docs", "b.py"), "# two\n")
	r, err := Open(state, "sess-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := r.Add(root, []string{a, b}, t0); len(errs) != 0 {
		t.Fatal(errs)
	}
	fi, err := os.Stat(r.File())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record file mode %v, %v", fi.Mode(), err)
	}
	di, _ := os.Stat(filepath.Dir(r.File()))
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("record dir mode %v", di.Mode())
	}
	raw, _ := os.ReadFile(r.File())
	if string(raw) == "" || contains(raw, "one") || contains(raw, "# two") {
		t.Fatalf("the record must hold paths and hashes only, never content:\n%s", raw)
	}

	write(t, a, "one edited by a human\n")
	items := Evaluate(mustEntries(t, r), root, Filter{})
	if items[0].Rel != "a.md" || items[0].Status != Changed || items[1].Rel != "docs/b.py" || items[1].Status != Eligible {
		t.Fatalf("statuses: %+v", items)
	}

	// Re-recording (the agent wrote again) or re-baselining makes it eligible.
	h, _ := HashFile(a)
	if err := r.Rebaseline(map[string]string{a: h}, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if it := Evaluate(mustEntries(t, r), root, Filter{}); it[0].Status != Eligible {
		t.Fatalf("after rebaseline: %+v", it[0])
	}

	os.Remove(b)
	if it := Evaluate(mustEntries(t, r), root, Filter{}); it[1].Status != Missing {
		t.Fatalf("deleted file: %+v", it[1])
	}
	if err := r.MarkCheckout([]string{a}, t0); err != nil {
		t.Fatal(err)
	}
	if it := Evaluate(mustEntries(t, r), root, Filter{}); it[0].Status != Checkout {
		t.Fatalf("checkout: %+v", it[0])
	}

	if err := r.Forget([]string{a}, t0); err != nil {
		t.Fatal(err)
	}
	if es := mustEntries(t, r); len(es) != 1 || es[0].Path != b {
		t.Fatalf("after forget a: %+v", es)
	}
	if err := r.Forget(nil, t0); err != nil {
		t.Fatal(err)
	}
	if es := mustEntries(t, r); len(es) != 0 {
		t.Fatalf("after forget all: %+v", es)
	}
}

func contains(b []byte, s string) bool {
	return len(s) > 0 && string(b) != "" && indexOf(string(b), s) >= 0
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func mustEntries(t *testing.T, r *Record) []Entry {
	t.Helper()
	es, err := r.Entries()
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestAddRefusesOutsideRoot(t *testing.T) {
	root, state := project(t)
	outside := write(t, filepath.Join(filepath.Dir(root), "elsewhere.md"), "x")
	escape := filepath.Join(root, "link")
	if err := os.Symlink(filepath.Dir(root), escape); err != nil {
		t.Skip("symlinks unsupported: ", err)
	}
	r, _ := Open(state, "s")
	_, errs := r.Add(root, []string{
		outside,
		filepath.Join(root, "..", "elsewhere.md"),
		filepath.Join(escape, "elsewhere.md"), // inside lexically, outside once resolved
		"relative.md",
	}, t0)
	if len(errs) != 4 {
		t.Fatalf("want 4 refusals, got %v", errs)
	}
	for _, e := range errs[:3] {
		if _, ok := e.(*OutsideError); !ok {
			t.Errorf("want OutsideError, got %v", e)
		}
	}
	if es := mustEntries(t, r); len(es) != 0 {
		t.Fatalf("recorded %v", es)
	}
}

func TestTornLineIsSkipped(t *testing.T) {
	root, state := project(t)
	a := write(t, filepath.Join(root, "a.md"), "x")
	r, _ := Open(state, "s")
	r.Add(root, []string{a}, t0)
	f, _ := os.OpenFile(r.File(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"path":"/x","sha2`)
	f.Close()
	if es := mustEntries(t, r); len(es) != 1 || es[0].Path != a {
		t.Fatalf("entries %+v", es)
	}
}

func TestHostileSessionIDCannotNameAPath(t *testing.T) {
	_, state := project(t)
	r, err := Open(state, "../../etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(r.File()) != filepath.Join(state, "sessions") {
		t.Fatalf("record escaped the sessions dir: %s", r.File())
	}
	if _, err := Open(state, "  "); err == nil {
		t.Fatal("blank session id accepted")
	}
}

func TestLatest(t *testing.T) {
	root, state := project(t)
	a := write(t, filepath.Join(root, "a.md"), "x")
	if _, ok, _ := Latest(state); ok {
		t.Fatal("latest with no sessions")
	}
	for i, s := range []string{"old", "new"} {
		r, _ := Open(state, s)
		r.Add(root, []string{a}, t0)
		os.Chtimes(r.File(), t0.Add(time.Duration(i)*time.Hour), t0.Add(time.Duration(i)*time.Hour))
	}
	if s, ok, err := Latest(state); !ok || err != nil || s != "new" {
		t.Fatalf("latest = %q %v %v", s, ok, err)
	}
}

func TestFilter(t *testing.T) {
	f := Filter{Include: []string{"**/*.md", "src/**"}, Exclude: []string{"vendor/**", "**/CHANGELOG.md"}}
	for rel, want := range map[string]Status{
		"README.md":         Eligible,
		"docs/a/b.md":       Eligible,
		"src/x.py":          Eligible,
		"vendor/lib/r.md":   Excluded,
		"docs/CHANGELOG.md": Excluded,
		"main.go":           NotIncluded,
	} {
		if got := f.Match(rel); got != want {
			t.Errorf("%s: %s, want %s", rel, got, want)
		}
	}
	if (Filter{Include: []string{"[unclosed"}}).Check() == nil {
		t.Fatal("invalid pattern accepted")
	}
}

// TestParallelAppendsLoseNothing records from many processes and goroutines
// at once, as parallel hook invocations do, and checks every entry landed.
func TestParallelAppendsLoseNothing(t *testing.T) {
	if os.Getenv("SCOPE_HELPER") != "" {
		return
	}
	root, state := project(t)
	const procs, per = 6, 40
	var paths []string
	for i := 0; i < procs*per; i++ {
		paths = append(paths, write(t, filepath.Join(root, fmt.Sprintf("f%03d.md", i)), strconv.Itoa(i)))
	}
	var wg sync.WaitGroup
	errc := make(chan error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$")
			cmd.Env = append(os.Environ(), "SCOPE_HELPER=1", "SCOPE_STATE="+state, "SCOPE_ROOT="+root,
				"SCOPE_FROM="+strconv.Itoa(p*per), "SCOPE_N="+strconv.Itoa(per))
			if out, err := cmd.CombinedOutput(); err != nil {
				errc <- fmt.Errorf("helper %d: %v\n%s", p, err, out)
			}
		}(p)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	r, _ := Open(state, "shared")
	es := mustEntries(t, r)
	if len(es) != procs*per {
		t.Fatalf("recorded %d of %d", len(es), procs*per)
	}
	got := map[string]bool{}
	for _, e := range es {
		got[e.Path] = true
	}
	for _, p := range paths {
		if !got[p] {
			t.Fatalf("%s was written but never recorded", p)
		}
	}
}

func TestHelperAppend(t *testing.T) {
	if os.Getenv("SCOPE_HELPER") == "" {
		t.Skip("helper process for TestParallelAppendsLoseNothing")
	}
	root, state := os.Getenv("SCOPE_ROOT"), os.Getenv("SCOPE_STATE")
	from, _ := strconv.Atoi(os.Getenv("SCOPE_FROM"))
	n, _ := strconv.Atoi(os.Getenv("SCOPE_N"))
	r, _ := Open(state, "shared")
	var wg sync.WaitGroup
	for i := from; i < from+n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, errs := r.Add(root, []string{filepath.Join(root, fmt.Sprintf("f%03d.md", i))}, time.Now()); len(errs) > 0 {
				t.Error(errs)
			}
		}(i)
	}
	wg.Wait()
}

func TestResolve(t *testing.T) {
	root, state := project(t)
	a := write(t, filepath.Join(root, "a.md"), "x")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if id, _, err := Resolve(state, "", getenv); id != "" || err != nil {
		t.Fatalf("no sessions: %q %v", id, err)
	}
	r, _ := Open(state, "recorded")
	r.Add(root, []string{a}, t0)
	if id, how, _ := Resolve(state, "", getenv); id != "recorded" || how != ", the most recent" {
		t.Fatalf("latest: %q %q", id, how)
	}
	env["PROSEWASH_SESSION"] = "from-env"
	if id, _, _ := Resolve(state, "", getenv); id != "from-env" {
		t.Fatalf("env: %q", id)
	}
	if id, _, _ := Resolve(state, "flag", getenv); id != "flag" {
		t.Fatalf("flag: %q", id)
	}
}
