package gate

import "testing"

// The "or" of a condition or threshold said "and", in each language's words; an "or" kept, or
// an "and" the original said too, is no drop.
func TestConditionOrSaidAnd(t *testing.T) {
	cases := []struct {
		name, old, new string
		block          bool
	}{
		{"en/or-and", "If the build fails or the lint warns, stop the release.", "If the build fails and the lint warns, stop the release.", true},
		{"en/and-outside-condition", "If there are risks or open questions, list them.", "List risks and open questions.", false},
		{"en/or-kept", "If the build fails or the lint warns, stop the release.", "Stop the release if the build fails or the lint warns.", false},
		{"de/oder-und", "Nur bei mehr als 3 Dateien oder neuen Abhängigkeiten nachfragen.", "Nur bei mehr als 3 Dateien und neuen Abhängigkeiten nachfragen.", true},
		{"fr/ou-et", "Seulement si le test échoue ou le build expire, relancer.", "Seulement si le test échoue et le build expire, relancer.", true},
		{"es/o-y", "Solo si hay 5 errores o alertas nuevas, avisar.", "Solo si hay 5 errores y alertas nuevas, avisar.", true},
		{"pt/ou-e", "Somente se houver 5 falhas ou alertas novos, avisar.", "Somente se houver 5 falhas e alertas novos, avisar.", true},
		{"ru/ili-i", "Если тесты падают или сборка зависла, остановить релиз.", "Если тесты падают и сборка зависла, остановить релиз.", true},
		{"zh/huo-he", "如果测试失败或构建超时，停止发布。", "如果测试失败和构建超时，停止发布。", true},
		{"ja/mataha-katsu", "テストが失敗またはビルドが停止した場合、リリースを止める。", "テストが失敗かつビルドが停止した場合、リリースを止める。", true},
		{"ko/ttoneun-mit", "테스트 실패 또는 빌드 중단 경우 릴리스 중지", "테스트 실패 및 빌드 중단 경우 릴리스 중지", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Check([]byte(c.old+"\n"), []byte(c.new+"\n"))
			switch {
			case c.block && !hasClass(d, TypeCondition):
				t.Errorf("%q said %q: no condition drop; drops %v", c.old, c.new, d)
			case !c.block && len(d) > 0:
				t.Errorf("%q said %q: blocked %v", c.old, c.new, d)
			}
		})
	}
}
