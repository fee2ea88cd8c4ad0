package gate

import (
	"fmt"
	"strings"
	"testing"
)

// TestEquivalences holds each equivalence of equiv.go and langs.go as an entry: the two sides
// say one value (no drop), and a changed value is still a drop.

// same asserts that rewriting old as new loses nothing.
func same(t *testing.T, what, old, new string) {
	t.Helper()
	if d := Check([]byte(old+"\n"), []byte(new+"\n")); len(d) > 0 {
		t.Errorf("%s: %q → %q blocked: %v", what, old, new, d)
	}
}

// differs asserts that rewriting old as new is a drop.
func differs(t *testing.T, what, old, new string) {
	t.Helper()
	if d := Check([]byte(old+"\n"), []byte(new+"\n")); len(d) == 0 {
		t.Errorf("%s: %q → %q is no drop", what, old, new)
	}
}

func TestEquivalentUnits(t *testing.T) {
	for _, c := range [][2]string{
		{"Poll the queue every 60 s.", "Poll the queue every 1 min."},
		{"Poll the queue every 60 s.", "Poll the queue every minute."},
		{"Poll the queue every 60s.", "Poll the queue every 60 seconds."},
		{"The timeout is 300 s.", "The timeout is 5 min."},
		{"Rotate logs every 24 h.", "Rotate logs every day."},
		{"Keep builds for 7 d.", "Keep builds for 1 w."},
		{"The cache holds 1024 KiB.", "The cache holds 1 MiB."},
		{"The cache holds 1000 KB.", "The cache holds 1 MB."},
		{"Sample 1500 ms windows.", "Sample 1.5 s windows."},
	} {
		same(t, "units", c[0], c[1])
	}
	for _, c := range [][2]string{
		{"The timeout is 300 s.", "The timeout is 300 ms."},
		{"The timeout is 300 s.", "The timeout is 3 min."},
		{"The cache holds 1 MiB.", "The cache holds 1 MB."},
		{"Poll the queue every 60 s.", "Poll the queue every hour."},
	} {
		differs(t, "units", c[0], c[1])
	}
}

// TestEquivalentUnitWords reads every unit word of unitText after a number, in its language: it
// is the number with its normal unit, and another number is a drop.
func TestEquivalentUnitWords(t *testing.T) {
	for _, lang := range sortedLangs(unitText()) {
		for _, p := range strings.Fields(unitText()[lang]) {
			w, u, _ := strings.Cut(p, "=")
			spaced, glued := "5 "+w, "5"+w
			if lang == "zh" || lang == "ja" || lang == "ko" {
				spaced = glued
			}
			for _, form := range []string{spaced} {
				if got := numberFacts(form); !containsStr(got, "5"+u) {
					t.Errorf("%s %q: %q states %v, want 5%s", lang, w, form, got, u)
				}
			}
			if u == "line" || u == "%" || u == "w" {
				continue // no second symbol to write it in
			}
			same(t, lang+" "+w, "wait "+spaced+" first", "wait 5"+u+" first")
			differs(t, lang+" "+w, "wait "+spaced+" first", "wait 6"+u+" first")
		}
	}
}

// numberFacts returns the number values a text states, as the statement comparison reads them.
func numberFacts(text string) []string {
	inv := inventory([]byte(text+"\n"), checks{})
	var out []string
	for _, s := range inv.stmts {
		for _, f := range append(append([]Token(nil), s.facts...), wordFacts(inv.clausesOf(s))...) {
			if f.Type == TypeNumber {
				out = append(out, f.Value)
			}
		}
	}
	return out
}

