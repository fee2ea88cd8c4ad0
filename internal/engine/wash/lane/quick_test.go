package lane

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

func TestQuickDryRunWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	before := f.read(filepath.Join(f.mem, "MEMORY.md"))
	res, err := f.lane.Quick(QuickOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Receipt, "would cut ~") || res.After >= res.Before {
		t.Fatalf("receipt %q before %d after %d", res.Receipt, res.Before, res.After)
	}
	if f.read(filepath.Join(f.mem, "MEMORY.md")) != before {
		t.Fatal("dry run wrote")
	}
	if _, err := os.Stat(filepath.Join(f.stateDir(), "wash", "bins", "quick")); err == nil {
		t.Fatal("dry run banked")
	}
	kinds := map[string]bool{}
	for _, qf := range res.Files {
		for _, c := range qf.Cuts {
			kinds[c.Kind] = true
			if strings.Contains(c.Reason, "pgbouncer") {
				t.Fatalf("a reason quotes content: %q", c.Reason)
			}
		}
	}
	for _, k := range []string{"duplicate-line", "blank-run", "dead-index-entry"} {
		if !kinds[k] {
			t.Errorf("no %s cut planned: %v", k, kinds)
		}
	}
}

func TestQuickAppliesBanksAndRecords(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	origMem, origClaude := f.read(memPath), f.read("CLAUDE.md")
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Receipt, "cut ~") || res.Event == "" {
		t.Fatalf("receipt %q event %q", res.Receipt, res.Event)
	}
	newMem := f.read(memPath)
	if strings.Count(newMem, "port 5433") != 1 || strings.Contains(newMem, "missing-note.md") || strings.Contains(newMem, "\n\n\n") {
		t.Fatalf("memory after quick:\n%s", newMem)
	}
	if strings.Count(f.read("CLAUDE.md"), "open a pull request") != 1 {
		t.Fatalf("CLAUDE.md after quick:\n%s", f.read("CLAUDE.md"))
	}
	// Nothing structured lost except the approved dead index entry.
	if d := gate.Check([]byte(origClaude), []byte(f.read("CLAUDE.md"))); len(d) != 0 {
		t.Fatalf("CLAUDE.md lost %v", d)
	}
	// The bin holds both originals, verified.
	store := bins.OpenReadOnly(f.stateDir())
	m, err := store.Get(res.Event)
	if err != nil || !m.Committed || len(m.Items) != 2 {
		t.Fatalf("bin event %+v %v", m, err)
	}
	got := map[string]string{}
	for i, it := range m.Items {
		b, err := store.Read(m, i)
		if err != nil {
			t.Fatal(err)
		}
		got[it.Path] = string(b)
	}
	if got[memPath] != origMem || got[filepath.Join(f.root, "CLAUDE.md")] != origClaude {
		t.Fatalf("bin items %v", got)
	}
	st := LoadState(f.stateDir())
	if st.Receipt == nil || st.Receipt.Line != res.Receipt || !st.QuickTried || len(st.History) == 0 {
		t.Fatalf("state %+v", st)
	}
	// A second run cuts nothing and still has a receipt.
	res2, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Receipt != "cut ~0 tok (-0%)" || res2.Event != "" {
		t.Fatalf("second run %q %q", res2.Receipt, res2.Event)
	}
}

func TestQuickRefusesPinnedAndUnverifiable(t *testing.T) {
	f := newFixture(t)
	pinned := "---\npinned: true\n---\n- a line that repeats itself here\n- a line that repeats itself here\n"
	broken := "---\nname: [unclosed\n  weird: {\n- a line that repeats itself there\n- a line that repeats itself there\n"
	f.memFile("MEMORY.md", pinned)
	f.write("CLAUDE.md", broken)
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(filepath.Join(f.mem, "MEMORY.md")) != pinned || f.read("CLAUDE.md") != broken {
		t.Fatal("a pinned or unverifiable file was rewritten")
	}
	kinds := map[string]bool{}
	for _, fl := range res.Flags {
		kinds[fl.Kind] = true
	}
	if !kinds["pinned"] || !kinds["unverifiable"] {
		t.Fatalf("flags %+v", res.Flags)
	}
}

