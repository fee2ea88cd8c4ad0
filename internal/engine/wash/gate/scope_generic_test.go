package gate

import (
	"strings"
	"testing"
)

// TestMeantAllClasses: an "all" the result adds where the original already meant all is no
// widening: a distributive quantifier standing for a set the statement names, a generic noun
// given a quantifier with nothing cut from the statement, a totality word said as "all". An
// "all" that replaces a qualifier or a condition still widens the rule. The sentences are
// written for this test, not taken from the edit sets.
func TestMeantAllClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		// a distributive pronoun over a set the statement names
		{"en each one", "", "- The three workers (`fetch`, `parse`, `store`) log their own errors.", "- The three workers (`fetch`, `parse`, `store`) each log their own errors."},
		{"en each with", "", "- Build profiles (debug/release) with their own flags.", "- Build profiles (debug, release), each with its own flags."},
		{"es cada uno", "", "- Documenta los servicios (`api`, `worker`) y su puerto.", "- Documenta los servicios (`api`, `worker`) y el puerto de cada uno."},
		{"pt cada um", "", "- Liste os módulos (`core`, `cli`) e sua função.", "- Liste os módulos (`core`, `cli`) e a função de cada um."},
		{"de jeden einzelnen", "", "- Prüfe die Dienste (`api`, `web`) auf offene Ports.", "- Prüfe die Dienste (`api`, `web`), jeden einzelnen, auf offene Ports."},
		{"ru каждый из", "", "- Сервисы (`api`, `web`) пишут свои логи в `/var/log`.", "- Сервисы (`api`, `web`), каждый из них, пишут логи в `/var/log`."},
		// a generic noun given a quantifier, nothing cut
		{"en warnings → any warning", "", "- Lint errors block merges.", "- Any lint error blocks the merge."},
		{"fr erreurs → toute erreur", "", "- Les erreurs de lint bloquent la fusion.", "- Toute erreur de lint bloque la fusion."},
		{"de Fehler → jeder Fehler", "", "- Lint-Fehler blockieren den Merge.", "- Jeder Lint-Fehler blockiert den Merge."},
		{"ru ошибки → любая ошибка", "", "- Ошибки линтера блокируют слияние.", "- Любая ошибки линтера блокируют слияние."},
		{"zh 错误 → 任何错误", "", "- lint 错误会阻止合并。", "- 任何 lint 错误会阻止合并。"},
		{"pt erros → qualquer erro", "", "- Erros de lint bloqueiam o merge.", "- Qualquer erro de lint bloqueia o merge."},
		// a totality word said as "all"
		{"fr lecture complète → toute", "", "- Sans la lecture complète de la documentation officielle.", "- Sans lire toute la documentation officielle."},
		{"es completa → toda", "", "- No hace falta la lectura completa de la documentación oficial.", "- No hace falta leer toda la documentación oficial."},
		{"en complete → all", "", "- No need for a complete read of the official documentation.", "- No need to read all the official documentation."},
		// still a widening: the quantifier replaces a qualifier or a condition
		{"en new → every", TypeCondition, "- New endpoints need integration tests.", "- Every endpoint needs integration tests."},
		{"es de producción → todos", TypeCondition, "- Activa el watchdog en proyectos de producción.", "- Activa el watchdog en todos los proyectos."},
		{"de neue → alle", TypeCondition, "- Neue Dateien brauchen einen Test.", "- Alle Dateien brauchen einen Test."},
		{"ko 복잡한 → 모든", TypeCondition, "- 복잡한 비교는 표로 정리한다.", "- 모든 비교는 표로 정리한다."},
		{"zh 公共 → 所有", TypeCondition, "- 公共接口需要文档注释。", "- 所有接口需要文档注释。"},
	})
}

// TestDistributiveEntries: each distributive quantifier of distributiveText, followed by each of
// its language's pronoun words, stands for a set named before, and followed by a noun does not.
func TestDistributiveEntries(t *testing.T) {
	for lang, e := range distributiveText() {
		for _, q := range strings.Fields(e[0]) {
			for _, w := range strings.Fields(e[1]) {
				t.Run(lang+" "+q+" "+w, func(t *testing.T) {
					if !quantifierPronoun(t, "- Logs "+q+" "+w+" tests.") {
						t.Errorf("%q %q not read as a pronoun", q, w)
					}
				})
			}
			t.Run(lang+" "+q+" noun", func(t *testing.T) {
				if quantifierPronoun(t, "- Logs "+q+" module tests.") {
					t.Errorf("%q before a noun read as a pronoun", q)
				}
			})
		}
	}
}

// quantifierPronoun reports the first "all" mark of text's first statement read as a pronoun.
func quantifierPronoun(t *testing.T, text string) bool {
	t.Helper()
	inv := Inventory([]byte(text + "\n"))
	for _, m := range scopeMarks(inv.clausesOf(inv.stmts[0])) {
		if m.key == scopeAllKey {
			return m.pronoun
		}
	}
	t.Fatalf("%q: no quantifier read", text)
	return false
}

// TestTotalityEntries: each form of totalityText is read in a sentence (a "*" form with an
// ending added).
func TestTotalityEntries(t *testing.T) {
	for lang, forms := range totalityText() {
		for _, f := range strings.Fields(forms) {
			t.Run(lang+" "+f, func(t *testing.T) {
				w := strings.ReplaceAll(strings.Replace(f, "*", "e", 1), "_", " ")
				text := "- Lies die " + w + " Doku."
				if !strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyzéèàçíóú") && !strings.ContainsAny(w, "абвгдежзийклмнопрстуфхцчшщыьэюя") {
					text = "- 文档" + w + "阅读"
					if isHangulWord(strings.TrimSuffix(w, "e")) {
						text = "- 문서를 " + w + " 읽기"
					}
				}
				inv := Inventory([]byte(text + "\n"))
				if !saysTotality(inv.clausesOf(inv.stmts[0])) {
					t.Errorf("%q not read in %q", f, text)
				}
			})
		}
	}
}
