package clean

import (
	"testing"

	"github.com/prosewash/prosewash/internal/engine/region"
)

func TestCompareStructure(t *testing.T) {
	classify := func(s string) *region.Map {
		m, err := region.Classify("x.md", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	in := "para\n\n\u200b    code?\n"
	old := classify(in)
	rm := []splice{{start: 6, end: 9}}
	if d := compareStructure(old, classify("para\n\n    code?\n"), rm); d == nil || d.was.Kind != region.Prose || d.now.Kind != region.Runtime {
		t.Fatalf("indented code from prose not seen: %+v", d)
	}
	in2 := "para \u200bone\n"
	if d := compareStructure(classify(in2), classify("para one\n"), []splice{{start: 5, end: 8}}); d != nil {
		t.Fatalf("a harmless removal reported: %+v", d)
	}
	sp := []splice{{start: 5, end: 8, text: []byte(" ")}}
	if d := compareStructure(classify(in2), classify("para  one\n"), sp); d != nil {
		t.Fatalf("a harmless replacement reported: %+v", d)
	}
	if d := compareStructure(classify(in2), classify("para one\n"), nil); d == nil {
		t.Fatal("a length change without an edit passed")
	}
}

// TestCompareGFM holds the GFM reading's comparison to what a reader
// sees: removing a carrier that ticks a task box, merges table cells,
// starts a strikethrough, ends an emphasis, makes an escape, an entity or
// a link is a difference; removing one inside a word, turning an exotic
// space into a space, dropping a trailing one or an escape sequence whole
// is not.
func TestCompareGFM(t *testing.T) {
	p := gfmParser()
	for _, tc := range []struct {
		in, out string
		differ  bool
	}{
		{"- [\u200bx] task\n", "- [x] task\n", true},
		{"| a | b |\n|---|---|\n| x \\\u200b| y |\n", "| a | b |\n|---|---|\n| x \\| y |\n", true},
		{"~\u200b~x~~\n", "~~x~~\n", true},
		{"foo*\u200b bar*\n", "foo* bar*\n", true},
		{"a \\\u200b*b*\n", "a \\*b*\n", true},
		{"a &am\u200bp; b\n", "a &amp; b\n", true},
		{"[foo]\u200b(bar)\n", "[foo](bar)\n", true},
		{"a  \u200b\nb\n", "a  \nb\n", true}, // "\u200b" ends the line: no hard break before
		{"wo\u200brd and mo\u2060re\n", "word and more\n", false},
		{"a\u00a0b\n", "a b\n", false},
		{"end\u00a0\nnext\n", "end\nnext\n", false},
		{"Fast \x1b[31mred\x1b[0m text.\n", "Fast red text.\n", false},
		{"- [ ] to\u200bdo\n", "- [ ] todo\n", false},
		{"| a\u200b | b |\n|---|---|\n| x | y |\n", "| a | b |\n|---|---|\n| x | y |\n", false},
	} {
		d := compareGFM(p, []byte(tc.in), []byte(tc.out), true)
		if (d != nil) != tc.differ {
			t.Errorf("compareGFM(%q, %q) = %+v, want a difference: %v", tc.in, tc.out, d, tc.differ)
		}
	}
	// A rewrite may change words (withText false), never the structure.
	if d := compareGFM(p, []byte("Some words.\n"), []byte("Other terms.\n"), false); d != nil {
		t.Errorf("a rewrite of words is a structural change: %+v", d)
	}
	if d := compareGFM(p, []byte("Some words.\n"), []byte("Some *words*.\n"), false); d == nil {
		t.Error("a rewrite that adds emphasis passed")
	}
}
