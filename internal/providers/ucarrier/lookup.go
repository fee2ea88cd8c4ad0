package ucarrier

import (
	"fmt"
	"sort"
	"unicode"

	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/class"
)

// rng is an inclusive code point range of a generated table.
type rng struct{ lo, hi rune }

// nameEntry is one row of the generated name table.
type nameEntry struct {
	r    rune
	name string
}

// jtRange is one row of the generated Joining_Type table.
type jtRange struct {
	lo, hi rune
	t      byte
}

func inRanges(rs []rng, r rune) bool {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < rs[m].lo:
			hi = m
		case r > rs[m].hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

func inRunes(rs []rune, r rune) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i] >= r })
	return i < len(rs) && rs[i] == r
}

// isCandidate reports whether r may be a carrier at all. It is the hot-path
// prefilter: a generated two-level bitmap for the BMP, ranges above it.
func isCandidate(r rune) bool {
	if uint32(r) < 0x10000 {
		set := &candBMPBits[candBMPIndex[r>>8]]
		return set[(r>>6)&3]&(1<<(uint(r)&63)) != 0
	}
	return inRanges(candSupp[:], r)
}

func isExtPict(r rune) bool       { return r >= 0xA9 && inRanges(extPict[:], r) }
func isEmojiModifier(r rune) bool { return inRanges(emojiModifier[:], r) }
func isEmojiVSBase(r rune) bool   { return inRunes(emojiVSBase[:], r) }
func isVirama(r rune) bool        { return inRunes(viramas[:], r) }
func isRTLLetter(r rune) bool     { return r >= 0x0590 && inRanges(rtlLetters[:], r) }
func isJamoL(r rune) bool         { return inRanges(jamoL[:], r) }
func isJamoV(r rune) bool         { return inRanges(jamoV[:], r) }
func isVowelDependent(r rune) bool {
	return r >= 0x0900 && inRanges(vowelDependent[:], r)
}

func isStdVariant(base, vs rune) bool {
	t := stdVariants[:]
	i := sort.Search(len(t), func(i int) bool {
		return t[i][0] > base || t[i][0] == base && t[i][1] >= vs
	})
	return i < len(t) && t[i] == [2]rune{base, vs}
}

// joiningType returns the Joining_Type of r: an explicit ArabicShaping.txt
// value, else T for Mn and Me (the derivation rule of the UCD), else U.
// Cf is deliberately not transparent here: a carrier may not excuse another.
func joiningType(r rune) byte {
	if r >= 0x0600 {
		t := joiningTypes[:]
		i := sort.Search(len(t), func(i int) bool { return t[i].hi >= r })
		if i < len(t) && t[i].lo <= r {
			return t[i].t
		}
	}
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return 'T'
	}
	return 'U'
}

// isM1 is $M1 of UAX #31: a nonspacing mark with a nonzero combining class.
func isM1(r rune) bool {
	return unicode.Is(unicode.Mn, r) && inRanges(cccNonZero[:], r)
}

// Name returns the Unicode name of a carrier code point, e.g. "ZERO WIDTH
// SPACE", or "ESCAPE" for U+001B (the control alias from NameAliases.txt).
// Carriers without a name get their code point label, e.g.
// "<noncharacter-FFFE>", "<private-use-E000>", "<reserved-E0080>"; a code
// point that is not a carrier gets "".
func Name(r rune) string {
	t := carrierNames[:]
	i := sort.Search(len(t), func(i int) bool { return t[i].r >= r })
	if i < len(t) && t[i].r == r {
		return t[i].name
	}
	switch class.Of(r) {
	case class.None:
		return ""
	case class.Noncharacter:
		return fmt.Sprintf("<noncharacter-%04X>", r)
	case class.PrivateUse:
		return fmt.Sprintf("<private-use-%04X>", r)
	case class.Control:
		return fmt.Sprintf("<control-%04X>", r)
	}
	return fmt.Sprintf("<reserved-%04X>", r)
}
