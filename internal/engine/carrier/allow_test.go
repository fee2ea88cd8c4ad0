package carrier

import (
	"reflect"
	"testing"
)

func TestParseAllow(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Allow
		err  bool
	}{
		{"U+00A0", Allow{Lo: 0xA0, Hi: 0xA0}, false},
		{"u+200b", Allow{Lo: 0x200B, Hi: 0x200B}, false},
		{"U+FE00..U+FE0F", Allow{Lo: 0xFE00, Hi: 0xFE0F}, false},
		{"U+200B in docs/th/**", Allow{Lo: 0x200B, Hi: 0x200B, Glob: "docs/th/**"}, false},
		{"U+E0100..U+E01EF in **/*.md", Allow{Lo: 0xE0100, Hi: 0xE01EF, Glob: "**/*.md"}, false},
		{"nbsp", Allow{}, true},
		{"U+110000", Allow{}, true},
		{"U+0041..U+0040", Allow{}, true},
		{"U+00A0 in ", Allow{}, true},
		{"U+00A0 in [", Allow{}, true},
		{"U+00A", Allow{}, true},
	} {
		got, err := ParseAllow(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseAllow(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
		}
		if !tc.err {
			if again, err := ParseAllow(got.String()); err != nil || again != got {
				t.Errorf("%q does not round-trip: %v %+v", got.String(), err, again)
			}
		}
	}
	a, _ := ParseAllow("U+200B in docs/**")
	if !a.Covers(0x200B, "docs/a/b.md") || a.Covers(0x200B, "src/a.md") || a.Covers(0x200C, "docs/a.md") {
		t.Error("Covers ignores the pattern or the code point")
	}
}

func TestParseKeepMarker(t *testing.T) {
	for in, want := range map[string][]rune{
		" U+200B":                 {0x200B},
		" U+200B U+00A0 -->":      {0x200B, 0xA0},
		" U+200B, U+00A0.":        {0x200B, 0xA0},
		" (U+200B)":               nil,
		" U+00A0) for the units":  {0xA0},
		" these: U+200B":          nil,
		"":                        nil,
		" U+2060 and then U+200B": {0x2060},
	} {
		if got := ParseKeepMarker([]byte(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("ParseKeepMarker(%q) = %U, want %U", in, got, want)
		}
	}
}
