package gate

import (
	"slices"
	"testing"
)

// rulesOf returns the polarity tokens the sentence reader finds in one line.
func rulesOf(s string) []string {
	var out []string
	for _, f := range readSentences(s).pol {
		out = append(out, f.tok.Value)
	}
	return out
}

func TestPolarityGovernsItsClause(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// each rule word governs its own clause
		{"ONLY deploy with helm, NEVER kubectl", []string{"only(deploy helm)", "not(kubectl)"}},
		// a rule word followed by another gives way to it
		{"You must never rebase shared branches", []string{"not(rebase shared branches)"}},
		// a negated verb of omission is an obligation
		{"Never skip the integration tests", []string{"must(integration tests)"}},
		// a clause of only its rule word governs the clauses after it
		{"Never, under any circumstances, delete backups", []string{"not(circumstances delete backups)"}},
	} {
		if got := rulesOf(c.in); !slices.Equal(got, c.want) {
			t.Errorf("rules of %q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPolarityClauseFacts(t *testing.T) {
	f := readSentences("Always pin versions, keep the lockfile tidy")
	if len(f.clauses) != 2 {
		t.Fatalf("clauses: %+v", f.clauses)
	}
	if f.clauses[0].classes&classBit(polMust) == 0 || f.clauses[1].classes != 0 {
		t.Errorf("the marked clause carries its class, the plain one none: %+v", f.clauses)
	}
}

func TestStemFoldsInflections(t *testing.T) {
	for _, ws := range [][]string{{"tests", "test"}, {"skipped", "skipping", "skip"}, {"uses", "use"}, {"silently", "silent"}} {
		for _, w := range ws[1:] {
			if stem(w) != stem(ws[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, stem(w), ws[0], stem(ws[0]))
			}
		}
	}
}
