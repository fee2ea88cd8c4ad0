package gate

import "testing"

// TestModalityScaleClasses: the binding scale always > usually > when possible (if needed) in
// the nine languages; a rule moved down it is a modality drop, one kept on its rung is none. In
// a Portuguese sentence "no" (em + o: in the) is no negation: read as one, it gave "Sempre X no
// Y" and "Quando possível, X no Y" the same forbidding level, and the hedge passed.
func TestModalityScaleClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en always → when possible", TypeModality, "Always rebase the branch on main before pushing.", "When possible, rebase the branch on main before pushing."},
		{"en usually → if needed", TypeModality, "Usually rebase the branch on main before pushing.", "Rebase the branch on main before pushing if needed."},
		{"de immer → wenn möglich", TypeModality, "Immer die Tests lokal ausführen, bevor du pushst.", "Wenn möglich die Tests lokal ausführen, bevor du pushst."},
		{"de immer → normalerweise", TypeModality, "Immer die Tests lokal ausführen, bevor du pushst.", "Normalerweise die Tests lokal ausführen, bevor du pushst."},
		{"fr toujours → si possible", TypeModality, "Toujours lancer les tests avant de pousser une branche.", "Si possible, lancer les tests avant de pousser une branche."},
		{"fr toujours → généralement", TypeModality, "Toujours lancer les tests avant de pousser une branche.", "Généralement, lancer les tests avant de pousser une branche."},
		{"es siempre → si es posible", TypeModality, "Siempre ejecuta las pruebas antes de subir los cambios.", "Si es posible, ejecuta las pruebas antes de subir los cambios."},
		{"es siempre → normalmente", TypeModality, "Siempre ejecuta las pruebas antes de subir los cambios.", "Normalmente ejecuta las pruebas antes de subir los cambios."},
		{"pt sempre → se possível", TypeModality, "Sempre rode os testes antes de enviar as alterações.", "Se possível, rode os testes antes de enviar as alterações."},
		{"pt sempre → geralmente", TypeModality, "Sempre rode os testes antes de enviar as alterações.", "Geralmente rode os testes antes de enviar as alterações."},
		{"pt sempre … no → hedge", TypeModality, "Sempre salve os logs no diretório de build, com data e hora.", "Se der, salve os logs no diretório de build, com data e hora."},
		{"pt sempre … no → quando possível", TypeModality, "Sempre publique a imagem no registro interno após o merge.", "Quando possível, publique a imagem no registro interno após o merge."},
		{"pt não … no flipped", TypePolarity, "Não publique a imagem no registro público antes da revisão, só no interno.", "Publique a imagem no registro público antes da revisão, só no interno."},
		{"pt no kept", "", "Sempre publique a imagem no registro interno após o merge.", "Sempre publique a imagem no registro interno depois do merge."},
		{"zh 始终 → 尽量", TypeModality, "始终在提交前运行单元测试。", "尽量在提交前运行单元测试。"},
		{"zh 始终 → 通常", TypeModality, "始终在提交前运行单元测试。", "通常在提交前运行单元测试。"},
		{"ja 常に → できれば", TypeModality, "常にコミット前にテストを実行する。", "できればコミット前にテストを実行する。"},
		{"ja 常に → 通常", TypeModality, "常にコミット前にテストを実行する。", "通常はコミット前にテストを実行する。"},
		{"ko 항상 → 필요하면", TypeModality, "항상 커밋 전에 테스트를 실행합니다.", "필요하면 커밋 전에 테스트를 실행합니다."},
		{"ko 항상 → 보통", TypeModality, "항상 커밋 전에 테스트를 실행합니다.", "보통 커밋 전에 테스트를 실행합니다."},
		{"ru должен → желательно", TypeModality, "Перед коммитом ты должен запускать тесты.", "Перед коммитом желательно запускать тесты."},
		{"ru всегда → обычно", TypeModality, "Всегда запускайте тесты перед коммитом.", "Обычно запускайте тесты перед коммитом."},
		{"ru всегда → по возможности", TypeModality, "Всегда запускайте тесты перед коммитом.", "По возможности запускайте тесты перед коммитом."},
		{"ru обычно kept", "", "Обычно запускайте тесты перед коммитом.", "Как правило, запускайте тесты перед коммитом."},
	})
}
