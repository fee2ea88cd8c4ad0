package class

import "unicode"

// Class is the kind of invisible carrier a code point is. None means the code
// point is not a carrier at all.
type Class uint8

// The classes. Their String forms are the Class field of a finding and are
// documented in the package comment of the unicode provider.
const (
	None Class = iota
	Control
	ANSIEscape
	LineSeparator
	Space
	SoftHyphen
	BidiControl
	BidiMark
	ZeroWidth
	Joiner
	VariationSelector
	Tag
	Filler
	Format
	ObjectReplacement
	DefaultIgnorable
	Noncharacter
	PrivateUse
	BOM
)

var names = [...]string{
	None:              "none",
	Control:           "control",
	ANSIEscape:        "ansi-escape",
	LineSeparator:     "line-separator",
	Space:             "space",
	SoftHyphen:        "soft-hyphen",
	BidiControl:       "bidi-control",
	BidiMark:          "bidi-mark",
	ZeroWidth:         "zero-width",
	Joiner:            "joiner",
	VariationSelector: "variation-selector",
	Tag:               "tag",
	Filler:            "filler",
	Format:            "format",
	ObjectReplacement: "object-replacement",
	DefaultIgnorable:  "default-ignorable",
	Noncharacter:      "noncharacter",
	PrivateUse:        "private-use",
	BOM:               "bom",
}

func (c Class) String() string {
	if int(c) < len(names) {
		return names[c]
	}
	return "unknown"
}

// IsDefaultIgnorable reports Default_Ignorable_Code_Point. Go has no table for
// this derived property, so it is computed with the formula of
// DerivedCoreProperties.txt:
//
//	Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
//	- White_Space - U+FFF9..U+FFFB - U+13430..U+1343F - Prepended_Concatenation_Mark
//
// A test checks it against DerivedCoreProperties.txt for every code point.
func IsDefaultIgnorable(r rune) bool {
	if !unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) &&
		!unicode.Is(unicode.Cf, r) &&
		!unicode.Is(unicode.Variation_Selector, r) {
		return false
	}
	switch {
	case unicode.Is(unicode.White_Space, r),
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0x13430 && r <= 0x1343F,
		unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return true
}

// Of returns the carrier class of r. The carrier set is: Default_Ignorable,
// every Cf, every Zs but U+0020, U+2028, U+2029, U+0085, the controls (Cc)
// but TAB, LF and CR, U+FFFC, U+2800, the noncharacters and private use.
// Whether a carrier is removed depends on its context; that is the policy's job.
func Of(r rune) Class {
	switch {
	case r < 0:
		return None
	case r < 0x20:
		if r == '\t' || r == '\n' || r == '\r' {
			return None
		}
		return Control
	case r < 0x7F:
		return None
	case r <= 0x9F:
		if r == 0x85 {
			return LineSeparator
		}
		return Control
	}
	switch r {
	case 0x00AD:
		return SoftHyphen
	case 0x034F, 0x200C, 0x200D:
		return Joiner
	case 0x061C, 0x200E, 0x200F:
		return BidiMark
	case 0x200B, 0x2060:
		return ZeroWidth
	case 0x2028, 0x2029:
		return LineSeparator
	case 0xFEFF:
		return BOM
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800:
		return Filler
	case 0xFFFC:
		return ObjectReplacement
	}
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return BidiControl
	case unicode.Is(unicode.Noncharacter_Code_Point, r):
		return Noncharacter
	case unicode.Is(unicode.Co, r):
		return PrivateUse
	case r >= 0xE0000 && r <= 0xE007F:
		return Tag
	case unicode.Is(unicode.Variation_Selector, r):
		return VariationSelector
	case unicode.Is(unicode.Zs, r):
		return Space
	case unicode.Is(unicode.Cf, r):
		return Format
	case IsDefaultIgnorable(r):
		return DefaultIgnorable
	}
	return None
}
