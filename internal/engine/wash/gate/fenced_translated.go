package gate

import (
	"strings"
	"unicode"
)

// translatedInPlace reports a code comment translated word for word: the same fields in the
// same places, each changed one a word of Latin letters said by a word of another script
// ("# build в out/" said "# сборка в out/"). Its paths, flags and numbers are all kept, so
// the comment still describes the same code; its stems share nothing, so the statement
// alignment would read a replaced comment.
func translatedInPlace(o, r string) bool {
	of, rf := strings.Fields(o), strings.Fields(r)
	if len(of) != len(rf) {
		return false
	}
	changed := 0
	for i := range of {
		if of[i] == rf[i] {
			continue
		}
		if !latinLetters(of[i]) || !foreignLetters(rf[i]) {
			return false
		}
		changed++
	}
	return changed > 0
}

// latinLetters reports a word of letters only, all of them Latin.
func latinLetters(w string) bool {
	return lettersOnly(w) && latinWord(strings.ToLower(w))
}

// foreignLetters reports a word of letters only, none of them Latin.
func foreignLetters(w string) bool {
	if !lettersOnly(w) {
		return false
	}
	for _, r := range w {
		if unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}

func lettersOnly(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}
