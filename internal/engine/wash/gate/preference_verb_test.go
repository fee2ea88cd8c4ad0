package gate

import "testing"

// A preference's two sides traded, in each language: by a preference verb and its own
// preposition (en, fr, es, pt), by the joiner of the others (gegenüber, вместо, 而非, より,
// 보다), and by a French "que" joiner before an elided word. The same preference said in other
// words keeps its order.
func TestPreferenceVerbSides(t *testing.T) {
	cases := []struct {
		name, old, new string
		block          bool
	}{
		{"en/to-traded", "Prefer tabs to spaces in makefiles.", "Prefer spaces to tabs in makefiles.", true},
		{"en/to-reworded", "Prefer tabs to spaces in makefiles.", "In makefiles, prefer tabs to spaces.", false},
		{"fr/aux-traded", "Préférez les requêtes préparées aux requêtes concaténées.", "Préférez les requêtes concaténées aux requêtes préparées.", true},
		{"fr/aux-reworded", "Préférez les requêtes préparées aux requêtes concaténées.", "Préférer les requêtes préparées aux requêtes concaténées.", false},
		{"fr/qu-elided-traded", "Utiliser des chemins courts plutôt qu'imbriqués.", "Utiliser des chemins imbriqués plutôt que courts.", true},
		{"es/a-traded", "Prefiere funciones puras a clases con estado.", "Prefiere clases con estado a funciones puras.", true},
		{"es/a-reworded", "Prefiere funciones puras a clases con estado.", "Preferir funciones puras a clases con estado.", false},
		{"pt/a-traded", "Prefira a validação no servidor à validação no cliente.", "Prefira a validação no cliente à validação no servidor.", true},
		{"pt/a-reworded", "Prefira a validação no servidor à validação no cliente.", "Preferir validação no servidor à validação no cliente.", false},
		{"de/gegenueber-traded", "Tabellen gegenüber Fließtext bevorzugen.", "Fließtext gegenüber Tabellen bevorzugen.", true},
		{"ru/vmesto-traded", "Пишите таблицы вместо длинных абзацев.", "Пишите длинные абзацы вместо таблиц.", true},
		{"zh/erfei-traded", "使用表格而非长段落。", "使用长段落而非表格。", true},
		{"ja/yori-traded", "長い段落よりも表を使う。", "表よりも長い段落を使う。", true},
		{"ko/daesin-traded", "긴 문단 대신 테이블을 사용", "테이블 대신 긴 문단을 사용", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Check([]byte(c.old+"\n"), []byte(c.new+"\n"))
			switch {
			case c.block && !hasClass(d, TypeOrder):
				t.Errorf("%q said %q: no order drop; drops %v", c.old, c.new, d)
			case !c.block && len(d) > 0:
				t.Errorf("%q said %q: blocked %v", c.old, c.new, d)
			}
		})
	}
}
