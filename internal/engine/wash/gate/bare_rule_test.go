package gate

import "testing"

// A rule word alone leading a list ("…, DEBES:") replaced by a weaker or opposite one, in each
// language; the same strength in other words is kept.
func TestBareRuleLead(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           string // the drop's type, "" for none
	}{
		{"en/must-advisable", "Before you open a pull request, you MUST:", "Before you open a pull request, it is advisable:", TypeModality},
		{"en/must-always", "Before you open a pull request, you must:", "Before you open a pull request, always:", ""},
		{"de/muss-ratsam", "Vor jedem Release gilt, man muss:", "Vor jedem Release gilt, es ist ratsam:", TypeModality},
		{"fr/doit-souhaitable", "Avant chaque livraison, on doit :", "Avant chaque livraison, il est souhaitable :", TypeModality},
		{"es/debes-conviene", "Antes de publicar una versión, DEBES:", "Antes de publicar una versión, conviene:", TypeModality},
		{"es/debes-nunca", "Antes de publicar una versión, debes:", "Antes de publicar una versión, nunca:", TypePolarity},
		{"pt/deve-recomendavel", "Antes de publicar uma versão, deve:", "Antes de publicar uma versão, é recomendável:", TypeModality},
		{"ru/obyazatelno-zhelatelno", "Перед публикацией релиза обязательно:", "Перед публикацией релиза желательно:", TypeModality},
		{"zh/bixu-zuihao", "发布新版本之前，必须：", "发布新版本之前，最好：", TypeModality},
		{"ja/kanarazu-dekireba", "リリースの前に、必ず：", "リリースの前に、できれば：", TypeModality},
		{"ko/bandeusi-baramjik", "릴리스 전에 반드시:", "릴리스 전에 가급적:", TypeModality},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Check([]byte(c.old+"\n"), []byte(c.new+"\n"))
			switch {
			case c.want == "" && len(d) > 0:
				t.Errorf("%q said %q: blocked %v", c.old, c.new, d)
			case c.want != "" && !hasClass(d, c.want):
				t.Errorf("%q said %q: no %s drop; drops %v", c.old, c.new, c.want, d)
			}
		})
	}
}
