package quick

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

func one(content string) File {
	return File{Path: "/p/CLAUDE.md", Content: []byte(content), Platform: "claude-code", Scope: "project", AlwaysLoaded: true, Kind: "governance"}
}

func planOne(t *testing.T, f File, opts Options) FilePlan {
	t.Helper()
	p := PlanQuick([]File{f}, opts)
	for _, fl := range p.Flags {
		if fl.Kind == GateRefused {
			t.Fatalf("planner produced a plan the gate refuses: %+v", fl)
		}
	}
	if !gate.CheckSet(p.GateChanges(), nil).OK {
		t.Fatalf("plan does not pass the gate")
	}
	return p.Files[0]
}

func TestQuickCuts(t *testing.T) {
	tests := []struct {
		name, in, want string
		kinds          []CutKind
	}{
		{"repeated bullet inside one list is a step",
			"# Rules\n- always run the linter first\n- use tabs\n- always run the linter first\n",
			"# Rules\n- always run the linter first\n- use tabs\n- always run the linter first\n",
			nil},
		{"repeated step of a numbered procedure across blank lines",
			"1. Build the release image\n\n   - run the smoke tests again\n\n1. Push the image\n\n   - run the smoke tests again\n",
			"1. Build the release image\n\n   - run the smoke tests again\n\n1. Push the image\n\n   - run the smoke tests again\n",
			nil},
		{"duplicate bullet in a later list of the same section",
			"# Rules\n- always run the linter first\n- use tabs\n\nSome paragraph here.\n\n- always run the linter first\n",
			"# Rules\n- always run the linter first\n- use tabs\n\nSome paragraph here.\n",
			nil},
		{"duplicate in another section is kept",
			"## Production\n- timeout is 30s for all calls\n\n## Staging\n- timeout is 30s for all calls\n",
			"## Production\n- timeout is 30s for all calls\n\n## Staging\n- timeout is 30s for all calls\n",
			nil},
		{"short lines are structure",
			"- yes\n- no\n- yes\n",
			"- yes\n- no\n- yes\n",
			nil},
		{"paragraph fragments are kept",
			"The build uses the cache\nand then the deploy runs.\n\nThe build uses the cache\nand nothing else.\n",
			"The build uses the cache\nand then the deploy runs.\n\nThe build uses the cache\nand nothing else.\n",
			nil},
		{"duplicate block",
			"Intro para here.\n\n- step one is long enough\n- step two is long enough\n\nMiddle.\n\n- step one is long enough\n- step two is long enough\n",
			"Intro para here.\n\n- step one is long enough\n- step two is long enough\n\nMiddle.\n",
			[]CutKind{BlankRun, DuplicateBlock}},
		{"nested children keep their parent",
			"- Linux setup notes here\n  - run make first\n- macOS\n- Linux setup notes here\n  - run brew first\n",
			"- Linux setup notes here\n  - run make first\n- macOS\n- Linux setup notes here\n  - run brew first\n",
			nil},
		{"ordered items are positional",
			"1. install the toolchain\n2. build everything\n3. install the toolchain\n",
			"1. install the toolchain\n2. build everything\n3. install the toolchain\n",
			nil},
		{"blank runs",
			"a paragraph\n\n\n\nanother\n\n\n",
			"a paragraph\n\nanother\n",
			[]CutKind{BlankRun, BlankRun}},
		{"trailing whitespace and hard break",
			"line one with break  \nline two\nend spaces   \n\n# Head  \n",
			"line one with break  \nline two\nend spaces\n\n# Head\n",
			[]CutKind{TrailingWhitespace}},
		{"hard break before a quote and an indented continuation; none before a list item",
			"Address line one  \n- item after a break  \n> quoted after a break  \n    continuation line\n",
			"Address line one\n- item after a break  \n> quoted after a break  \n    continuation line\n",
			nil},
		{"hard break whose next line is a cut duplicate keeps nothing it needs",
			"Intro para here.\n\n- keep this line please\n\nSecond para  \n\n- keep this line please\n",
			"Intro para here.\n\n- keep this line please\n\nSecond para\n",
			nil},
		{"fenced code untouched",
			"```sh\nmake all   \nmake all   \n\n\n\n```\n",
			"```sh\nmake all   \nmake all   \n\n\n\n```\n",
			nil},
		{"indented code untouched",
			"Text.\n\n    make all  \n\n\n    make all  \n",
			"Text.\n\n    make all  \n\n\n    make all  \n",
			nil},
		{"front matter untouched",
			"---\nname: x   \n\n\ndescription: y\n---\nbody\n",
			"---\nname: x   \n\n\ndescription: y\n---\nbody\n",
			nil},
		{"crlf kept",
			"- keep this line please\r\n\r\nText here.\r\n\r\n\r\n- keep this line please\r\n",
			"- keep this line please\r\n\r\nText here.\r\n",
			nil},
		{"no final newline kept",
			"- keep this line please\n\nText.\n\n- keep this line please",
			"- keep this line please\n\nText.",
			nil},
		{"pre block untouched",
			"<pre>\nx   \n\n\n</pre>\n",
			"<pre>\nx   \n\n\n</pre>\n",
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := planOne(t, one(tt.in), Options{})
			if string(fp.New) != tt.want {
				t.Errorf("new = %q\nwant  %q", fp.New, tt.want)
			}
			if fp.Changed != (tt.in != tt.want) {
				t.Errorf("Changed = %v", fp.Changed)
			}
			if tt.kinds != nil {
				var got []CutKind
				for _, c := range fp.Cuts {
					got = append(got, c.Kind)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.kinds) {
					t.Errorf("cuts %v, want %v", got, tt.kinds)
				}
			}
		})
	}
}

