package region

import (
	"bytes"
	"os"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
	"github.com/prosewash/prosewash/internal/testtool"
)

// TestYAMLRustInjection runs the end-to-end injection check on real YAML
// (Debian's ansible, crate workflows) and Rust (Debian's librust-*-dev
// crates): U+200B at the end of every prose region that holds text (where
// it cannot change a comment's shape or a doc comment's Markdown) and right after the
// opening quote of every quoted scalar or string literal; cleaning the prose
// must give back exactly the original with only the literal injections.
func TestYAMLRustInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test")
	}
	yamlRoot := testtool.Debian(t, testtool.YAMLPackages...)
	rustRoot := testtool.Debian(t, testtool.RustPackages...)
	sets := []struct {
		lang  string
		files []string
	}{
		{"f.yaml", append(testtool.Files(t, yamlRoot, 0, ".yml", ".yaml"), testtool.Files(t, rustRoot, 0, ".yml", ".yaml")...)},
		{"f.rs", testtool.Files(t, rustRoot, 0, ".rs")},
	}
	for _, set := range sets {
		files, refused, prose, literals, skipped, docProse, docRemoved := 0, 0, 0, 0, 0, 0, 0
		for _, p := range set.files {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(src) || len(ucarrier.Scan(nil, src, nil, ucarrier.Options{Profile: carrier.Standard, Lang: Language(set.lang, nil), FileStart: true})) > 0 {
				skipped++
				continue
			}
			m, err := Classify(set.lang, src)
			if err != nil {
				refused++
				continue
			}
			files++
			var pp, lp, docs []int
			for _, r := range m.Regions {
				switch {
				case r.Kind == Prose && r.Why == "doc comment":
					if bytes.IndexFunc(src[r.Start:r.End], unicode.IsLetter) >= 0 {
						docs = append(docs, r.End)
					}
				case r.Kind == Prose:
					// A carrier on a doc line of nothing but markers,
					// digits and punctuation could hide Markdown, which the
					// Markdown rules make runtime on purpose: inject after
					// words only.
					if bytes.IndexFunc(src[r.Start:r.End], unicode.IsLetter) < 0 {
						continue
					}
					at := r.End
					if bytes.HasSuffix(src[r.Start:r.End], []byte("*/")) {
						at -= 2
					}
					pp = append(pp, at)
				case r.Why == "quoted scalar" || r.Why == "string literal" || r.Why == "raw string literal":
					if q := bytes.IndexByte(src[r.Start:r.End], src[r.End-1]); q >= 0 && r.End-r.Start > 2 {
						lp = append(lp, r.Start+q+1)
					}
				}
			}
			np, nl := checkInjectionAt(t, p, set.lang, src, m, pp, lp)
			prose += np
			literals += nl
			dp, dr := checkDocInjection(t, p, set.lang, src, m, docs)
			docProse += dp
			docRemoved += dr
		}
		t.Logf("%s: %d files classified, %d refused, %d skipped (carriers already); injected %d prose and %d literal carriers; %d of %d in doc prose cleaned",
			set.lang, files, refused, skipped, prose, literals, docRemoved, docProse)
		if docRemoved < docProse*9/10 {
			t.Errorf("%s: only %d of %d carriers injected into doc prose were cleaned", set.lang, docRemoved, docProse)
		}
		if refused > len(set.files)/50 || prose < 1500 || literals < 1000 {
			t.Errorf("%s: weak run: %d refused of %d, %d prose and %d literal injections", set.lang, refused, len(set.files), prose, literals)
		}
	}
}

// checkDocInjection injects U+200B at the given ends of doc comment prose.
// Doc comments are Markdown, whose rules turn a line runtime when a carrier
// could hide markup (a line of only punctuation, a '<' run): such carriers
// stay, so the check is that cleaning removes nothing but injected
// carriers, and it returns how many were injected and how many removed.
func checkDocInjection(t *testing.T, name, as string, src []byte, m *Map, at []int) (int, int) {
	t.Helper()
	if len(at) == 0 {
		return 0, 0
	}
	zw := []byte("\u200b")
	injected := insertAt(src, at, zw)
	m2, err := Classify(as, injected)
	if err != nil {
		t.Errorf("%s: the injected file does not classify: %v", name, err)
		return 0, 0
	}
	got := cleanProse(injected, m2)
	if !bytes.Equal(bytes.ReplaceAll(got, zw, nil), src) {
		t.Errorf("%s: cleaning doc prose changed more than the injected carriers", name)
	}
	return len(at), len(at) - bytes.Count(got, zw)
}
