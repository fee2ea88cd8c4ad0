package gate

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// A modality word of an inflected language is written in the form its noun asks for and often
// without its accents: "obligatoires", "recommande" (recommandé), "recomendadas", "обязательны",
// "желательна". modalText lists one form; modalForm reads the others as the same word, so
// "obligatoire" said "recommande" is a rule moved down the scale, not a plain statement. A form
// is the word with its accents folded and its inflectional ending cut (modalFormKey); only the
// long words are read so (adjectives and participles: obligatoire, рекомендуемый), never a short
// verb form ("peut", "debe"), whose endings change its meaning; and a key two words of different
// levels share is left out.

// modalFormMin is the fewest letters a form's key keeps: "obligatoir", "обязательн", not "dev".
const modalFormMin = 6

// latinModalEndings are the gender and number endings of French, Spanish, Portuguese and German
// adjectives and participles, longest first; cyrillic words shed ruInflections' endings.
var latinModalEndings = []string{"ees", "es", "os", "as", "ee", "e", "o", "a", "s"}

// accentFold maps the accented letters of the Latin-script languages, and Cyrillic ё, to their
// bare letters: a summariser or a keyboard drops them ("recommande", "schema", "obligatorio").
var accentFold = strings.NewReplacer(
	"à", "a", "â", "a", "á", "a", "ã", "a", "ä", "a", "ç", "c", "é", "e", "è", "e", "ê", "e", "ë", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i", "ñ", "n", "ó", "o", "ò", "o", "ô", "o", "õ", "o", "ö", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u", "ß", "ss", "ё", "е",
)

// modalFormKey is a word's accents folded and its ending cut, or "" for a word too short or not
// written in Latin or Cyrillic letters.
func modalFormKey(w string) string {
	if utf8.RuneCountInString(w) < modalFormMin {
		return ""
	}
	if isCyrillicWord(w) {
		w = stripFirst(accentFold.Replace(w), ruInflections().endings)
	} else {
		if !latinWord(w) {
			return ""
		}
		w = accentFold.Replace(w)
		for _, e := range latinModalEndings {
			if s, ok := strings.CutSuffix(w, e); ok {
				w = s
				break
			}
		}
	}
	if utf8.RuneCountInString(w) < modalFormMin {
		return ""
	}
	return w
}

// latinWord reports a word of Latin letters (accented or not) and apostrophes.
func latinWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 0xc0 && r <= 0x24f || r == '\'') {
			return false
		}
	}
	return true
}

// modalForms maps the key of each one-word modality entry of the spaced-script languages to its
// level; a key shared by entries of different levels maps to 0 (no reading).
var modalForms = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for lang, levels := range modalText() {
		if isCJKLang(lang) || lang == "ko" {
			continue
		}
		for level, words := range levels {
			for _, w := range strings.Fields(words) {
				k := modalFormKey(w)
				if k == "" || strings.Contains(w, "_") {
					continue
				}
				if old, seen := out[k]; seen && old != level {
					level = 0
				}
				out[k] = level
			}
		}
	}
	return out
})

// modalForm returns the level of a word that is another form of a modality entry.
func modalForm(w string) (int, bool) {
	k := modalFormKey(w)
	if k == "" {
		return 0, false
	}
	l := modalForms()[k]
	return l, l != 0
}

// isModalForm reports a word that is another form of a modality entry: a rule word, no content.
func isModalForm(w string) bool {
	_, ok := modalForm(w)
	return ok
}
