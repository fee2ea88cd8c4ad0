package wash

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
	"github.com/prosewash/prosewash/internal/testtool"
)

var updateCorpus = flag.Bool("update", false, "rewrite testdata/corpus-quick.golden and heldout-quick.golden from the corpora")

// corpusDir is the development corpus of real memory files
// (testdata/corpus/memory, or $PROSEWASH_MEMORY_CORPUS).
func corpusDir(t *testing.T) string {
	d := testtool.MemoryCorpus(t)
	if _, err := os.Stat(filepath.Join(d, "index.tsv")); err != nil {
		t.Fatalf("the memory corpus has no index.tsv: %v", err)
	}
	return d
}

type corpusRow struct{ repo, path, file, note string }

func corpusRows(t *testing.T, dir string) []corpusRow {
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first || len(c) < 5 {
			continue
		}
		r := corpusRow{repo: c[0], path: c[1], file: c[4]}
		if len(c) > 5 {
			r.note = c[5]
		}
		rows = append(rows, r)
	}
	return rows
}

// moduleRows adds the memory files Go modules this project depends on ship (in the module
// cache, which `go mod download` fills in CI too): more real files, from another source.
func moduleRows(t *testing.T) []corpusRow {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pelletier/go-toml/v2").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("go list -m github.com/pelletier/go-toml/v2: %v", err)
	}
	return []corpusRow{{repo: "pelletier/go-toml (Go module cache)", path: "AGENTS.md", file: filepath.Join(dir, "AGENTS.md")}}
}

// corpusProject lays one repository's rows out as a project in a fake home, the way they load:
// user-global files in ~/.claude, auto-memory indexes in the project's memory directory,
// curated Cursor rules in .cursor/rules, symlinks recreated.
func corpusProject(t *testing.T, base, dir string, rows []corpusRow) (home, proj string, placed map[string]string) {
	home, proj = filepath.Join(base, "home"), filepath.Join(base, "home", "src", "proj")
	placed = map[string]string{} // stored file -> placed path
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(proj, ".git", "HEAD"))
	if err := os.WriteFile(filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		dst := filepath.Join(proj, filepath.FromSlash(r.path))
		switch {
		case r.file == "-":
			to, ok := strings.CutPrefix(r.note, "symlink to ")
			if !ok {
				continue
			}
			to = strings.Fields(to)[0]
			mk(dst)
			target, _ := filepath.Rel(filepath.Dir(dst), filepath.Join(proj, filepath.FromSlash(to)))
			if err := os.Symlink(target, dst); err != nil {
				t.Fatal(err)
			}
			continue
		case strings.Contains(r.note, "user-global ~/.claude/CLAUDE.md"):
			dst = filepath.Join(home, ".claude", "CLAUDE.md")
		case strings.Contains(r.note, "~/.claude/projects/<slug>/memory/"):
			dst = filepath.Join(discover.MemoryDir(discover.Options{Home: home, ProjectRoot: proj}), filepath.Base(strings.Fields(r.path)[0]))
		case strings.Contains(r.note, ".cursor/rules/*.mdc"):
			dst = filepath.Join(proj, ".cursor", "rules", filepath.Base(r.path))
		}
		src := r.file
		if !filepath.IsAbs(src) {
			src = filepath.Join(dir, r.file)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		mk(dst)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		placed[r.file] = dst
	}
	return home, proj, placed
}

// TestCorpusQuickCuts runs discovery, the gauge and the Quick planner over every repository of
// the development corpus of real memory files, laid out as it loads, and compares every cut
// (with the text it removes), every approved drop and every finding with
// testdata/corpus-quick.golden, a file a person reads and judges line by line. Files no
// platform loads from their place (subagent memory, a skill file, an archived CLAUDE.md) are
// planned on their own. Whatever the golden says, it also checks what must hold on any file:
// no line is lost that is not a within-file duplicate or a bare dead index entry, nothing the
// lane does not own is cut, and `wash verify` on each result reports exactly the drops the
// receipt names.
func TestCorpusQuickCuts(t *testing.T) {
	dir := corpusDir(t)
	corpusQuickCuts(t, "development corpus", dir, append(corpusRows(t, dir), moduleRows(t)...), "corpus-quick.golden")
}