// TestEquivalentEveryUnit holds "every minute" in each language as one minute.
func TestEquivalentEveryUnit(t *testing.T) {
	for _, c := range [][2]string{
		{"Poll every minute.", "Poll every 1 min."},
		{"Jede Minute abfragen.", "Alle 1 min abfragen."},
		{"Interroger chaque minute.", "Interroger toutes les 1 min."},
		{"Consultar cada minuto.", "Consultar a cada 1 min."},
		{"Consultar cada minuto.", "Consultar cada 1 min."},
		{"Опрашивать каждую минуту.", "Опрашивать раз в 1 мин."},
		{"每分钟轮询一次。", "每 1 分钟轮询一次。"},
		{"毎分ポーリングする。", "1分ごとにポーリングする。"},
	} {
		if got := numberFacts(c[0]); !containsStr(got, "1min") {
			t.Errorf("%q states %v, want 1min", c[0], got)
		}
	}
	same(t, "every unit", "Poll every minute.", "Poll every 60 s.")
	differs(t, "every unit", "Poll every minute.", "Poll every hour.")
	same(t, "every unit", "每分钟轮询一次。", "每 60 秒轮询一次。")
}

// TestEquivalentNumberWords holds a number word and its digits as one value.
func TestEquivalentNumberWords(t *testing.T) {
	for _, c := range [][2]string{
		{"Keep two replicas.", "Keep 2 replicas."},
		{"Retry three times.", "Retry 3 times."},
		{"Retry twice before giving up.", "Retry 2 times before giving up."},
		{"Retry at most 2 times.", "Retry at most twice."},
		{"Behalte zwei Replikate.", "Behalte 2 Replikate."},
		{"Garder trois répliques.", "Garder 3 répliques."},
		{"保留两个副本。", "保留 2 个副本。"},
	} {
		same(t, "number words", c[0], c[1])
	}
	differs(t, "number words", "Keep two replicas.", "Keep 3 replicas.")
	differs(t, "number words", "Behalte zwei Replikate.", "Behalte drei Replikate.")
}

// TestEquivalentNames holds the aliases (aliasText, one defined by the original), a language's
// names in other languages and scripts, and the complementary sides of a platform pair.
func TestEquivalentNames(t *testing.T) {
	for _, p := range strings.Fields(aliasText) {
		names := strings.Split(p, "=")
		for _, n := range names[1:] {
			same(t, "alias", "Use "+names[0]+" for this.", "Use "+n+" for this.")
			same(t, "alias", "Use "+n+" for this.", "Use "+names[0]+" for this.")
		}
	}
	same(t, "defined alias", "Search with rg (ripgrep). Prefer rg over grep.", "Search with rg. Prefer rg over grep.")
	same(t, "defined alias", "Mask PII (personal identifying data) in logs.", "Mask PII in logs.")
	differs(t, "alias", "Use rg for this.", "Use grep for this.")
	// A plain word takes no alias: its parenthesis is a fact of its own.
	differs(t, "no alias of a plain word", "Fields are encrypted before insertion (ChaCha20).", "Fields are encrypted before insertion.")
	differs(t, "no alias of a plain word", "Les champs sont chiffrés avant insertion (ChaCha20).", "Les champs sont chiffrés avant insertion.")
	same(t, "defined alias of a code span", "Search with `rg` (ripgrep). Prefer `rg` over grep.", "Search with `rg`. Prefer `rg` over grep.")
	for _, c := range [][2]string{
		{"PR titles are always in English.", "PR titles are always in 英文."},
		{"PR titles are always in English.", "PR titles are always in Englisch."},
		{"PR-Titel immer auf Englisch.", "PR-Titel immer auf English."},
	} {
		same(t, "language names", c[0], c[1])
	}
	differs(t, "language names", "PR titles are always in English.", "PR titles are always in 中文.")
	same(t, "complement", "To build the project, run `make` (Linux/macOS) or `build.bat` (Windows).", "To build the project, run `make` (`build.bat` on Windows).")
	differs(t, "complement", "To build the project, run `make` (Linux/macOS) or `build.bat` (Windows).", "To build the project, run `make` (Windows).")
}

