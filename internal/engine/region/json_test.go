package region

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// jsonCorpus returns the corpus's JSON files: every tsconfig-like file and
// a stable sample of the rest (package.json files, TypeScript's message
// tables).
func jsonCorpus(t *testing.T, nm string, n int) []string {
	t.Helper()
	var all, keep []string
	_ = filepath.WalkDir(nm, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || Language(p, nil) != "json" && Language(p, nil) != "jsonc" {
			return nil
		}
		if Language(p, nil) == "jsonc" {
			keep = append(keep, p)
		} else {
			all = append(all, p)
		}
		return nil
	})
	keep = append(keep, sampleEvenly(all, n)...)
	sort.Strings(keep)
	return dedupStrings(keep)
}

// TestJSONAgainstJSONCParser compares comment extents with Microsoft's
// jsonc-parser: in JSONC files our prose and directives are exactly its
// comments (less line separators and CRs); .json files have no prose; every
// string and property name is runtime.
func TestJSONAgainstJSONCParser(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run skipped in -short mode")
	}
	nm := jsNodeModules(t)
	files := copyFixtures(t, ".json", ".jsonc", ".json5")
	files = append(files, jsonCorpus(t, nm, 300)...)
	res := runOracle(t, nm, "jsonc", files)
	jsonc, commented, comments := 0, 0, 0
	for _, f := range files {
		r := res[f]
		if r.Error != "" {
			t.Fatalf("%s: oracle: %s", f, r.Error)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Classify(f, src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		var tally oracleTally
		checkOracle(t, r, src, &tally)
		if m.Lang == "json" {
			if n := len(m.Spans(Prose)) + len(m.Spans(Directive)); n > 0 {
				t.Errorf("%s: a .json file has %d prose or directive spans", f, n)
			}
			continue
		}
		jsonc++
		if len(r.Comments) > 0 {
			commented++
		}
		// Every comment is wholly ours (checkOracle showed we have no
		// other prose).
		for _, c := range r.Comments {
			comments++
			for k := c[0]; k < c[1]; k++ {
				if m.At(k).Kind == Runtime && src[k] != '\r' {
					t.Errorf("%s: byte %d of comment %q is runtime", f, k, src[c[0]:c[1]])
					break
				}
			}
		}
	}
	t.Logf("jsonc-parser@3.3.1: %d files (%d JSONC, %d of them with comments, %d comments) agree", len(files), jsonc, commented, comments)
	if commented < 3 {
		t.Fatalf("only %d JSONC files with comments compared", commented)
	}
}
