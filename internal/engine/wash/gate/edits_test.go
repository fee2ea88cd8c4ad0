package gate

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/prosewash/prosewash/internal/testtool"
)

// editCase is one hand edit of an excerpt of a real memory file of the development corpus
// (testdata/edits/*.txtar: the file, the excerpt's line range, and per edit the exact
// substitutions, each "--- old" text found once in the excerpt and replaced by its "+++ new"
// text). A "block" edit changes meaning and must be refused by a drop of the named class; a
// "pass" edit is an honest summary or rewording and must pass; a "miss" edit changes meaning in a
// way the gate is known not to see (counted as not blocked; it must stay unblocked until the gate
// learns it, then it moves to block/); a "falseblock" edit is honest but known to be blocked by
// the named class (counted as a false block until the gate learns it, then it moves to pass/).
type editCase struct {
	archive, name, kind, class, why string
	old, new                        []byte
	file                            string // the corpus file the excerpt is cut from
}

func loadEdits(t *testing.T) []editCase {
	t.Helper()
	return loadEditsFrom(t, filepath.Join("testdata", "edits"), testtool.MemoryCorpus(t))
}

// heldoutCorpus is the held-out corpus of real memory files (testdata/corpus/memory-heldout),
// which the edits of testdata/edits-heldout cut their excerpts from.
func heldoutCorpus(t *testing.T) string {
	return filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-heldout")
}

// loadEditsFrom reads the edit archives of dir, whose excerpts are cut from the files of corpus.
func loadEditsFrom(t *testing.T, dir, corpus string) []editCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no edit archives: %v", err)
	}
	var out []editCase
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range a.Files {
			files[f.Name] = f.Data
		}
		var file string
		var from, to int
		var heads []string
		described := map[string]bool{}
		sc := bufio.NewScanner(bytes.NewReader(a.Comment))
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "file: "); ok {
				file = v
				continue
			}
			if v, ok := strings.CutPrefix(line, "lines: "); ok {
				if _, err := fmt.Sscanf(v, "%d-%d", &from, &to); err != nil {
					t.Fatalf("%s: lines: %v", p, err)
				}
				continue
			}
			head, _, ok := strings.Cut(line, ": ")
			if kind, _, ok2 := strings.Cut(head, "/"); ok && ok2 && (kind == "block" || kind == "pass" || kind == "miss" || kind == "falseblock") {
				heads = append(heads, line)
			}
		}
		data, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil || from < 1 || to < from {
			t.Fatalf("%s: excerpt %s lines %d-%d: %v", p, file, from, to, err)
		}
		lines := strings.Split(string(data), "\n")
		if to > len(lines) {
			t.Fatalf("%s: %s has %d lines", p, file, len(lines))
		}
		old := strings.Join(lines[from-1:to], "\n") + "\n"
		for _, line := range heads {
			head, rest, _ := strings.Cut(line, ": ")
			kind, name, _ := strings.Cut(head, "/")
			class, why, _ := strings.Cut(rest, " — ")
			if strings.HasPrefix(rest, "— ") {
				class, why = "", strings.TrimPrefix(rest, "— ")
			}
			subs, ok := files[head]
			if !ok {
				t.Fatalf("%s: %s described but missing", p, head)
			}
			described[head] = true
			out = append(out, editCase{archive: filepath.Base(p), name: name, kind: kind, class: strings.TrimSpace(class), why: why,
				old: []byte(old), new: []byte(substitute(t, p+" "+head, old, subs)), file: file})
		}
		for n := range files {
			if !described[n] {
				t.Fatalf("%s: %s has no description line", p, n)
			}
		}
	}
	return out
}

// substitute applies an edit's "--- old" / "+++ new" pairs to text; each old text must occur
// exactly once. A pair's text is its lines joined by newlines (an empty last line gives a
// trailing newline), by CRLF where the excerpt's lines end so: an archive is written with LF.
func substitute(t *testing.T, where, text string, subs []byte) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(subs), "\n"), "\n")
	sep := "\n"
	if strings.Contains(text, "\r\n") {
		sep = "\r\n"
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
	}
	var olds, news []string
	var cur *[]string
	var buf []string
	flush := func() {
		if cur != nil {
			*cur = append(*cur, strings.Join(buf, sep))
		}
		buf = nil
	}
	for _, l := range lines {
		switch l {
		case "--- old":
			flush()
			cur = &olds
		case "+++ new":
			flush()
			cur = &news
		default:
			buf = append(buf, l)
		}
	}
	flush()
	if len(olds) == 0 || len(olds) != len(news) {
		t.Fatalf("%s: %d old and %d new texts", where, len(olds), len(news))
	}
	for i := range olds {
		if n := strings.Count(text, olds[i]); n != 1 {
			t.Fatalf("%s: %q occurs %d times in the excerpt", where, olds[i], n)
		}
		text = strings.Replace(text, olds[i], news[i], 1)
	}
	return text
}