// TestCrossFileNeverCut: a line is never removed because another file holds it, whatever
// loads the two files (Codex reads AGENTS.md alone even when CLAUDE.md imports it); an
// always-loaded copy is reported with where the first copy lives.
func TestCrossFileNeverCut(t *testing.T) {
	line := "- run gofmt before every commit\n"
	mk := func(path, platform, scope string) File {
		return File{Path: path, Content: []byte("# Rules\n" + line), Platform: platform, Scope: scope, AlwaysLoaded: true}
	}
	tests := []struct {
		name   string
		a, b   File
		report bool
	}{
		{"same platform and scope", mk("/p/CLAUDE.md", "claude-code", "project"), mk("/p/.claude/CLAUDE.md", "claude-code", "project"), true},
		{"imported AGENTS.md", mk("/p/CLAUDE.md", "claude-code", "project"), mk("/p/AGENTS.md", "codex", "project"), true},
		{"different scope", mk("/home/u/.claude/CLAUDE.md", "claude-code", "user"), mk("/p/CLAUDE.md", "claude-code", "project"), true},
		{"read-only first copy", func() File {
			f := mk("/home/u/.claude/agents/x.md", "claude-code", "project")
			f.ReadOnly = true
			return f
		}(), mk("/p/CLAUDE.md", "claude-code", "project"), true},
		{"inherited first copy", func() File { f := mk("/CLAUDE.md", "claude-code", "project"); f.Inherited = true; return f }(), mk("/p/CLAUDE.md", "claude-code", "project"), true},
		{"recall-only file", mk("/p/CLAUDE.md", "claude-code", "project"), func() File { f := mk("/m/notes.md", "claude-code", "project"); f.AlwaysLoaded = false; return f }(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PlanQuick([]File{tt.a, tt.b}, Options{})
			if p.Files[0].Changed || p.Files[1].Changed {
				t.Fatalf("a cross-file copy was cut: %+v / %+v", p.Files[0].Cuts, p.Files[1].Cuts)
			}
			var got []Flag
			for _, fl := range p.Flags {
				if fl.Kind == CrossFileDuplicate {
					got = append(got, fl)
				}
			}
			if !tt.report {
				if len(got) > 0 {
					t.Fatalf("unexpected report %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Path != tt.b.Path || got[0].Line != 2 || !strings.Contains(got[0].Reason, tt.a.Path+" (the first is line 2") {
				t.Fatalf("report %+v", got)
			}
		})
	}
}

func TestRefusedFiles(t *testing.T) {
	dup := "- a line long enough to dedup\n- a line long enough to dedup\n\n\n"
	tests := []struct {
		name    string
		f       File
		opts    Options
		flag    FlagKind
		changed bool
	}{
		{"pinned", one("---\npinned: true\n---\n" + dup), Options{}, Pinned, false},
		{"unverifiable", one("---\npinned: true\n" + dup), Options{}, Unverifiable, false},
		{"unreadable", one("\xff\xfe" + dup), Options{}, Unreadable, false},
		{"oversize is flagged and still planned", one(dup + strings.Repeat("x", 300) + "\n"), Options{MaxFileBytes: 100}, Oversize, true},
		{"stale", func() File { f := one(dup); f.ModTime = time.Unix(1000, 0); return f }(), Options{StaleAfter: time.Hour, Now: time.Unix(1000, 0).Add(48 * time.Hour)}, Stale, false},
		{"index over cap flags but cuts", func() File { f := one(dup + strings.Repeat("- entry\n", 5)); f.Kind = "memory-index"; return f }(), Options{IndexMaxLines: 3}, IndexOverCap, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PlanQuick([]File{tt.f}, tt.opts)
			if p.Files[0].Changed != tt.changed {
				t.Errorf("changed = %v, want %v", p.Files[0].Changed, tt.changed)
			}
			found := false
			for _, fl := range p.Flags {
				if fl.Kind == tt.flag {
					found = true
				}
			}
			if !found {
				t.Errorf("flag %s missing: %+v", tt.flag, p.Flags)
			}
		})
	}
}

func TestIndexAndLinks(t *testing.T) {
	tree := NewTree([]string{
		"/m/memory/MEMORY.md",
		"/m/memory/alive.md",
		"/m/memory/topics/moved.md",
		"/m/memory/a/twin.md",
		"/m/memory/b/twin.md",
		"/m/memory/README.md",
		"/p/docs/elsewhere.md",
	})
	index := "# Memory\n" +
		"- [Alive](alive.md) — still here\n" +
		"- [Gone](gone.md)\n" +
		"- **[Gone 2024-05-01](gone-dated.md)**:\n" +
		"- [Gone with lessons](gone3.md) — port 8443, never deploy on Fridays\n" +
		"- [Moved](moved.md#usage) — moved note\n" +
		"- [Twin](twin.md) — ambiguous\n" +
		"- [Gone but web](gone2.md) and https://example.com\n" +
		"- [Package readme](pkg/README.md) — the package's own guide\n" +
		"- [Other root](elsewhere.md) — lives in the project, not here\n" +
		"See `[code](nope.md)` too.\n"
	f := File{Path: "/m/memory/MEMORY.md", Content: []byte(index), Kind: "memory-index", Platform: "claude-code", Scope: "local", AlwaysLoaded: true}
	p := PlanQuick([]File{f}, Options{Tree: tree, LinkRoots: []string{"/p", "/m/memory"}})
	got := string(p.Files[0].New)
	want := "# Memory\n" +
		"- [Alive](alive.md) — still here\n" +
		"- [Gone with lessons](gone3.md) — port 8443, never deploy on Fridays\n" +
		"- [Moved](topics/moved.md#usage) — moved note\n" +
		"- [Twin](twin.md) — ambiguous\n" +
		"- [Gone but web](gone2.md) and https://example.com\n" +
		"- [Package readme](pkg/README.md) — the package's own guide\n" +
		"- [Other root](elsewhere.md) — lives in the project, not here\n" +
		"See `[code](nope.md)` too.\n"
	if got != want {
		t.Fatalf("new =\n%s\nwant\n%s", got, want)
	}
	ap := p.Files[0].Approved
	if !ap["link:gone.md"] || !ap["link:gone-dated.md"] || !ap["date:2024-05-01"] || !ap["link:moved.md#usage"] {
		t.Errorf("approvals %v", ap)
	}
	if d := strings.Join(p.Files[0].ApprovedDrops, " "); d != "date:2024-05-01 link:gone-dated.md link:gone.md link:moved.md#usage" {
		t.Errorf("approved drops named for the receipt: %q", d)
	}
	flags := map[FlagKind][]int{}
	for _, fl := range p.Flags {
		flags[fl.Kind] = append(flags[fl.Kind], fl.Line)
	}
	if fmt.Sprint(flags[AmbiguousLink]) != "[7]" || fmt.Sprint(flags[DeadLink]) != "[8]" || fmt.Sprint(flags[DeadIndexEntryKept]) != "[5 9 10]" {
		t.Errorf("flags %v", flags)
	}
	if !gate.CheckSet(p.GateChanges(), nil).OK {
		t.Fatal("plan with its approvals does not pass the gate")
	}
	// What `wash verify` reports on the result is exactly what the receipt names.
	var verify []string
	for _, d := range gate.Verify(f.Content, p.Files[0].New) {
		verify = append(verify, d.Key())
	}
	sort.Strings(verify)
	if strings.Join(slices.Compact(verify), " ") != strings.Join(p.Files[0].ApprovedDrops, " ") {
		t.Errorf("verify reports %v, the receipt names %v", verify, p.Files[0].ApprovedDrops)
	}
	// Without the approvals the same plan must block: the approvals are what lets it through.
	ch := p.GateChanges()
	ch[0].Approved = nil
	if gate.CheckSet(ch, nil).OK {
		t.Fatal("dead entry removal passes without approval")
	}
}

// TestLinksNeverHarm: the repoints the issue found on real files. A link to a sub-directory's
// AGENTS.md absent from the checkout is never pointed at the file itself; a package README.md
// link is never pointed at the root README.md; a distinctive name whose only match is the
// linking file itself is not repointed either. All are reported, none changed.
func TestLinksNeverHarm(t *testing.T) {
	tree := NewTree([]string{"/p/AGENTS.md", "/p/README.md", "/p/notes.md", "/p/CLAUDE.md"})
	agents := "# Guides\n\n- [api/AGENTS.md](api/AGENTS.md)\n- [web guide](web/AGENTS.md)\n- See the [package readme](packages/core/README.md).\n"
	files := []File{
		{Path: "/p/AGENTS.md", Content: []byte(agents), Platform: "codex", Scope: "project", AlwaysLoaded: true},
		{Path: "/p/notes.md", Content: []byte("- Old copy: [notes](archive/notes.md) is gone\n"), Platform: "claude-code", Scope: "project", AlwaysLoaded: true},
	}
	p := PlanQuick(files, Options{Tree: tree, LinkRoots: []string{"/p"}})
	for _, f := range p.Files {
		if f.Changed {
			t.Fatalf("%s changed: %+v\n%s", f.Path, f.Cuts, f.New)
		}
	}
	dead := 0
	for _, fl := range p.Flags {
		if fl.Kind == DeadLink {
			dead++
		}
	}
	if dead != 4 {
		t.Fatalf("want 4 dead links reported, got %+v", p.Flags)
	}
}

// A note moved into archive/ after its entry was repointed, then an agent re-saved the old
// entry: repointing it would make it an exact copy of the repointed one, which the gate reads
// as two distinct lines folded into one. The entry is left (flagged) and the rest of the file
// is still washed; before, the whole file was gate-refused and its fat frozen.
func TestRepointThatWouldDuplicateIsLeft(t *testing.T) {
	tree := NewTree([]string{"/m/memory/MEMORY.md", "/m/memory/archive/export-17.md"})
	index := "# Memory\n\n" +
		"- [export notes 17](archive/export-17.md): export service 17 on port 20119, reviewed 2029-10-24\n" +
		"- The staging database runs on port 5433 behind pgbouncer   \n" +
		"- [export notes 17](export-17.md): export service 17 on port 20119, reviewed 2029-10-24\n"
	f := File{Path: "/m/memory/MEMORY.md", Content: []byte(index), Kind: "memory-index", Platform: "claude-code", Scope: "local", AlwaysLoaded: true}
	p := PlanQuick([]File{f}, Options{Tree: tree})
	want := "# Memory\n\n" +
		"- [export notes 17](archive/export-17.md): export service 17 on port 20119, reviewed 2029-10-24\n" +
		"- The staging database runs on port 5433 behind pgbouncer\n" +
		"- [export notes 17](export-17.md): export service 17 on port 20119, reviewed 2029-10-24\n"
	if got := string(p.Files[0].New); got != want {
		t.Fatalf("new =\n%s\nwant\n%s", got, want)
	}
	kinds := map[FlagKind]int{}
	for _, fl := range p.Flags {
		kinds[fl.Kind]++
	}
	if kinds[DeadLink] != 1 || kinds[GateRefused] != 0 {
		t.Fatalf("flags %+v", p.Flags)
	}
}

// genFiles builds a random always-loaded set with the fat Quick targets and the traps it must
// respect (sections, fences, indented code, hard breaks, children, tables, front matter).
func genFiles(r *rand.Rand) []File {
	facts := []string{
		"- deploy with `make release` on 2024-03-05",
		"- owner is [[Ops Team]] since v2.1.0",
		"- pass 878 / fail 0 in CI",
		"- never force-push “main” branch",
		"- docs at https://example.com/guide",
		"- retry 3 times, timeout 30s",
		"- cache hit rate 92.5% at 44,192 rows",
		"Use the shared cache for builds.",
		"- [Gone note](gone.md) — about 7 things",
		"- [Gone note 2](gone2.md)",
		"- **[Old 2023-02-01](old.md)**",
		"- [Alive](alive.md) — here on 2024-01-02",
		"- [Moved](moved.md) — see v1.2.3",
	}
	traps := []string{
		"```sh\nmake all   \nmake all   \n\n\n```",
		"\n    indented 42  \n\n    indented 42  \n",
		"line with break  \nnext line 7",
		"- parent item long enough\n  - child 1",
		"| k | v |\n|---|---|\n| a | 1 |\n| a | 1 |",
		"## Production",
		"## Staging",
		"",
		"",
		"  ",
		"The build uses the cache\nand then 5 more.",
		"\nShared paragraph line one\nand line two of it, 12 words.\n",
		"1. first ordered step here",
		"> quoted 9 note here please",
		"[ref]: https://example.org/ref",
	}
	n := 1 + r.Intn(3)
	var files []File
	var pool []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		if r.Intn(3) == 0 {
			b.WriteString("---\nname: n\n---\n")
		}
		for j := 0; j < 5+r.Intn(25); j++ {
			var l string
			switch k := r.Intn(10); {
			case k < 4:
				l = facts[r.Intn(len(facts))]
			case k < 7:
				l = traps[r.Intn(len(traps))]
			case len(pool) > 0:
				l = pool[r.Intn(len(pool))]
			}
			if r.Intn(5) == 0 {
				l += "   "
			}
			pool = append(pool, l)
			b.WriteString(l + "\n")
		}
		scope := []string{"project", "project", "local"}[r.Intn(3)]
		kind := ""
		if i == 0 {
			kind = "memory-index"
		}
		platform := []string{"claude-code", "codex", "gemini", "cursor"}[r.Intn(4)]
		files = append(files, File{Path: fmt.Sprintf("/p/f%d.md", i), Content: []byte(b.String()), Platform: platform, Scope: scope,
			AlwaysLoaded: r.Intn(4) != 0, Kind: kind, ReadOnly: r.Intn(6) == 0})
	}
	return files
}

func TestPropertyPlanPassesGate(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	tree := NewTree([]string{"/p/alive.md", "/p/notes/moved.md"})
	cut, kinds := 0, map[CutKind]int{}
	for i := 0; i < 500; i++ {
		files := genFiles(r)
		p := PlanQuick(files, Options{Tree: tree})
		for _, f := range p.Files {
			for _, c := range f.Cuts {
				kinds[c.Kind]++
			}
		}
		for _, fl := range p.Flags {
			if fl.Kind == GateRefused {
				t.Fatalf("iteration %d: planner produced a gate-refused plan for %s line %d", i, fl.Path, fl.Line)
			}
		}
		for j, f := range p.Files {
			if files[j].ReadOnly && f.Changed {
				t.Fatalf("iteration %d: read-only %s was changed", i, f.Path)
			}
			if lost := lostLines(f); len(lost) > 0 {
				t.Fatalf("iteration %d: %s lost lines that are not within-file duplicates: %q\n%s", i, f.Path, lost, f.Orig)
			}
		}
		if v := gate.CheckSet(p.GateChanges(), nil); !v.OK {
			t.Fatalf("iteration %d: gate blocks %v", i, v.Blocking())
		}
		cut += p.TokensCut
		// Convergence: a repointed line is only deduplicated by the next pass (the gate compares
		// original lines), so within two more passes Quick reaches a fixpoint, every pass gated.
		again := files
		for pass := 0; ; pass++ {
			next := make([]File, len(again))
			for j, f := range p.Files {
				next[j] = again[j]
				next[j].Content = f.New
			}
			again = next
			p = PlanQuick(again, Options{Tree: tree})
			if v := gate.CheckSet(p.GateChanges(), nil); !v.OK {
				t.Fatalf("iteration %d pass %d: gate blocks %v", i, pass, v.Blocking())
			}
			if !anyChanged(p) {
				break
			}
			if pass == 1 {
				for _, f := range p.Files {
					if f.Changed {
						t.Fatalf("iteration %d: no fixpoint after 3 passes, %s: %+v\n%s", i, f.Path, f.Cuts, f.Orig)
					}
				}
			}
		}
	}
	for _, k := range []CutKind{DuplicateLine, DuplicateBlock, BlankRun, TrailingWhitespace, DeadIndexEntry, LinkRepoint} {
		if kinds[k] == 0 {
			t.Errorf("generator never exercised %s: the property is vacuous for it", k)
		}
	}
	if cut == 0 {
		t.Fatal("generator produced no fat: the property is vacuous")
	}
}

// lostLines returns the original lines of a file plan (trailing whitespace aside) that no
// line of the result holds, except the ones a named cut removed on purpose with an approval:
// a dead index entry carrying nothing but its link and title, or a repointed link line. A
// duplicate line or block removed within the file leaves its first copy, so it is not lost; a
// line held only by another file would be.
func lostLines(f FilePlan) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(string(f.New), "\n") {
		have[strings.TrimRight(l, " \t\r")] = true
	}
	named := map[int]bool{}
	for _, c := range f.Cuts {
		if c.Kind == DeadIndexEntry || c.Kind == LinkRepoint {
			named[c.Line] = true
		}
	}
	var lost []string
	for i, l := range strings.Split(string(f.Orig), "\n") {
		k := strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(k) == "" || have[k] || named[i+1] {
			continue
		}
		lost = append(lost, k)
	}
	return lost
}