// TestEquivalentLowerBounds holds every way of saying "at least X" as one value: "X+", "≥ X",
// a bound word before it (qualifierText) and one after it (boundAfterText, qualifierAfterText),
// in each language; the bare X and "at most X" differ from it.
func TestEquivalentLowerBounds(t *testing.T) {
	for _, c := range [][2]string{
		{"Coverage must reach 90%+ on the core.", "Coverage must reach at least 90% on the core."},
		{"Coverage must reach 90%+ on the core.", "Coverage must reach ≥ 90% on the core."},
		{"Requires Node 20+.", "Requires Node 20 or later."},
		{"Requires Node 20+.", "Requires Node ≥20."},
		{"Keep 3+ replicas.", "Keep 3 or more replicas."},
		{"Abdeckung 80%+ im Kern.", "Abdeckung mindestens 80% im Kern."},
		{"Abdeckung 80%+ im Kern.", "Abdeckung 80% oder mehr im Kern."},
		{"Couverture 80%+ sur le cœur.", "Couverture d'au moins 80 % sur le cœur."},
		{"Couverture 80%+ sur le cœur.", "Couverture de 80 % ou plus sur le cœur."},
		{"Cobertura 80%+ en el núcleo.", "Cobertura de al menos 80% en el núcleo."},
		{"Cobertura 80%+ en el núcleo.", "Cobertura de 80% o más en el núcleo."},
		{"Cobertura 80%+ para o código.", "Cobertura de pelo menos 80% para o código."},
		{"Cobertura 80%+ para o código.", "Cobertura de 80% ou mais para o código."},
		{"Покрытие 80%+ для ядра.", "Покрытие не менее 80% для ядра."},
		{"Покрытие 80%+ для ядра.", "Покрытие от 80% для ядра."},
		{"Покрытие 80%+ для ядра.", "Покрытие 80% и более для ядра."},
		{"核心覆盖率 80%+。", "核心覆盖率至少 80%。"},
		{"核心覆盖率 80%+。", "核心覆盖率 80% 及以上。"},
		{"コアのカバレッジは80%+。", "コアのカバレッジは80%以上。"},
		{"코어 커버리지 80%+.", "코어 커버리지 80% 이상."},
	} {
		t.Run(c[1], func(t *testing.T) {
			same(t, "lower bound", c[0], c[1])
			same(t, "lower bound", c[1], c[0])
		})
	}
	differs(t, "lower bound", "Coverage must reach 90%+ on the core.", "Coverage must reach 90% on the core.")
	differs(t, "lower bound", "Requires Node 20+.", "Requires Node 20.")
	differs(t, "lower bound", "Keep 3 or more replicas.", "Keep at most 3 replicas.")
	differs(t, "lower bound", "Keep 3 or more replicas.", "Keep 3 replicas, or more nodes.")
}

// TestEquivalentQuantifiers holds the words of each language's group of quantifierText as one
// in a statement that keeps the rest; another word in their place blocks.
func TestEquivalentQuantifiers(t *testing.T) {
	tmpl := map[string]string{
		"en": "Log %s request handled by `api/` with its latency and status.",
		"de": "Protokolliere %s Anfragen von `api/` mit Latenz und Status.",
		"fr": "Journaliser %s requêtes traitées par `api/` avec latence et statut.",
		"es": "Registrar %s peticiones de `api/` con latencia y estado.",
		"pt": "Registrar %s requisições de `api/` com latência e estado.",
		"ru": "Логировать %s запросы `api/` с задержкой и статусом.",
		"zh": "记录 `api/` 处理的%s请求的延迟和状态。",
		"ja": "`api/` が処理する%sリクエストの遅延とステータスを記録する。",
		"ko": "`api/`가 처리하는 %s 요청의 지연과 상태를 기록한다.",
	}
	for lang, group := range quantifierText() {
		words := strings.Split(group, "|")
		for _, w := range words[1:] {
			t.Run(lang+" "+w, func(t *testing.T) {
				same(t, "quantifier", fmt.Sprintf(tmpl[lang], words[0]), fmt.Sprintf(tmpl[lang], w))
			})
		}
	}
	same(t, "quantifier", "`backend/app/api/` - Toutes les routes API", "`backend/app/api/` - L'ensemble des routes API")
	differs(t, "quantifier", "Log every request handled by `api/` with its latency and status.", "Log some request handled by `api/` with its latency and status.")
}