// TestHandEdits runs the gate over every hand edit and prints the block rate on the edits that
// change meaning and the false-block rate on the honest ones. Every meaning-changing edit must
// be blocked by its own class and every honest one must pass.
func TestHandEdits(t *testing.T) {
	handEdits(t, "hand edits of real files", loadEdits(t))
}

// TestHandEditsHeldout runs the gate over the hand edits of the held-out corpus
// (testdata/edits-heldout, excerpts of testdata/corpus/memory-heldout), written before the gate
// was run on them, with the same rules and rates as TestHandEdits.
func TestHandEditsHeldout(t *testing.T) {
	handEdits(t, "hand edits of held-out files", loadEditsFrom(t, filepath.Join("testdata", "edits-heldout"), heldoutCorpus(t)))
}

func handEdits(t *testing.T, name string, cases []editCase) {
	var blocks, blocked, byClass, honest, falseBlocks, misses int
	perClass := map[string][2]int{}
	for _, c := range cases {
		drops := Check(c.old, c.new)
		switch c.kind {
		case "block":
			blocks++
			pc := perClass[c.class]
			pc[0]++
			if len(drops) > 0 {
				blocked++
			}
			if hasClass(drops, c.class) {
				byClass++
				pc[1]++
			} else {
				t.Errorf("%s %s/%s (%s): not blocked by %s; drops %v", c.archive, c.kind, c.name, c.why, c.class, drops)
			}
			perClass[c.class] = pc
		case "miss":
			blocks++
			misses++
			if hasClass(drops, c.class) {
				t.Errorf("%s miss/%s (%s): now blocked by %s; make it a block/ case", c.archive, c.name, c.why, c.class)
			}
			if len(drops) > 0 {
				blocked++
			}
		case "falseblock":
			honest++
			falseBlocks++
			if !hasClass(drops, c.class) {
				t.Errorf("%s falseblock/%s (%s): no longer blocked by %s; make it a pass/ case (drops %v)", c.archive, c.name, c.why, c.class, drops)
			}
		case "pass":
			honest++
			if len(drops) > 0 {
				falseBlocks++
				t.Errorf("%s %s/%s (%s): honest edit blocked: %v", c.archive, c.kind, c.name, c.why, drops)
			}
		}
	}
	if blocks < 20 || honest < 20 {
		t.Fatalf("edit set too small: %d meaning-changing, %d honest", blocks, honest)
	}
	var per []string
	for _, c := range slices.Sorted(maps.Keys(perClass)) {
		per = append(per, fmt.Sprintf("%s %d/%d", c, perClass[c][1], perClass[c][0]))
	}
	t.Logf("%s: %d meaning-changing, blocked %d (%.0f%%), by their own class %d (%.0f%%), %d known misses; %d honest, falsely blocked %d (%.0f%%)",
		name, blocks, blocked, pct(blocked, blocks), byClass, pct(byClass, blocks), misses, honest, falseBlocks, pct(falseBlocks, honest))
	t.Logf("blocked by class: %s", strings.Join(per, ", "))
}

// TestHandEditsWholeFile splices every edit into the whole file its excerpt was cut from (the
// development corpus, testdata/corpus/memory) and checks the verdict is the same there: sections,
// stray fences and values repeated elsewhere in the file must not change it.
func TestHandEditsWholeFile(t *testing.T) {
	dir := testtool.MemoryCorpus(t)
	handEditsWholeFile(t, dir, loadEdits(t))
	held := heldoutCorpus(t)
	handEditsWholeFile(t, held, loadEditsFrom(t, filepath.Join("testdata", "edits-heldout"), held))
}

func handEditsWholeFile(t *testing.T, dir string, cases []editCase) {
	n := 0
	for _, c := range cases {
		full, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.archive, err)
		}
		if bytes.Count(full, c.old) != 1 {
			t.Fatalf("%s: the excerpt is not found once in %s", c.archive, c.file)
		}
		edited := bytes.Replace(full, c.old, c.new, 1)
		drops := Check(full, edited)
		switch {
		case c.kind == "falseblock" && !hasClass(drops, c.class):
			t.Errorf("%s falseblock/%s in the whole of %s: no longer blocked", c.archive, c.name, c.file)
		case c.kind == "miss" && hasClass(drops, c.class):
			t.Errorf("%s miss/%s in the whole of %s: now blocked by %s", c.archive, c.name, c.file, c.class)
		case c.kind == "block" && !hasClass(drops, c.class):
			t.Errorf("%s block/%s in the whole of %s: not blocked by %s; drops %v", c.archive, c.name, c.file, c.class, drops)
		case c.kind == "pass" && len(drops) > 0:
			t.Errorf("%s pass/%s in the whole of %s: blocked: %v", c.archive, c.name, c.file, drops)
		}
		n++
	}
	t.Logf("%d edits checked in their whole files", n)
}

// hasClass reports a drop of the class an edit names. The development sets were labelled when
// one class, polarity, covered a rule's direction, its strength and its conditions: there, a
// modality or condition drop is a rule drop.
func hasClass(drops []Drop, class string) bool {
	if hasType(drops, class) {
		return true
	}
	return class == TypePolarity && (hasType(drops, TypeModality) || hasType(drops, TypeCondition))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
