package gate

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A word of an inflected language cut at its first five letters keeps most of its forms
// together (тестов, тесты), but not a short word's (коде, кода, код: the ending is inside the
// five) nor a verb and the noun made of it (просит, просьба: "прось" against "проси"). So a
// Cyrillic word first loses its inflectional ending, then a noun-forming suffix, each from a
// table below, before the cut. Each entry carries a word it was written for and the stem that
// word must come to (TestInflectionEntries), so an entry that stops doing its job fails.

// inflection is one ending a word of a language loses: an inflection or a suffix that forms a
// noun from a verb. example, stripped, is want.
type inflection struct {
	ending, example, want string
}

// inflections are the endings, by language, that a word sheds, longest first; a word keeps at
// least minStem letters.
type inflections struct {
	endings  []inflection // inflectional endings: case, number, person, infinitive
	suffixes []inflection // noun-forming suffixes left after the ending: просьб-а → прос
}

// minStem is the fewest letters a stripped word keeps: "код" of "коде", never "ко".
const minStem = 3

// ruInflections are Russian's: case endings of nouns and adjectives, verb endings of person
// and the infinitive, the reflexive -ся after them.
var ruInflections = sync.OnceValue(func() inflections {
	return inflections{
		endings: longestEndingFirst([]inflection{
			{"ыми", "новыми", "нов"}, {"ими", "синими", "син"}, {"ами", "задачами", "задач"}, {"ями", "моделями", "модел"},
			{"ого", "нового", "нов"}, {"его", "синего", "син"}, {"ому", "новому", "нов"}, {"ему", "синему", "син"},
			{"ать", "работать", "работ"}, {"ять", "проверять", "провер"}, {"ить", "просить", "прос"}, {"еть", "смотреть", "смотр"},
			{"ешь", "делаешь", "дела"}, {"ишь", "просишь", "прос"}, {"ете", "делаете", "дела"}, {"ите", "просите", "прос"},
			{"ах", "задачах", "задач"}, {"ях", "моделях", "модел"}, {"ов", "тестов", "тест"}, {"ев", "музеев", "музе"},
			{"ей", "моделей", "модел"}, {"ам", "задачам", "задач"}, {"ям", "моделям", "модел"},
			{"ая", "новая", "нов"}, {"яя", "синяя", "син"}, {"ое", "новое", "нов"}, {"ее", "синее", "син"},
			{"ые", "новые", "нов"}, {"ие", "синие", "син"}, {"ый", "новый", "нов"}, {"ий", "синий", "син"},
			{"ой", "новой", "нов"}, {"ую", "новую", "нов"}, {"ых", "новых", "нов"}, {"их", "синих", "син"},
			{"ым", "новым", "нов"}, {"им", "синим", "син"}, {"ом", "кодом", "код"}, {"ем", "полем", "пол"},
			{"ии", "добавлении", "добавлен"}, {"ия", "функция", "функц"},
			{"ит", "просит", "прос"}, {"ет", "делает", "дела"}, {"ут", "ведут", "вед"}, {"ют", "делают", "дела"},
			{"ат", "держат", "держ"}, {"ят", "просят", "прос"},
			{"а", "просьба", "просьб"}, {"я", "модуля", "модул"}, {"о", "правило", "правил"}, {"е", "коде", "код"},
			{"ы", "просьбы", "просьб"}, {"и", "задачи", "задач"}, {"у", "коду", "код"}, {"ю", "модулю", "модул"},
			{"ь", "модель", "модел"},
		}),
		suffixes: []inflection{
			{"ьб", "просьб", "прос"},
		},
	}
})

// longestEndingFirst orders a table so a longer ending is tried before its tail ("ами" before
// "и"); the order among equals is the table's.
func longestEndingFirst(t []inflection) []inflection {
	out := make([]inflection, 0, len(t))
	for n := 3; n >= 1; n-- {
		for _, e := range t {
			if utf8.RuneCountInString(e.ending) == n {
				out = append(out, e)
			}
		}
	}
	return out
}

// isCyrillicWord reports a word written in Cyrillic letters.
func isCyrillicWord(w string) bool {
	for _, r := range w {
		if !unicode.Is(unicode.Cyrillic, r) && r != '-' {
			return false
		}
	}
	return w != ""
}

// inflectedStem strips a word's inflectional ending, then a noun-forming suffix, keeping at
// least minStem letters of it.
func inflectedStem(w string, t inflections) string {
	w = stripFirst(w, t.endings)
	return stripFirst(w, t.suffixes)
}

// stripFirst removes the first ending of the table the word ends with, when enough is left.
func stripFirst(w string, t []inflection) string {
	n := utf8.RuneCountInString(w)
	for _, e := range t {
		if strings.HasSuffix(w, e.ending) && n-utf8.RuneCountInString(e.ending) >= minStem {
			return strings.TrimSuffix(w, e.ending)
		}
	}
	return w
}

// elisionText are the French words that lose their vowel before another word (l'avis, t'as,
// qu'une): the word after the apostrophe is the one that carries content.
const elisionText = "c d j l m n s t qu jusqu lorsqu puisqu quoiqu"

// elided returns a word without its elided French article or pronoun ("t'as" is "as",
// "l'utilisateur" "utilisateur"); any other word as it is.
func elided(w string) string {
	head, rest, ok := strings.Cut(w, "'")
	if !ok || utf8.RuneCountInString(rest) < 2 || !smallSets().elision[head] {
		return w
	}
	return rest
}

// encliticBase returns a Spanish or Portuguese infinitive with an object pronoun attached
// ("usarlas", "revisarlo", "leerla": use them, check it, read it) without it: the verb of
// "antes de usar" is the verb of "antes de usarlas". The base keeps two letters before its
// ending, so no short word ("parle", "perla") is read as one.
func encliticBase(w string) string {
	if len(w) < 6 {
		return w
	}
	for _, c := range [...]string{"los", "las", "les", "lo", "la", "le"} {
		b, ok := strings.CutSuffix(w, c)
		if ok && len(b) >= 4 && (strings.HasSuffix(b, "ar") || strings.HasSuffix(b, "er") || strings.HasSuffix(b, "ir")) {
			return b
		}
	}
	return w
}
