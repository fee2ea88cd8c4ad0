package gate

import (
	"strings"
	"testing"
)

// TestInflectionEntries: each ending of the Russian table is the one its example word loses
// (no longer ending of the table takes it first) and leaves the stem the entry was written
// for; each noun-forming suffix likewise.
func TestInflectionEntries(t *testing.T) {
	tab := ruInflections()
	for _, part := range [][]inflection{tab.endings, tab.suffixes} {
		for _, e := range part {
			if !strings.HasSuffix(e.example, e.ending) {
				t.Errorf("%q: example %q does not end with it", e.ending, e.example)
				continue
			}
			first := ""
			for _, f := range part {
				if strings.HasSuffix(e.example, f.ending) {
					first = f.ending
					break
				}
			}
			if first != e.ending {
				t.Errorf("%q: example %q loses %q first", e.ending, e.example, first)
			}
			if got := stripFirst(e.example, part); got != e.want {
				t.Errorf("%q: %q stripped is %q, want %q", e.ending, e.example, got, e.want)
			}
		}
	}
}

// TestInflectedStems: a verb and the noun made of it share a stem, so do a short noun's case
// forms; a word too short to lose its ending keeps it.
func TestInflectedStems(t *testing.T) {
	for _, c := range [][2]string{
		{"просит", "просьбе"}, {"коде", "код"}, {"кода", "коду"}, {"тесты", "тестов"},
	} {
		if a, b := wordStem(c[0]), wordStem(c[1]); a != b {
			t.Errorf("%s → %q, %s → %q: want one stem", c[0], a, c[1], b)
		}
	}
	if got := wordStem("дом"); got != "дом" {
		t.Errorf("дом → %q, want it whole", got)
	}
}

// TestRussianStemClasses: a Russian condition said with the noun of its verb ("когда X
// просит" → "по просьбе X") or a short noun in another case is the same condition; the
// condition dropped still blocks.
func TestRussianStemClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"verb said as its noun", "", "- Релиз выкатывай только когда тимлид просит об этом.", "- Релиз выкатывай только по просьбе тимлида."},
		{"condition dropped", TypeCondition, "- Релиз выкатывай только когда тимлид просит об этом.", "- Релиз выкатывай."},
	})
}

// TestElisionEntries: each elided French word, before an apostrophe, leaves the word after it;
// an apostrophe of another kind of word is kept.
func TestElisionEntries(t *testing.T) {
	for _, head := range strings.Fields(elisionText) {
		if got := elided(head + "'avis"); got != "avis" {
			t.Errorf("%s'avis → %q, want avis", head, got)
		}
	}
	for _, w := range []string{"don't", "o'clock", "l'a"} {
		if got := elided(w); got != w {
			t.Errorf("%s → %q, want it kept", w, got)
		}
	}
}
