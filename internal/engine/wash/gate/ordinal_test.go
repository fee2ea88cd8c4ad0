package gate

import (
	"strings"
	"testing"
)

// TestOrdinalClasses: an ordinal said in digits and in words is one value, in either direction;
// an ordinal exchanged for another is a changed value. The sentences are written for this test,
// not taken from the edit sets.
func TestOrdinalClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"fr 1er → premier", "", "- Un build vert au 1er essai : relancer la CI.", "- Build vert du premier essai : relancer la CI."},
		{"en 1st → first", "", "- A green run on the 1st attempt: rerun the suite.", "- Green run on the first attempt: rerun the suite."},
		{"de 1. → ersten", "", "- Am 1. Tag des Sprints die Tickets schätzen.", "- Am ersten Tag des Sprints Tickets schätzen."},
		{"es 1º → primer", "", "- En el 1º intento, revisa los logs del worker.", "- En el primer intento, revisa los logs del worker."},
		{"pt 1º → primeiro", "", "- No 1º deploy, confira os logs do worker.", "- No primeiro deploy, confira os logs do worker."},
		{"ru 1-й → первый", "", "- На 1-й итерации проверяйте логи воркера.", "- На первой итерации проверяйте логи воркера."},
		{"zh 第1 → 第一", "", "- 第1次部署时检查 worker 日志。", "- 第一次部署时检查 worker 日志。"},
		{"ja 1番目 → 最初", "", "- 1番目のジョブで worker のログを確認する。", "- 最初のジョブで worker のログを確認する。"},
		{"ko 1번째 → 첫 번째", "", "- 1번째 배포에서 worker 로그를 확인한다.", "- 첫 번째 배포에서 worker 로그를 확인한다."},
		{"fr 1er → deuxième", TypeNumber, "- Un build vert au 1er essai : relancer la CI.", "- Un build vert au deuxième essai : relancer la CI."},
		{"en 1st → second", TypeNumber, "- A green run on the 1st attempt: rerun the suite.", "- A green run on the second attempt: rerun the suite."},
	})
}

// TestOrdinalEntries: each word of ordinalWordText says the value of the ordinal its language
// writes in digits.
func TestOrdinalEntries(t *testing.T) {
	digits := map[string]string{"en": "%th", "de": "am %. Tag", "fr": "%e", "es": "%º", "pt": "%º", "ru": "%-й", "zh": "第%", "ja": "%番目", "ko": "%번째"}
	for lang, pairs := range ordinalWordText() {
		for _, p := range strings.Fields(pairs) {
			w, n, _ := strings.Cut(p, "=")
			t.Run(lang+" "+w, func(t *testing.T) {
				text := " " + strings.ReplaceAll(digits[lang], "%", n) + " "
				value := n // the token a frame holds is the bare number; an ending stays on it
				if strings.HasPrefix(digits[lang], "%") && !strings.ContainsAny(digits[lang], "-番번") {
					value = strings.ReplaceAll(digits[lang], "%", n)
				}
				if got := ordinalValue(Token{TypeNumber, value}, text); got != n {
					t.Errorf("%q in %q read as ordinal %q, want %s", value, text, got, n)
				}
				if !saysOrdinalWord("- die "+strings.ReplaceAll(w, "_", " ")+" runde", n) {
					t.Errorf("%q not read as the ordinal %s", w, n)
				}
			})
		}
	}
}
