package class

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want Class
	}{
		{-1, None}, {'a', None}, {' ', None}, {'\t', None}, {'\n', None}, {'\r', None},
		{0x00, Control}, {0x1B, Control}, {0x7F, Control}, {0x9B, Control},
		{0x85, LineSeparator}, {0x2028, LineSeparator}, {0x2029, LineSeparator},
		{0xA0, Space}, {0x3000, Space}, {0x202F, Space}, {0x1680, Space},
		{0xAD, SoftHyphen},
		{0x202E, BidiControl}, {0x2066, BidiControl}, {0x200F, BidiMark}, {0x061C, BidiMark},
		{0x200B, ZeroWidth}, {0x2060, ZeroWidth}, {0x200C, Joiner}, {0x200D, Joiner}, {0x034F, Joiner},
		{0xFE0F, VariationSelector}, {0xE0100, VariationSelector}, {0x180B, VariationSelector}, {0x180F, VariationSelector},
		{0xE0000, Tag}, {0xE0041, Tag}, {0xE007F, Tag},
		{0x115F, Filler}, {0x3164, Filler}, {0xFFA0, Filler}, {0x2800, Filler},
		{0x0600, Format}, {0x180E, Format}, {0x2062, Format}, {0xFFF9, Format}, {0x13430, Format}, {0x1D173, Format},
		{0xFFFC, ObjectReplacement},
		{0x17B4, DefaultIgnorable}, {0x2065, DefaultIgnorable}, {0xFFF0, DefaultIgnorable}, {0xE0080, DefaultIgnorable}, {0xE0FFF, DefaultIgnorable},
		{0xFDD0, Noncharacter}, {0xFFFE, Noncharacter}, {0x10FFFF, Noncharacter},
		{0xE000, PrivateUse}, {0xF0000, PrivateUse}, {0x10FFFD, PrivateUse},
		{0xFEFF, BOM},
		{0x2801, None}, {0x00E9, None}, {0x4E2D, None}, {0x1F600, None}, {0x20E3, None}, {0xFFFD, None},
	} {
		if got := Of(tc.r); got != tc.want {
			t.Errorf("Of(U+%04X) = %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestStringsDistinct(t *testing.T) {
	seen := map[string]Class{}
	for c := None; c <= BOM; c++ {
		s := c.String()
		if s == "unknown" || s == "" {
			t.Errorf("class %d has no name", c)
		}
		if prev, ok := seen[s]; ok {
			t.Errorf("classes %d and %d share the name %q", prev, c, s)
		}
		seen[s] = c
	}
	if Class(200).String() != "unknown" {
		t.Error("out-of-range class has a name")
	}
}