func TestQuickInvalidUTF8AndHugeFile(t *testing.T) {
	f := newFixture(t)
	bad := "- ok line that is long enough\n- ok line that is long enough\n\xff\xfe broken\n"
	f.memFile("MEMORY.md", bad)
	huge := strings.Repeat("- the same long line again and again\n", MaxReadBytes/30)
	f.write("CLAUDE.md", huge)
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.read(filepath.Join(f.mem, "MEMORY.md")) != bad || f.read("CLAUDE.md") != huge {
		t.Fatal("an invalid or huge file was rewritten")
	}
	// The huge file is read by streaming, priced, flagged with its advice, never rewritten.
	if len(res.Errors) != 0 || res.Before < MaxReadBytes/8 {
		t.Fatalf("huge file not measured: errors %v, footprint %d", res.Errors, res.Before)
	}
	found, oversize := false, false
	for _, fl := range res.Flags {
		found = found || fl.Kind == "unreadable"
		oversize = oversize || fl.Kind == "oversize" && fl.Path == "CLAUDE.md" && strings.Contains(fl.Reason, "split or externalize")
	}
	if !oversize {
		t.Fatalf("huge file not flagged oversize with advice: %+v", res.Flags)
	}
	if !found {
		t.Fatalf("invalid UTF-8 not flagged: %+v", res.Flags)
	}
}

func TestQuickFileChangedBeforeInstall(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	// A write that lands between planning and the swap (an editor, a sync client).
	f.lane.beforeExecute = func() {
		f.write(memPath, fatMemory+"- a fact added by someone else at 14:05\n")
	}
	_, err := f.lane.Quick(QuickOptions{})
	var ce *ChangedError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ChangedError", err)
	}
	if f.read(memPath) != fatMemory+"- a fact added by someone else at 14:05\n" || f.read("CLAUDE.md") != projectClaude {
		t.Fatal("files changed by a refused run")
	}
	if list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Quick); len(list) != 0 {
		t.Fatalf("a refused run left bin events %v", list)
	}
}

func TestQuickFileChangedAfterBanking(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	memPath := filepath.Join(f.mem, "MEMORY.md")
	changed := fatMemory + "- written after the backups, before the swap: v9.9.9\n"
	f.lane.afterBank = func() { f.write(memPath, changed) }
	_, err := f.lane.Quick(QuickOptions{})
	var ce *ChangedError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ChangedError", err)
	}
	if f.read(memPath) != changed || f.read("CLAUDE.md") != projectClaude {
		t.Fatalf("after the refused run:\n%s\n%s", f.read(memPath), f.read("CLAUDE.md"))
	}
	if list, _ := bins.OpenReadOnly(f.stateDir()).List(bins.Quick); len(list) != 0 {
		t.Fatalf("a rolled-back run left bin events %v", list)
	}
}

// A file changed between the last gauge and the quick run is reported, and the plan is made
// from what is on disk now: the change survives.
func TestQuickReportsDriftSinceGauge(t *testing.T) {
	f := newFixture(t)
	f.fatWorld()
	if _, err := f.lane.Gauge(GaugeOptions{}); err != nil {
		t.Fatal(err)
	}
	memPath := filepath.Join(f.mem, "MEMORY.md")
	f.write(memPath, fatMemory+"- written after the gauge: the cache TTL is 90s\n")
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Drift) != 1 || res.Drift[0].Path != memPath {
		t.Fatalf("drift %+v", res.Drift)
	}
	if !strings.Contains(f.read(memPath), "the cache TTL is 90s") {
		t.Fatal("the change made after the gauge was lost")
	}
}

