package region

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// naiveMap is the Builder's contract written the slow, obvious way: per byte,
// the riskiest mark wins, the earliest among equals; unmarked bytes are
// runtime with the gap reason; equal neighbours merge.
func naiveMap(size int, marks []Region, gapWhy string) []Region {
	var out []Region
	for off := 0; off < size; off++ {
		cur := Region{Start: off, End: off + 1, Kind: Runtime, Why: gapWhy}
		best := -1
		for i, r := range marks {
			if off < r.Start || off >= r.End {
				continue
			}
			if best < 0 || risk(r.Kind) > risk(marks[best].Kind) {
				best = i
			}
		}
		if best >= 0 {
			cur.Kind, cur.Why = marks[best].Kind, marks[best].Why
		}
		if n := len(out); n > 0 && out[n-1].Kind == cur.Kind && out[n-1].Why == cur.Why {
			out[n-1].End = cur.End
			continue
		}
		out = append(out, cur)
	}
	return out
}

func TestBuilderMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	whys := []string{"a", "b", "c"}
	for iter := 0; iter < 3000; iter++ {
		size := rng.IntN(40)
		ordered := iter%2 == 0
		var marks []Region
		b := NewBuilder(size)
		if iter%3 == 0 {
			b.SetGapWhy("gap")
		}
		pos := -3
		for range rng.IntN(8) {
			var s, e int
			if ordered {
				s = pos + rng.IntN(5)
				e = s + rng.IntN(6)
			} else {
				s = rng.IntN(size+6) - 3
				e = s + rng.IntN(12) - 2
			}
			k := Kind(rng.IntN(3))
			why := whys[rng.IntN(len(whys))]
			b.Mark(s, e, k, why)
			cs, ce := max(s, 0), min(e, size)
			if ce > cs {
				marks = append(marks, Region{Start: cs, End: ce, Kind: k, Why: why})
				pos = ce
			}
		}
		gap := "code"
		if iter%3 == 0 {
			gap = "gap"
		}
		got := b.Map("x")
		if err := got.Check(); err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		want := naiveMap(size, marks, gap)
		if !reflect.DeepEqual(got.Regions, want) && !(len(got.Regions) == 0 && len(want) == 0) {
			t.Fatalf("iter %d: marks %v\n got %v\nwant %v", iter, marks, got.Regions, want)
		}
	}
}

func TestMapHelpers(t *testing.T) {
	b := NewBuilder(10)
	b.Mark(2, 4, Prose, "p")
	b.Mark(4, 6, Prose, "q")
	b.Mark(7, 9, Directive, "d")
	m := b.Map("t")
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	if r := m.At(5); r.Kind != Prose || r.Why != "q" || r.Start != 4 || r.End != 6 {
		t.Errorf("At(5) = %+v", r)
	}
	if r := m.At(10); r.Kind != Runtime || r.Len() != 0 {
		t.Errorf("At(size) = %+v, want an empty runtime region", r)
	}
	spans := m.Spans(Prose)
	if len(spans) != 1 || spans[0].Start != 2 || spans[0].End != 6 {
		t.Errorf("Spans(Prose) = %+v, want one merged span 2-6", spans)
	}
	want := "0-2 runtime code\n2-4 prose p\n4-6 prose q\n6-7 runtime code\n7-9 directive d\n9-10 runtime code\n"
	if got := m.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	bad := &Map{Size: 5, Regions: []Region{{Start: 0, End: 2}, {Start: 3, End: 5}}}
	if bad.Check() == nil {
		t.Error("Check accepted a gap")
	}
	short := &Map{Size: 5, Regions: []Region{{Start: 0, End: 4}}}
	if short.Check() == nil {
		t.Error("Check accepted a short map")
	}
	for _, k := range []Kind{Runtime, Directive, Prose} {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKind("code"); err == nil {
		t.Error("ParseKind accepted an unknown kind")
	}
}

func TestClassifyDispatch(t *testing.T) {
	for path, lang := range map[string]string{
		"a.py": "python", "b.PYI": "python", "c.md": "markdown", "d.markdown": "markdown",
		"e.txt": "text", "f.go": "go", "g.js": "javascript", "h.TSX": "typescript", "i.json": "json",
		"tsconfig.base.json": "jsonc", ".vscode/settings.json": "jsonc", "j.json5": "jsonc",
		"g.rb": "", "Makefile": "",
	} {
		if got := Language(path, nil); got != lang {
			t.Errorf("Language(%q) = %q, want %q", path, got, lang)
		}
		m, err := Classify(path, []byte("x\n"))
		if lang == "" {
			var ue *UnsupportedError
			if !errors.As(err, &ue) || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "refused") {
				t.Errorf("Classify(%q) error = %v, want an UnsupportedError", path, err)
			}
			continue
		}
		if err != nil || m.Lang != lang || m.Size != 2 {
			t.Errorf("Classify(%q) = %+v, %v", path, m, err)
		}
	}
	for _, path := range []string{"a.py", "a.md", "a.go"} {
		m, err := Classify(path, nil)
		if err != nil || m.Size != 0 || len(m.Regions) != 0 {
			t.Errorf("Classify(%q, empty) = %+v, %v", path, m, err)
		}
	}
}

// kindAt classifies src as path and returns the region holding the first
// byte of the first occurrence of needle.
func kindAt(t *testing.T, path, src, needle string) Region {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("%q not in %q", needle, src)
	}
	m, err := Classify(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m.At(i)
}

func TestWithoutCarriers(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"no\u200bqa", "noqa"},
		{"a\u00a0b\u2028c\u0085d\u3000e", "a b c d e"},
		{"x\x1b[1;31my\x1b[0mz", "x[1;31my[0mz"},
		{"tab\tkept\x00\x7f\u0090", "tab\tkept"},
		{"\ufeff\u2066bidi\u2069\ufe0f\U000E0041\u034f\u115f", "bidi"},
		{"bad\xffbyte", "badbyte"},
		{"\u2800braille\ufffc", "braille"},
	}
	for _, c := range cases {
		if got := string(withoutCarriers([]byte(c.in), false)); got != c.want {
			t.Errorf("withoutCarriers(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	ansi := []struct{ in, want string }{
		{"x\x1b[1;31my\x1b[0mz", "xyz"},
		{"a\x1b]0;title\x07b", "ab"},
		{"a\x1b]8;;http://x\x1b\\b", "ab"},
		{"a\u009b2Kb", "ab"},
		{"a\x1bcb", "ab"},
		{"a\x1b[12\x00b", "ab"},
	}
	for _, c := range ansi {
		if got := string(withoutCarriers([]byte(c.in), true)); got != c.want {
			t.Errorf("withoutCarriers(%q, ansi) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWordColon(t *testing.T) {
	cases := []struct {
		in   string
		word string
		ok   bool
	}{
		{" type: ignore", "type", true},
		{"TODO: x", "", false}, // a prose label
		{" Deprecated: use y", "", false},
		{" nOTE: x", "nOTE", true},
		{" Result: x", "Result", true},
		{" -*- coding: utf-8 -*-", "coding", true},
		{" https://x", "https", true},
		{" a.b-c : d", "a.b-c", true},
		{" *- x:", "x", true},
		{"\tgo:build", "go", true},
		{" two words: x", "", false},
		{" 42: x", "", false},
		{" :x", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		word, ok := wordColon([]byte(c.in))
		if word != c.word || ok != c.ok {
			t.Errorf("wordColon(%q) = %q, %v; want %q, %v", c.in, word, ok, c.word, c.ok)
		}
	}
}
