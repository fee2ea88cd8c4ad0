package gate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The lexicon's entries, each read in a sentence of its language: a modality word gives its
// clause its level, a condition word its kind, a sequence word its rank, a preference joiner its
// chosen side, an antonym exchanged is a drop, a number, unit or language word is a value. A
// failure names the entry, so a dead or shadowed one is found.

// lexFrame is a sentence of a language around a lexicon entry: content words before and after it
// that are no lexicon word of their own.
var lexFrame = map[string][2]string{
	"en": {"for the release", "build the packages"},
	"de": {"für das Release", "Pakete bauen"},
	"fr": {"pour la release", "construire les paquets"},
	"es": {"para la release", "construir los paquetes"},
	"pt": {"para a release", "construir os pacotes"},
	"ru": {"для релиза", "собирать пакеты"},
	"zh": {"发布时", "构建软件包"},
	"ja": {"リリースの", "パッケージをビルド"},
	"ko": {"릴리스에서", "패키지 빌드"},
}

// framed writes entry (its "_" joining a phrase's words) into its language's frame.
func framed(lang, entry string) string {
	f := lexFrame[lang]
	w := strings.ReplaceAll(entry, "_", " ")
	if lang == "zh" || lang == "ja" {
		return f[0] + w + f[1]
	}
	return f[0] + " " + w + " " + f[1]
}

// readText reads the clauses of a one-statement text.
func readText(text string) []clauseInfo {
	inv := inventory([]byte(text+"\n"), checks{})
	var out []clauseInfo
	for _, s := range inv.stmts {
		out = append(out, inv.clausesOf(s)...)
	}
	return out
}

