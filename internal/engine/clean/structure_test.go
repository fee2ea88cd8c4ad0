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