// TestQuickWritesOnlyOwnedFiles (issue 9, items 4 and 5): a project CLAUDE.md imports the
// user's settings, a user-level agent file and two code files, each with "fat" an older pass
// cut. Quick, quick on named files and apply never write them; a user-level memory file is
// washed only when a person names it on a terminal.
func TestQuickWritesOnlyOwnedFiles(t *testing.T) {
	f := newFixture(t)
	cfg := filepath.Join(f.home, ".claude")
	dupPara := func(s string) string { return s + "\n\nAgain:\n\n" + s + "\n" }
	outside := map[string]string{
		filepath.Join(cfg, "settings.json"):   "{\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(rm -rf:*)\",\n      \"Bash(rm -rf:*)\"\n    ]\n  }\n}\n",
		filepath.Join(cfg, "agents", "x.md"):  "# Reviewer\n\n" + dupPara("- Never approve a change without running the full test suite."),
		filepath.Join(cfg, "CLAUDE.md"):       "# Me\n\n" + dupPara("- Answer in short sentences, in German when I write German."),
		filepath.Join(f.root, "a.py"):         "import os\nimport sys\n\nprint(os.getcwd())\n",
		filepath.Join(f.root, "b.py"):         "import os\nimport sys\n\nprint(sys.argv)\n",
		filepath.Join(f.root, "package.json"): "{\n  \"name\": \"x\",\n\n\n\n  \"private\": true\n}\n",
	}
	for p, c := range outside {
		f.write(p, c)
	}
	f.write("CLAUDE.md", "# Project\n\nSee @~/.claude/settings.json and @~/.claude/agents/x.md, code @a.py @b.py and @package.json.\n\n"+dupPara("- Run the linters before pushing any branch."))
	unchanged := func(when string) {
		t.Helper()
		for p, c := range outside {
			if f.read(p) != c {
				t.Fatalf("%s: %s was written:\n%s", when, p, f.read(p))
			}
		}
	}
	res, err := f.lane.Quick(QuickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	unchanged("quick")
	if strings.Count(f.read("CLAUDE.md"), "Run the linters") != 1 {
		t.Fatal("the owned CLAUDE.md was not washed")
	}
	measured := map[string]bool{}
	for _, qf := range res.Files {
		if qf.MeasuredOnly {
			measured[filepath.Base(qf.Real)] = true
		}
	}
	for _, n := range []string{"settings.json", "x.md", "CLAUDE.md", "a.py", "b.py", "package.json"} {
		if !measured[n] {
			t.Errorf("%s not reported as measured only: %+v", n, measured)
		}
	}
	// A plan naming any of them is refused whole, before a write.
	for p := range outside {
		for _, typ := range []string{"delete", "rewrite"} {
			a := map[string]any{"type": typ, "path": p, "expect": sha(f.read(p)), "reason": "duplicate"}
			if typ == "rewrite" {
				a["content"] = "{}\n"
			}
			plan := mustPlan(t, map[string]any{"version": 1, "judge": "agent:test", "actions": []any{a}})
			var refused *RefusedError
			if _, err := f.lane.ApplyPlan(plan, PlanOptions{}); !errors.As(err, &refused) || !strings.Contains(refused.Reason, "measured only") {
				t.Fatalf("apply %s %s: %v", typ, p, err)
			}
		}
	}
	unchanged("apply")
	// Named files: code never; a user-level memory file only on a terminal.
	for _, name := range []string{"b.py", "package.json", "~/.claude/settings.json"} {
		if _, err := f.lane.Quick(QuickOptions{Files: []string{name}, Terminal: true}); err == nil {
			t.Fatalf("quick %s was allowed", name)
		}
	}
	if _, err := f.lane.Quick(QuickOptions{Files: []string{"~/.claude/CLAUDE.md"}}); err == nil || !strings.Contains(err.Error(), "terminal") {
		t.Fatalf("a user-level file washed without a terminal: %v", err)
	}
	unchanged("named without a terminal")
	if _, err := f.lane.Quick(QuickOptions{Files: []string{"~/.claude/CLAUDE.md"}, Terminal: true}); err != nil {
		t.Fatal(err)
	}
	if got := f.read(filepath.Join(cfg, "CLAUDE.md")); strings.Count(got, "Answer in short") != 1 {
		t.Fatalf("the user-level file named on a terminal was not washed:\n%s", got)
	}
	if f.read(filepath.Join(cfg, "agents", "x.md")) != outside[filepath.Join(cfg, "agents", "x.md")] {
		t.Fatal("a file that was not named was washed")
	}
}

// TestExecuteRefusesWhatItDoesNotOwn: the last guard of every writing run. A run asking to
// rewrite the user's settings, a code file or a user-level memory file, or to create a file
// that is not Markdown, is refused before anything is written, whatever planned it.
func TestExecuteRefusesWhatItDoesNotOwn(t *testing.T) {
	f := newFixture(t)
	settings := f.write(filepath.Join(f.home, ".claude", "settings.json"), "{\"permissions\": {\"deny\": [\"Bash(rm:*)\"]}}\n")
	user := f.write(filepath.Join(f.home, ".claude", "CLAUDE.md"), "# Me\n- short answers\n")
	code := f.write("b.py", "import os\nimport sys\n")
	f.write("CLAUDE.md", "# Project\n\n@~/.claude/settings.json @b.py\n")
	r, err := f.lane.measure(nil, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []change{
		{Path: settings, Kind: gate.Rewrite, Orig: []byte(f.read(settings)), Result: []byte("{}\n")},
		{Path: user, Kind: gate.Delete, Orig: []byte(f.read(user))},
		{Path: code, Kind: gate.Rewrite, Orig: []byte(f.read(code)), Result: []byte("import os\n")},
		{Path: filepath.Join(f.root, "new.py"), Kind: gate.Create, Result: []byte("print(1)\n")},
	} {
		before := ""
		if c.Kind != gate.Create {
			before = f.read(c.Path)
		}
		_, err := f.lane.execute(run{Bin: "quick", Reason: "test", Changes: []change{c},
			Gate: []gate.Change{{Path: c.Path, Kind: c.Kind, Orig: c.Orig, Result: c.Result}}, Writable: r.writable()})
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "measured only") {
			t.Fatalf("%s %s: %v", c.Kind, c.Path, err)
		}
		if c.Kind == gate.Create {
			if _, err := os.Stat(c.Path); err == nil {
				t.Fatalf("%s was created", c.Path)
			}
		} else if f.read(c.Path) != before {
			t.Fatalf("%s was written", c.Path)
		}
	}
}