func anyChanged(p Plan) bool {
	for _, f := range p.Files {
		if f.Changed {
			return true
		}
	}
	return false
}

// FuzzPlanQuick checks every plan against oracles of its own, not the gate's: the raw inputs'
// results only delete (onlyCuts), and a set of files generated from the same bytes with a
// construction-time ledger of what each line may lose (ledgerCheck). The gate must pass too, but
// a gate that let a loss through would not hide it from these.
func FuzzPlanQuick(f *testing.F) {
	f.Add([]byte("# A\n- same line long enough\n- same line long enough\n\n\n\ntrailing  \n"), []byte("- same line long enough\n"))
	f.Add([]byte("```\nx\n```\n    y\n"), []byte("---\na: 1\n---\n"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, []byte{200, 17, 3, 99, 5})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		files := []File{
			{Path: "/p/a.md", Content: a, Platform: "x", Scope: "project", AlwaysLoaded: true},
			{Path: "/p/b.md", Content: b, Platform: "x", Scope: "project", AlwaysLoaded: true, Kind: "memory-index"},
		}
		p := PlanQuick(files, Options{Tree: NewTree([]string{"/p/a.md", "/p/x/c.md"})})
		for _, fp := range p.Files {
			if err := onlyCuts(fp.Orig, fp.New, nil); err != nil {
				t.Fatalf("%s: %v", fp.Path, err)
			}
		}
		if v := gate.CheckSet(p.GateChanges(), nil); !v.OK {
			t.Fatalf("plan blocked: %v", v.Blocking())
		}
		gen := genLedger(append(append([]byte(nil), a...), b...))
		gp := PlanQuick(gen.files, Options{Tree: NewTree(gen.tree)})
		if err := gen.check(gp); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLedgerOracleCatchesLosses shows the ledger oracle is no rubber stamp: a plan that drops a
// fact line, a code line, a duplicate's last copy, or that writes a line of its own, fails it.
func TestLedgerOracleCatchesLosses(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	checked := 0
	for i := 0; i < 200 && checked < 20; i++ {
		data := make([]byte, 64)
		r.Read(data)
		gen := genLedger(data)
		p := PlanQuick(gen.files, Options{Tree: NewTree(gen.tree)})
		if err := gen.check(p); err != nil {
			t.Fatalf("honest plan fails the oracle: %v", err)
		}
		for fi, e := range gen.ledger {
			for _, le := range e {
				if le.may != mayNothing && le.may != mayTrim {
					continue
				}
				broken := p
				broken.Files = append([]FilePlan(nil), p.Files...)
				fp := broken.Files[fi]
				lines := strings.Split(string(fp.New), "\n")
				same := func(l string) bool { return strings.TrimRight(l, " \t") == strings.TrimRight(le.text, " \t") }
				k := slices.IndexFunc(lines, same)
				if k < 0 || slices.IndexFunc(lines[k+1:], same) >= 0 {
					continue // a line the result holds twice: dropping one copy loses nothing
				}
				rewritten := slices.Clone(lines)
				rewritten[k] += " and more"
				fp.New = []byte(strings.Join(slices.Delete(lines, k, k+1), "\n"))
				broken.Files[fi] = fp
				if gen.check(broken) == nil {
					t.Fatalf("dropping %q from %s passes the oracle", le.text, fp.Path)
				}
				fp.New = []byte(strings.Join(rewritten, "\n"))
				broken.Files[fi] = fp
				if gen.check(broken) == nil {
					t.Fatalf("rewriting %q in %s passes the oracle", le.text, fp.Path)
				}
				checked++
				break
			}
		}
	}
	if checked == 0 {
		t.Fatal("no ledger entry was exercised")
	}
	// The generator makes every kind of fat the ledger allows a cut for, so the oracle judges
	// real cuts.
	kinds := map[CutKind]int{}
	for i := 0; i < 300; i++ {
		data := make([]byte, 64)
		r.Read(data)
		gen := genLedger(data)
		for _, f := range PlanQuick(gen.files, Options{Tree: NewTree(gen.tree)}).Files {
			for _, c := range f.Cuts {
				kinds[c.Kind]++
			}
		}
	}
	for _, k := range []CutKind{DuplicateLine, BlankRun, TrailingWhitespace, DeadIndexEntry, LinkRepoint} {
		if kinds[k] == 0 {
			t.Errorf("the ledger generator never made a %s cut", k)
		}
	}
}

// may says what a cut may do to a generated line.
type may int

const (
	mayNothing may = iota // code, front matter, a hard break: byte for byte
	mayTrim               // a fact: its trailing whitespace may go, nothing else
	mayDedup              // a repeat of a fact: may go while a copy stays in the file
	mayBlank              // a blank line: may go
	mayDead               // an index entry linking only a missing note: may go
	mayRepoint            // a link to a moved note: may be repointed to its new place
)

// ledgerLine is one generated line and what a cut may do to it.
type ledgerLine struct {
	text string
	may  may
	of   string // the fact a repeat repeats; the repointed text of a moved link
}

// ledgerSet is a generated set of files with a ledger per file.
type ledgerSet struct {
	files  []File
	tree   []string
	ledger [][]ledgerLine
}

// choices reads a fuzzer's bytes as a stream of small choices (0 once exhausted).
type choices struct {
	b []byte
	i int
}

func (c *choices) next(n int) int {
	if c.i >= len(c.b) {
		return 0
	}
	v := int(c.b[c.i]) % n
	c.i++
	return v
}

// genLedger builds one to three memory files from data, recording for every line what a Quick
// cut may do to it. Every fact line is unique across the set (a number of its own); repeats are
// copies made on purpose, under the heading of the first copy.
func genLedger(data []byte) ledgerSet {
	c := &choices{b: data}
	set := ledgerSet{tree: []string{"/p/alive.md", "/p/notes/moved.md"}}
	n := 1 + c.next(3)
	fact := 0
	for fi := 0; fi < n; fi++ {
		path := fmt.Sprintf("/p/f%d.md", fi)
		set.tree = append(set.tree, path)
		kind := ""
		if fi == 0 {
			kind = "memory-index"
		}
		var ls []ledgerLine
		add := func(text string, m may, of string) { ls = append(ls, ledgerLine{text, m, of}) }
		if c.next(3) == 0 {
			add("---", mayNothing, "")
			add("name: n", mayNothing, "")
			add("---", mayNothing, "")
		}
		var section []string // facts of the current heading, for repeats
		for j, pieces := 0, 4+c.next(12); j < pieces; j++ {
			switch c.next(10) {
			case 0:
				add(fmt.Sprintf("## Section %d.%d", fi, j), mayNothing, "")
				add("", mayBlank, "")
				section = nil
			case 1, 2:
				fact++
				text := fmt.Sprintf("- fact %d: retry %d times before giving up", fact, fact)
				if c.next(2) == 0 {
					text += "   "
					add(text, mayTrim, "")
				} else {
					add(text, mayTrim, "")
				}
				section = append(section, strings.TrimRight(text, " "))
			case 3:
				if len(section) > 0 {
					of := section[c.next(len(section))]
					add(of, mayDedup, of)
				}
			case 4:
				fact++
				add("", mayBlank, "")
				add("```sh", mayNothing, "")
				add(fmt.Sprintf("make step%d   ", fact), mayNothing, "")
				add(fmt.Sprintf("make step%d   ", fact), mayNothing, "")
				add("```", mayNothing, "")
				add("", mayBlank, "")
			case 5:
				fact++
				add("", mayBlank, "")
				add(fmt.Sprintf("Line %d ends in a hard break  ", fact), mayNothing, "")
				add(fmt.Sprintf("and goes on with %d more words.", fact), mayTrim, "")
				add("", mayBlank, "")
			case 6:
				add("", mayBlank, "")
				add("", mayBlank, "")
			case 7:
				fact++
				text := fmt.Sprintf("- [Gone note %d](gone%d.md)", fact, fact)
				if kind == "memory-index" {
					add(text, mayDead, "")
				} else {
					add(text, mayTrim, "")
				}
			case 8:
				fact++
				text := fmt.Sprintf("- [Moved %d](moved.md) — see v1.%d", fact, fact)
				add(text, mayRepoint, strings.Replace(text, "(moved.md)", "(notes/moved.md)", 1))
			case 9:
				fact++
				add(fmt.Sprintf("1. ordered step %d stays where it is", fact), mayTrim, "")
			}
		}
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(l.text + "\n")
		}
		set.files = append(set.files, File{Path: path, Content: []byte(b.String()), Platform: "claude-code",
			Scope: "project", AlwaysLoaded: true, Kind: kind})
		set.ledger = append(set.ledger, ls)
	}
	return set
}

// check holds a plan to the ledger: each file's result is its original with lines removed
// (onlyCuts), a line kept byte for byte where nothing may change it, a fact kept (trailing
// whitespace aside), a repeat removed only while a copy of its fact stays, a moved link kept or
// repointed to its new place.
func (s ledgerSet) check(p Plan) error {
	for fi, fp := range p.Files {
		ls := s.ledger[fi]
		repointed := map[string]string{}
		for _, l := range ls {
			if l.may == mayRepoint {
				repointed[l.of] = l.text
			}
		}
		if err := onlyCuts(fp.Orig, fp.New, repointed); err != nil {
			return fmt.Errorf("%s: %w", fp.Path, err)
		}
		got := map[string]int{}
		exact := map[string]int{}
		for _, l := range strings.Split(string(fp.New), "\n") {
			got[strings.TrimRight(l, " \t")]++
			exact[l]++
		}
		need := map[string]int{}
		for _, l := range ls {
			if l.may == mayNothing {
				need[l.text]++
			}
		}
		for _, l := range ls {
			switch l.may {
			case mayNothing:
				if exact[l.text] < need[l.text] {
					return fmt.Errorf("%s: %q changed or lost (code, front matter or a hard break)", fp.Path, l.text)
				}
			case mayTrim:
				if got[strings.TrimRight(l.text, " \t")] == 0 {
					return fmt.Errorf("%s: fact %q lost", fp.Path, l.text)
				}
			case mayDedup:
				if got[l.of] == 0 {
					return fmt.Errorf("%s: every copy of %q lost", fp.Path, l.of)
				}
			case mayRepoint:
				if got[l.text] == 0 && got[l.of] == 0 {
					return fmt.Errorf("%s: moved link %q lost", fp.Path, l.text)
				}
			}
		}
	}
	return nil
}

// onlyCuts reports a result that is not its original with lines removed, trailing whitespace
// trimmed and (where repointed maps a result line to its original) links repointed: Quick never
// writes a line of its own, nor moves one.
func onlyCuts(orig, result []byte, repointed map[string]string) error {
	ol := strings.Split(string(orig), "\n")
	k := 0
	for _, l := range strings.Split(string(result), "\n") {
		want := strings.TrimRight(l, " \t")
		if o, ok := repointed[want]; ok {
			want = o
		}
		for k < len(ol) && strings.TrimRight(ol[k], " \t") != want {
			k++
		}
		if k == len(ol) {
			return fmt.Errorf("result line %q is no original line in order", l)
		}
		if l != ol[k] && !strings.HasPrefix(ol[k], l) && repointed[strings.TrimRight(l, " \t")] == "" {
			return fmt.Errorf("result line %q is %q with more than trailing whitespace changed", l, ol[k])
		}
		k++
	}
	return nil
}

func BenchmarkPlanQuick1MB(b *testing.B) {
	r := rand.New(rand.NewSource(9))
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		for _, f := range genFiles(r) {
			sb.Write(f.Content)
		}
	}
	files := []File{{Path: "/p/big.md", Content: []byte(sb.String()), Platform: "x", Scope: "project", AlwaysLoaded: true}}
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PlanQuick(files, Options{MaxFileBytes: 2 << 20})
	}
}