// TestHeldoutQuickCuts does the same over the held-out corpus (testdata/corpus/memory-heldout:
// real files from other repositories, never used to develop quick or the gate), with its own
// golden, testdata/heldout-quick.golden, judged line by line in the same way.
func TestHeldoutQuickCuts(t *testing.T) {
	dir := heldoutDir(t)
	corpusQuickCuts(t, "held-out corpus", dir, corpusRows(t, dir), "heldout-quick.golden")
}

// heldoutDir is the held-out corpus of real memory files (testdata/corpus/memory-heldout).
func heldoutDir(t *testing.T) string {
	d := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-heldout")
	if _, err := os.Stat(filepath.Join(d, "index.tsv")); err != nil {
		t.Fatalf("the held-out memory corpus has no index.tsv: %v", err)
	}
	return d
}

// corpusQuickCuts plans every repository of a corpus laid out as it loads and compares the
// plan with a golden file (see TestCorpusQuickCuts).
func corpusQuickCuts(t *testing.T, name, dir string, rows []corpusRow, goldenName string) {
	var repos []string
	byRepo := map[string][]corpusRow{}
	for _, r := range rows {
		if _, ok := byRepo[r.repo]; !ok {
			repos = append(repos, r.repo)
		}
		byRepo[r.repo] = append(byRepo[r.repo], r)
	}
	sort.Strings(repos)
	var out bytes.Buffer
	totalCut, totalFiles, cuts := 0, 0, 0
	for i, repo := range repos {
		base := filepath.Join(t.TempDir(), fmt.Sprint(i))
		home, proj, placed := corpusProject(t, base, dir, byRepo[repo])
		res, err := discover.Discover(discover.Options{Home: home, ProjectRoot: proj})
		if err != nil {
			t.Fatal(err)
		}
		memDir := discover.MemoryDir(discover.Options{Home: home, ProjectRoot: proj})
		tree, err := quick.ScanTree([]string{proj, memDir}, 20000)
		if err != nil {
			t.Fatal(err)
		}
		rep := Measure(res, Config{Read: os.ReadFile, Quick: quick.Options{Tree: tree, LinkRoots: []string{proj, memDir}}})
		show := func(p string) string { return relReason(p, proj, memDir, home) }
		fmt.Fprintf(&out, "## %s\n", repo)
		for _, l := range rep.Measurement.Platforms {
			fmt.Fprintf(&out, "load %s: %d tok in %d file(s), fat %d\n", l.Platform, l.Footprint, l.Files, l.Fat)
			if l.Footprint < 0 || l.Fat < 0 || l.Fat > l.Footprint || l.Files < 1 {
				t.Errorf("%s: %s loads %d tok in %d file(s) with %d fat: not a reading", repo, l.Platform, l.Footprint, l.Files, l.Fat)
			}
		}
		discovered := map[string]bool{}
		for _, f := range rep.Files {
			discovered[f.Real] = true
		}
		plans := rep.Plan
		var alone []quick.File
		var stored []string
		for file, p := range placed {
			if !discovered[p] {
				stored = append(stored, file)
			}
		}
		sort.Strings(stored)
		for _, file := range stored {
			p := placed[file]
			b, _ := os.ReadFile(p)
			kind := "governance"
			if filepath.Base(p) == "MEMORY.md" {
				kind = "memory-index"
			}
			alone = append(alone, quick.File{Path: p, Real: p, Content: b, Kind: kind, AlwaysLoaded: true})
		}
		if len(alone) > 0 {
			ap := quick.PlanQuick(alone, quick.Options{Tree: tree, LinkRoots: []string{proj, memDir}})
			plans.Files = append(plans.Files, ap.Files...)
			plans.Flags = append(plans.Flags, ap.Flags...)
		}
		owned := map[string]bool{}
		for _, f := range rep.Files {
			owned[f.Path] = f.Owned
		}
		for _, fp := range plans.Files {
			totalFiles++
			note := ""
			if o, ok := owned[fp.Path]; ok && !o {
				note = " (measured only)"
			} else if !ok {
				note = " (loaded by no platform from here: planned alone)"
			}
			fmt.Fprintf(&out, "### %s%s: %d tok, cut %d\n", show(fp.Path), note, fp.TokensBefore, fp.TokensBefore-fp.TokensAfter)
			if fp.Changed && note == " (measured only)" {
				t.Errorf("%s %s: a file the lane does not own was planned for change", repo, show(fp.Path))
			}
			totalCut += fp.TokensBefore - fp.TokensAfter
			orig := strings.Split(string(fp.Orig), "\n")
			for _, c := range fp.Cuts {
				cuts++
				fmt.Fprintf(&out, "cut %s at %d (%d line(s)): %s\n", c.Kind, c.Line, c.Lines, relReason(c.Reason, proj, memDir, home))
				switch c.Kind {
				case quick.DuplicateLine, quick.DuplicateBlock, quick.DeadIndexEntry:
					for k := c.Line; k < c.Line+c.Lines && k <= len(orig); k++ {
						fmt.Fprintf(&out, "  - %q\n", orig[k-1])
					}
				case quick.LinkRepoint:
					fmt.Fprintf(&out, "  ~ %q\n", orig[c.Line-1])
				case quick.TrailingWhitespace:
					kept := map[string]bool{}
					for _, l := range strings.Split(string(fp.New), "\n") {
						kept[l] = true
					}
					for k, l := range orig {
						if t := strings.TrimRight(l, " \t"); t != l && !kept[l] && kept[t] {
							fmt.Fprintf(&out, "  ~ %d: %q\n", k+1, l)
						}
					}
				}
			}
			for _, d := range fp.ApprovedDrops {
				fmt.Fprintf(&out, "approved drop %s\n", d)
			}
			if fp.Changed {
				// What `wash verify ORIG NEW` reports is exactly what the receipt names.
				var keys []string
				for _, d := range gate.Verify(fp.Orig, fp.New) {
					keys = append(keys, d.Key())
				}
				sort.Strings(keys)
				if strings.Join(slices.Compact(keys), " ") != strings.Join(fp.ApprovedDrops, " ") {
					t.Errorf("%s %s: verify reports %v, the receipt names %v", repo, show(fp.Path), keys, fp.ApprovedDrops)
				}
				if lost := corpusLost(fp); len(lost) > 0 {
					t.Errorf("%s %s: lines lost that are not within-file duplicates: %q", repo, show(fp.Path), lost)
				}
			}
		}
		flags := append([]quick.Flag(nil), plans.Flags...)
		sort.SliceStable(flags, func(i, j int) bool {
			if flags[i].Path != flags[j].Path {
				return flags[i].Path < flags[j].Path
			}
			return flags[i].Line < flags[j].Line
		})
		for _, fl := range flags {
			fmt.Fprintf(&out, "flag %s %s:%d: %s\n", fl.Kind, show(fl.Path), fl.Line, relReason(fl.Reason, proj, memDir, home))
		}
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "# %d repositories, %d files, %d cuts, %d tokens cut\n", len(repos), totalFiles, cuts, totalCut)
	t.Logf("%s: %d repositories, %d files, %d cuts, %d tokens cut", name, len(repos), totalFiles, cuts, totalCut)
	golden := filepath.Join("testdata", goldenName)
	if *updateCorpus {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update, then read and judge every cut): %v", err)
	}
	if !bytes.Equal(want, out.Bytes()) {
		t.Errorf("quick's plan of the corpus changed; compare with -update and judge every cut line by line:\n%s", firstDiff(string(want), out.String()))
	}
}

// relReason renders the temporary directories in a path or a reason naming one: the memory
// directory as "memory:", the project as relative, the fake home as "~/".
func relReason(s, proj, memDir, home string) string {
	sep := string(filepath.Separator)
	s = strings.ReplaceAll(s, memDir+sep, "memory:")
	s = strings.ReplaceAll(s, proj+sep, "")
	return strings.ReplaceAll(s, home+sep, "~/")
}

// corpusLost returns the original lines of a plan that no line of the result holds, except
// the ones a dead-index-entry cut removed (which carry nothing but a link and its title) and a
// repointed line: everything else Quick removes must leave its first copy in the same file.
func corpusLost(fp quick.FilePlan) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(string(fp.New), "\n") {
		have[strings.TrimRight(l, " \t\r")] = true
	}
	named := map[int]bool{}
	for _, c := range fp.Cuts {
		if c.Kind == quick.DeadIndexEntry || c.Kind == quick.LinkRepoint {
			named[c.Line] = true
		}
	}
	var lost []string
	for i, l := range strings.Split(string(fp.Orig), "\n") {
		k := strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(k) != "" && !have[k] && !named[i+1] {
			lost = append(lost, k)
		}
	}
	return lost
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}
