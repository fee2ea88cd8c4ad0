package gate

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// i18nCorpus is the held-out corpus of real memory files in nine languages
// (testdata/corpus/memory-i18n), which the edits of testdata/edits-i18n cut their excerpts from.
func i18nCorpus(t *testing.T) string {
	return filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-i18n")
}

// i18nStats are one language's rates on the held-out edits of testdata/edits-i18n.
type i18nStats struct {
	blocks, caught, byClass, honest, passed int
}

func (s *i18nStats) add(c editCase, drops []Drop) {
	switch c.kind {
	case "block":
		s.blocks++
		if len(drops) > 0 {
			s.caught++
		}
		if hasClass(drops, c.class) {
			s.byClass++
		}
	case "pass":
		s.honest++
		if len(drops) == 0 {
			s.passed++
		}
	}
}

func (s *i18nStats) sum(o *i18nStats) {
	s.blocks += o.blocks
	s.caught += o.caught
	s.byClass += o.byClass
	s.honest += o.honest
	s.passed += o.passed
}

// TestHandEditsI18n runs the gate over the held-out hand edits in nine languages (written and
// committed before the statement gate was first run on them) and prints, per language, how many
// meaning-changing edits are caught (by any drop, and by their own class) and how many honest
// condensations pass: on the excerpt alone (as the first run measured) and spliced into the
// whole file it was cut from (as the lane checks a file: a value an honest edit drops may be
// said elsewhere in the file).
func TestHandEditsI18n(t *testing.T) {
	corpus := i18nCorpus(t)
	perLanguage(t, "held-out edits in nine languages", loadEditsFrom(t, filepath.Join("testdata", "edits-i18n"), corpus), corpus)
}

// TestHandEditsFresh runs the gate over the second held-out set (testdata/edits-fresh, excerpts
// of testdata/corpus/memory-fresh: real files of repositories fetched for it, in English,
// Japanese, Chinese, Korean, Russian and German), written and committed before the gate ran on
// it, and prints the same per-language figures as TestHandEditsI18n.
func TestHandEditsFresh(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh")
	perLanguage(t, "fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh"), corpus), corpus)
}

// TestHandEditsFresh2 runs the gate over the third held-out set (testdata/edits-fresh2, excerpts
// of testdata/corpus/memory-fresh2: real files of twenty-two repositories, in all nine languages),
// written and committed before the gate ran on it, and prints the same per-language figures.
func TestHandEditsFresh2(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh2")
	perLanguage(t, "second fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh2"), corpus), corpus)
}

// TestHandEditsFresh3 runs the gate over the fourth held-out set (testdata/edits-fresh3, excerpts
// of testdata/corpus/memory-fresh3: real files of seventeen repositories, in all nine languages),
// written and committed before the gate ran on it, and prints the same per-language figures.
func TestHandEditsFresh3(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh3")
	perLanguage(t, "third fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh3"), corpus), corpus)
}

// TestHandEditsFresh4 runs the gate over the fifth held-out set (testdata/edits-fresh4, excerpts
// of testdata/corpus/memory-fresh4: real files of repositories no earlier set drew on, in all nine
// languages), written and committed before the gate ran on it, and prints the same per-language
// figures.
func TestHandEditsFresh4(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh4")
	perLanguage(t, "fourth fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh4"), corpus), corpus)
}

// perLanguage checks every edit on its excerpt and spliced into its whole file, and logs the
// rates per language (an archive's name starts with its language) and in total. It reports
// rates and fails nothing: these are held-out sets, measured, not tuned to pass.
func perLanguage(t *testing.T, name string, cases []editCase, corpus string) {
	t.Helper()
	for _, whole := range []bool{false, true} {
		per := map[string]*i18nStats{}
		var all i18nStats
		for _, c := range cases {
			lang, _, _ := strings.Cut(c.archive, "-")
			s := per[lang]
			if s == nil {
				s = &i18nStats{}
				per[lang] = s
			}
			old, edited := c.old, c.new
			if whole {
				full, err := os.ReadFile(filepath.Join(corpus, c.file))
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Count(full, c.old) != 1 {
					t.Fatalf("%s: the excerpt is not found once in %s", c.archive, c.file)
				}
				old, edited = full, bytes.Replace(full, c.old, c.new, 1)
			}
			drops := Check(old, edited)
			s.add(c, drops)
			if testing.Verbose() && !whole {
				logVerdict(t, c, drops)
			}
		}
		var lines []string
		for _, lang := range slices.Sorted(maps.Keys(per)) {
			s := per[lang]
			all.sum(s)
			lines = append(lines, fmt.Sprintf("%s: caught %d/%d (own class %d), passed %d/%d", lang, s.caught, s.blocks, s.byClass, s.passed, s.honest))
		}
		where := "excerpts"
		if whole {
			where = "whole files"
		}
		t.Logf("%s, %s: caught %d/%d (%.0f%%, own class %d), honest passed %d/%d (%.0f%%)",
			name, where, all.caught, all.blocks, pct(all.caught, all.blocks), all.byClass, all.passed, all.honest, pct(all.passed, all.honest))
		t.Logf("per language: %s", strings.Join(lines, "; "))
	}
}

// logVerdict names an edit the gate got wrong on its excerpt: a meaning-changing edit it let
// through, an honest one it blocked.
func logVerdict(t *testing.T, c editCase, drops []Drop) {
	t.Helper()
	switch {
	case c.kind == "block" && len(drops) == 0:
		t.Logf("missed %s %s/%s (%s): %s", c.archive, c.kind, c.name, c.class, c.why)
	case c.kind == "pass" && len(drops) > 0:
		t.Logf("blocked %s %s/%s (%s): %v", c.archive, c.kind, c.name, c.why, drops)
	}
}

// TestHandEditsI18nDev runs the gate over the development edits in seven languages
// (testdata/edits-i18n-dev, excerpts of testdata/corpus/memory-i18n-dev): every meaning-changing
// edit must be blocked by its own class, every honest one must pass.
func TestHandEditsI18nDev(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-i18n-dev")
	cases := loadEditsFrom(t, filepath.Join("testdata", "edits-i18n-dev"), corpus)
	handEditsWholeFile(t, corpus, cases)
	for _, c := range cases {
		drops := Check(c.old, c.new)
		switch {
		case c.kind == "block" && !hasClass(drops, c.class):
			t.Errorf("%s block/%s (%s): not blocked by %s; drops %v", c.archive, c.name, c.why, c.class, drops)
		case c.kind == "pass" && len(drops) > 0:
			t.Errorf("%s pass/%s (%s): honest edit blocked: %v", c.archive, c.name, c.why, drops)
		}
	}
}

// TestHandEditsFresh5 runs the gate over the sixth held-out set (testdata/edits-fresh5, excerpts
// of testdata/corpus/memory-fresh5: real files of repositories no earlier set drew on, in all nine
// languages), written and committed before the gate ran on it, and prints the same per-language
// figures.
func TestHandEditsFresh5(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh5")
	perLanguage(t, "fifth fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh5"), corpus), corpus)
}

// TestHandEditsFresh6 runs the gate over the seventh held-out set (testdata/edits-fresh6, excerpts
// of testdata/corpus/memory-fresh6: real files of repositories no earlier set drew on, in all nine
// languages), written and committed before the gate ran on it, and prints the same per-language
// figures.
func TestHandEditsFresh6(t *testing.T) {
	corpus := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-fresh6")
	perLanguage(t, "sixth fresh held-out edits", loadEditsFrom(t, filepath.Join("testdata", "edits-fresh6"), corpus), corpus)
}
