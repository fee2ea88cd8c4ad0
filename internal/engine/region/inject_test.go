package region

import (
	"bytes"
	"sort"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// The corpus tests of the '#'-comment languages share one end-to-end check:
// inject U+200B right after the '#' of every prose region and at chosen
// places inside literals, clean the prose regions of the result with the
// real carrier policy, and require exactly the original with only the
// literal injections left.

// insertAt returns src with ins inserted before each offset in at.
func insertAt(src []byte, at []int, ins []byte) []byte {
	at = append([]int(nil), at...)
	sort.Ints(at)
	out := make([]byte, 0, len(src)+len(at)*len(ins))
	prev := 0
	for _, a := range at {
		out = append(out, src[prev:a]...)
		out = append(out, ins...)
		prev = a
	}
	return append(out, src[prev:]...)
}

// cleanProse cleans every prose region of src as the engine's unicode stage
// would: each region on its own, with its neighbouring bytes as context.
func cleanProse(src []byte, m *Map) []byte {
	var out []byte
	for _, r := range m.Regions {
		if r.Kind != Prose {
			out = append(out, src[r.Start:r.End]...)
			continue
		}
		before := src[max(0, r.Start-64):r.Start]
		after := src[r.End:min(len(src), r.End+64)]
		text, _ := ucarrier.Clean(before, src[r.Start:r.End], after, ucarrier.Options{Profile: carrier.Standard, Lang: m.Lang, FileStart: r.Start == 0})
		out = append(out, text...)
	}
	return out
}

// checkInjection runs the injection check on one file, classified as the
// path as (name is for messages), and returns the
// number of prose and literal injections made, or -1, -1 when the file
// already holds carriers or invalid UTF-8 (the exact result would then be the policy's
// business, not the classifier's).
func checkInjection(t *testing.T, name, as string, src []byte, m *Map, literals []int) (int, int) {
	t.Helper()
	if !utf8.Valid(src) || len(ucarrier.Scan(nil, src, nil, ucarrier.Options{Profile: carrier.Standard, Lang: m.Lang, FileStart: true})) > 0 {
		return -1, -1
	}
	var prose []int
	for _, r := range m.Regions {
		if r.Kind == Prose {
			if src[r.Start] != '#' {
				t.Errorf("%s: prose region %d-%d does not start with '#'", name, r.Start, r.End)
				return 0, 0
			}
			prose = append(prose, r.Start+1)
		}
	}
	return checkInjectionAt(t, name, as, src, m, prose, literals)
}

// checkInjectionAt injects U+200B before each offset in prose (inside prose
// regions) and literals (inside runtime), cleans the prose of the result and
// requires exactly src with only the literal injections left.
func checkInjectionAt(t *testing.T, name, as string, src []byte, m *Map, prose, literals []int) (int, int) {
	t.Helper()
	for _, l := range literals {
		if k := m.At(l).Kind; k != Runtime || (l > 0 && m.At(l-1).Kind != Runtime) {
			t.Fatalf("%s: literal injection point %d is not inside runtime", name, l)
		}
	}
	zw := []byte("\u200b")
	injected := insertAt(src, append(append([]int(nil), prose...), literals...), zw)
	want := insertAt(src, literals, zw)
	m2, err := Classify(as, injected)
	if err != nil {
		t.Errorf("%s: the injected file does not classify: %v", name, err)
		return 0, 0
	}
	got := cleanProse(injected, m2)
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-40)
		t.Errorf("%s: cleaning the injected file differs at byte %d:\n got %q\nwant %q", name, i,
			got[lo:min(len(got), i+40)], want[lo:min(len(want), i+40)])
	}
	return len(prose), len(literals)
}
