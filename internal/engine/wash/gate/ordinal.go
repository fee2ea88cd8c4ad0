package gate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// An ordinal written in digits and in words is one value: "1er" is "premier", "1st" "first",
// "1." "erste", "1º" "primero", 第1 第一, "1番目" 最初, "1번째" "첫 번째", "1-й" "первый". A
// rewording exchanges one for the other freely; the number itself is still compared (1er said
// "deuxième" is a changed value).

// ordinalWordText are, per language, the ordinal words with the value they state. Each entry has
// its case in TestOrdinalEntries.
func ordinalWordText() map[string]string {
	return map[string]string{
		"en": "first=1 second=2 third=3 fourth=4 fifth=5",
		"de": "erste=1 ersten=1 erster=1 erstes=1 erstem=1 zweite=2 zweiten=2 zweiter=2 dritte=3 dritten=3 dritter=3 vierte=4 vierten=4 fünfte=5 fünften=5",
		"fr": "premier=1 première=1 premiers=1 premières=1 deuxième=2 second=2 seconde=2 troisième=3 quatrième=4 cinquième=5",
		"es": "primero=1 primera=1 primer=1 segundo=2 segunda=2 tercero=3 tercera=3 tercer=3 cuarto=4 cuarta=4 quinto=5 quinta=5",
		"pt": "primeiro=1 primeira=1 segundo=2 segunda=2 terceiro=3 terceira=3 quarto=4 quarta=4 quinto=5 quinta=5",
		"ru": "первый=1 первая=1 первое=1 первого=1 первой=1 первом=1 второй=2 вторая=2 второе=2 третий=3 третья=3 третье=3 четвёртый=4 пятый=5",
		"zh": "第一=1 第二=2 第三=3 第四=4 第五=5 首次=1",
		"ja": "最初=1 一番目=1 第一=1 二番目=2 第二=2 三番目=3 第三=3",
		"ko": "첫_번째=1 첫째=1 첫=1 두_번째=2 둘째=2 세_번째=3 셋째=3 네_번째=4 다섯_번째=5",
	}
}

// ordinalKept reports a number t of statement s that is an ordinal its counterparts say in
// words ("1er" said "premier").
func ordinalKept(t Token, s *stmt, to []*stmt) bool {
	n := ordinalValue(t, s.key)
	if n == "" {
		return false
	}
	for _, u := range to {
		if saysOrdinalWord(strings.ToLower(u.key), n) {
			return true
		}
	}
	return false
}

// ordinalValue returns the value of a number or name token written as an ordinal in digits,
// by its ending or by its frame in text, or "".
func ordinalValue(t Token, text string) string {
	if t.Type != TypeNumber && t.Type != TypeName {
		return ""
	}
	// the endings that make digits an ordinal ("1er", "2nd", "1º", "3e"), and the marks around
	// them that do ("1. Tag", "1-й", 第1, 1番目, 1번째; "%" stands for the digits)
	suffixes := [...]string{"er", "re", "ère", "ème", "eme", "e", "st", "nd", "rd", "th", "º", "ª"}
	frames := [...]string{"% %.", "%-й", "%-я", "%-е", "%-го", "%-ой", "%-ый", "第%", "%番目", "%번째", "%째"}
	v := strings.ToLower(t.Value)
	digits := strings.TrimRightFunc(v, func(r rune) bool { return !unicode.IsDigit(r) })
	if digits == "" || strings.TrimLeftFunc(digits, unicode.IsDigit) != "" {
		return ""
	}
	if suffix := v[len(digits):]; suffix != "" {
		for _, s := range suffixes {
			if suffix == s {
				return digits
			}
		}
		return ""
	}
	for _, f := range frames {
		frame := strings.ReplaceAll(f, "%", digits)
		if strings.HasPrefix(f, "% ") {
			frame = " " + digits + ". " // "am 1. Tag", not the sentence ending in 1.
			if i := strings.Index(text, frame); i >= 0 && lowerAfter(text[i+len(frame):]) {
				return digits
			}
			continue
		}
		if strings.Contains(text, frame) {
			return digits
		}
	}
	return ""
}

// lowerAfter reports text going on with a word (a lowercase letter, or a German noun: any
// letter), not a new sentence's capital after a number ending one.
func lowerAfter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// saysOrdinalWord reports text holding an ordinal word of value n: a word of a spaced script
// whole, a Chinese or Japanese one inside the text.
func saysOrdinalWord(text, n string) bool {
	for _, pairs := range ordinalWordText() {
		for _, p := range strings.Fields(pairs) {
			w, v, _ := strings.Cut(p, "=")
			if v == n && containsWord(text, strings.ReplaceAll(w, "_", " ")) {
				return true
			}
		}
	}
	return false
}

// containsWord reports w in text, standing as a word where its script spaces words.
func containsWord(text, w string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len(w)
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[from:])
		first, _ := utf8.DecodeRuneInString(w)
		if unicode.Is(unicode.Han, first) || !unicode.IsLetter(before) && !unicode.IsLetter(after) {
			return true
		}
	}
}

// sameOrdinal reports an ordinal in digits and an ordinal word of one value ("1er", "premier").
func sameOrdinal(a, b string) bool {
	for _, p := range [2][2]string{{a, b}, {b, a}} {
		if n := ordinalValue(Token{TypeNumber, p[0]}, ""); n != "" && saysOrdinalWord(p[1], n) {
			return true
		}
	}
	return false
}

// ordinalSpan reports a replaced span that is an ordinal in digits on one side ("1º", the "1"
// of "1번째", read with the text of its statement) and an ordinal word of its value on the other.
func ordinalSpan(del, ins []dunit, otext, utext string) bool {
	for _, p := range [2]struct {
		digits, words []dunit
		text          string
	}{{del, ins, otext}, {ins, del, utext}} {
		if !hasNum(p.digits) {
			continue
		}
		glued := strings.NewReplacer(" ", "", "-", "").Replace(unitsText(p.digits))
		n := ordinalValue(Token{TypeNumber, glued}, p.text)
		if n == "" {
			n = ordinalValue(Token{TypeNumber, strings.TrimRightFunc(glued, func(r rune) bool { return !unicode.IsDigit(r) })}, p.text)
		}
		if n != "" && saysOrdinalWord(unitsText(p.words), n) {
			return true
		}
	}
	return false
}