// TestMutationSafetyChecks shows each of the planner's own safety checks is what keeps a
// structural loss out: removing a dead index entry would end its list, turning the indented
// continuation below into a code block (prose tokens become a code line).
func TestMutationSafetyChecks(t *testing.T) {
	in := "- [Gone note](gone.md)\nThe build uses the cache\n\n    indented 42 more\n"
	f := File{Path: "/m/MEMORY.md", Content: []byte(in), Kind: "memory-index", Platform: "claude-code", Scope: "local", AlwaysLoaded: true}
	tree := NewTree([]string{"/m/MEMORY.md"})
	gated := func(o Options) (Plan, bool) {
		p := PlanQuick([]File{f}, o)
		return p, gate.CheckSet(p.GateChanges(), nil).OK
	}
	hasFlag := func(p Plan, k FlagKind) bool {
		for _, fl := range p.Flags {
			if fl.Kind == k {
				return true
			}
		}
		return false
	}
	p, ok := gated(Options{Tree: tree})
	if !ok || hasFlag(p, GateRefused) {
		t.Fatalf("baseline: gate ok %v, flags %+v", ok, p.Flags)
	}
	for _, c := range p.Files[0].Cuts {
		if c.Kind == DeadIndexEntry {
			t.Fatal("structure-changing cut survived stabilize")
		}
	}
	o := Options{Tree: tree}
	o.off.stabilize = true
	p, ok = gated(o)
	if !ok || !hasFlag(p, GateRefused) || p.Files[0].Changed {
		t.Fatalf("without stabilize the self-gate must refuse the file: ok %v changed %v flags %+v", ok, p.Files[0].Changed, p.Flags)
	}
	o.off.selfGate = true
	if _, ok = gated(o); ok {
		t.Fatal("with both checks off the loss should reach the gate and be blocked there")
	}
}