func sortedLangs[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestLexiconModality(t *testing.T) {
	n := 0
	for _, lang := range sortedLangs(modalText()) {
		for level, words := range modalText()[lang] {
			for _, w := range strings.Fields(words) {
				n++
				text := framed(lang, w)
				cls := readText(text)
				if !slices.ContainsFunc(cls, func(c clauseInfo) bool { return c.level == level }) {
					t.Errorf("%s %q (level %d): %q reads %s", lang, w, level, text, levelsOf(cls))
				}
			}
		}
	}
	t.Logf("%d modality entries read in their languages", n)
}

func levelsOf(cls []clauseInfo) string {
	var out []string
	for _, c := range cls {
		out = append(out, fmt.Sprintf("%q=%d", c.text, c.level))
	}
	return strings.Join(out, " ")
}

func TestLexiconAlways(t *testing.T) {
	for _, w := range strings.Fields(alwaysText) {
		found := false
		for _, lang := range sortedLangs(modalText()) {
			if !strings.Contains(" "+modalText()[lang][3]+" ", " "+w+" ") {
				continue
			}
			found = true
			if cls := readText(framed(lang, w)); !slices.ContainsFunc(cls, func(c clauseInfo) bool { return c.always }) {
				t.Errorf("%s %q: not read as a binding word of frequency", lang, w)
			}
		}
		if !found {
			t.Errorf("%q is in alwaysText but no language's +3 modality words", w)
		}
	}
}

func TestLexiconConditions(t *testing.T) {
	for _, lang := range sortedLangs(condText()) {
		for kind, words := range condText()[lang] {
			for _, w := range strings.Fields(words) {
				texts := []string{framed(lang, w)}
				if lang == "ko" {
					// a word of its own ("빌드할 경우") or an ending ("릴리스에만")
					texts = []string{lexFrame[lang][0] + " 빌드할 " + w + " " + lexFrame[lang][1], "릴리스" + w + " " + lexFrame[lang][1]}
				}
				if !slices.ContainsFunc(texts, func(text string) bool {
					return slices.ContainsFunc(readText(text), func(c clauseInfo) bool { return containsStr(c.conds, kind) })
				}) {
					t.Errorf("%s %q (%s): %q reads no such condition", lang, w, kind, texts)
				}
			}
		}
	}
}

func TestLexiconSequence(t *testing.T) {
	for _, lang := range sortedLangs(seqText()) {
		for rank, words := range seqText()[lang] {
			for _, w := range strings.Fields(words) {
				text := framed(lang, w)
				cls := readText(text)
				if !slices.ContainsFunc(cls, func(c clauseInfo) bool { return c.seq == rank }) {
					t.Errorf("%s %q (rank %d): %q reads no such sequence mark", lang, w, rank, text)
				}
			}
		}
	}
	for lang, words := range seqLeadText() {
		for _, w := range strings.Fields(words) {
			text := w + ": build, test, deploy"
			if lang == "zh" || lang == "ja" {
				text = w + ": 构建, 测试, 部署"
			}
			cls := readText(text)
			if !slices.ContainsFunc(cls, func(c clauseInfo) bool { return c.lead }) {
				t.Errorf("%s %q: %q reads no lead", lang, w, text)
			}
		}
	}
}

func TestLexiconPreferences(t *testing.T) {
	for _, lang := range sortedLangs(prefText()) {
		for _, p := range strings.Fields(prefText()[lang]) {
			w, d, _ := strings.Cut(p, "=")
			text := "pnpm " + strings.ReplaceAll(w, "_", " ") + " yarn"
			if lang == "ko" && strings.HasPrefix(w, "보다") {
				text = "pnpm" + w + " yarn"
			}
			want := "pnpm"
			if d == "-1" {
				want = "yarn"
			}
			prefs := preferences(readText(text))
			if len(prefs) == 0 || !containsStr(prefs[0].chosen, wordStem(want)) {
				t.Errorf("%s %q: %q chooses %v, want %s", lang, w, text, prefs, want)
			}
		}
	}
}

func TestLexiconAntonyms(t *testing.T) {
	for _, lang := range sortedLangs(antonymText()) {
		for _, p := range strings.Fields(antonymText()[lang]) {
			f := strings.Split(p, "|")
			for _, pair := range [][2]string{{f[0], f[1]}, {f[1], f[0]}} {
				a, b := framed(lang, pair[0]), framed(lang, pair[1])
				d := Check([]byte(a+"\n"), []byte(b+"\n"))
				if len(d) == 0 {
					t.Errorf("%s %q → %q: %q → %q is no drop", lang, pair[0], pair[1], a, b)
				}
			}
		}
	}
}

func TestLexiconNumbers(t *testing.T) {
	for _, lang := range sortedLangs(numberText()) {
		for _, p := range strings.Fields(numberText()[lang]) {
			w, v, _ := strings.Cut(p, "=")
			text := framed(lang, w)
			if lang == "en" && w == "one" {
				text = "build one package"
			}
			if got := wordFacts(readText(text)); !containsTok(got, Token{TypeNumber, v}) {
				t.Errorf("%s %q: %q states %v, want number %s", lang, w, text, got, v)
			}
		}
	}
}

func TestLexiconLanguageNames(t *testing.T) {
	for canon, forms := range langNameText() {
		for _, f := range strings.Fields(forms) {
			w := f
			if _, exact := slex().langName[f]; !exact && f != canon {
				w = f + "ом" // a Russian or Korean stem, inflected
			}
			if got := langOf(w); got != canon {
				t.Errorf("%q (%s) is read as %q", w, canon, got)
			}
		}
	}
}

func TestLexiconReasonsQuantitiesNegatedLists(t *testing.T) {
	for _, w := range strings.Fields(reasonText) {
		if r := []rune(w); r[0] >= 0x3000 {
			continue // Chinese and Korean reason words are read with the CJK clause
		}
		text := "build the packages, " + strings.ReplaceAll(w, "_", " ") + " the release works"
		if cls := readText(text); !slices.ContainsFunc(cls, func(c clauseInfo) bool { return c.reason }) {
			t.Errorf("%q: %q reads no reason clause", w, text)
		}
	}
	for _, w := range strings.Fields(quantityText) {
		text := "it takes " + w + " hours"
		if got := wordFacts(readText(text)); !containsTok(got, Token{TypeNumber, "~h"}) {
			t.Errorf("%q: %q states %v, want an amount of hours", w, text, got)
		}
	}
	for _, w := range strings.Fields(listNegText) {
		text := w + " logs, commits"
		cls := readText(text)
		if len(cls) < 2 || cls[1].level >= 0 {
			t.Errorf("%q: the list after %q is not negated: %s", w, text, levelsOf(cls))
		}
	}
}

// TestLexiconQualifiers reads every bound of qualifierText before a number ("at most 5", "不超过5")
// and of qualifierAfterText after one (5分以内), as part of the value: the bound is the value's
// own, "≤ 5" says the same, and the bare number differs.
func TestLexiconQualifiers(t *testing.T) {
	for _, lang := range sortedLangs(qualifierText()) {
		for _, p := range strings.Fields(qualifierText()[lang]) {
			w, q, _ := strings.Cut(p, "=")
			w = strings.ReplaceAll(w, "_", " ")
			gap := " "
			if lang == "zh" || lang == "ja" {
				gap = ""
			}
			qualifiedValue(t, lang+" "+w, "keep "+w+gap+"5 replicas", "keep 5 replicas", q+"5")
		}
	}
	for _, p := range strings.Fields(qualifierAfterText) {
		w, q, _ := strings.Cut(p, "=")
		qualifiedValue(t, w, "タイムアウトは5分"+w+"です", "タイムアウトは5分です", q+"5min")
	}
	same(t, "qualifier", "Keep at most 5 replicas.", "Keep ≤ 5 replicas.")
	same(t, "qualifier", "Retry at most 2 times.", "Retry at most twice.")
}

func qualifiedValue(t *testing.T, name, text, bare, want string) {
	t.Helper()
	var got []Token
	for _, tc := range inventory([]byte(text+"\n"), checks{}).Tokens() {
		got = append(got, tc.Token)
	}
	if !containsTok(got, Token{TypeNumber, want}) {
		t.Errorf("%s: %q reads %v, want number %s", name, text, got, want)
	}
	if d := Check([]byte(text+"\n"), []byte(bare+"\n")); !hasType(d, TypeNumber) {
		t.Errorf("%s: %q → %q is no number drop: %v", name, text, bare, d)
	}
}

// TestLexiconHedgeWeakensMust writes each recommending (+2) and permitting (+1) word of every
// language in place of its language's "must": the rule now binds less ("must" said
// "advisable", "obligatorio" said "conviene", "обязательно" said "желательно"), a modality drop.
func TestLexiconHedgeWeakensMust(t *testing.T) {
	must := map[string]string{"en": "must", "de": "muss", "fr": "doit", "es": "debe", "pt": "deve",
		"zh": "必须", "ja": "必ず", "ko": "반드시", "ru": "обязательно"}
	for _, lang := range sortedLangs(modalText()) {
		for _, level := range []int{2, 1} {
			for _, w := range strings.Fields(modalText()[lang][level]) {
				t.Run(lang+"/"+w, func(t *testing.T) {
					old, weak := framed(lang, must[lang]), framed(lang, w)
					if d := Check([]byte(old+"\n"), []byte(weak+"\n")); !hasClass(d, TypeModality) {
						t.Errorf("%q said %q: not a modality drop; drops %v", old, weak, d)
					}
				})
			}
		}
	}
}
