package gate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestScopeClasses: the phrase a rule applies to is part of the rule. A scope word added,
// removed or exchanged there ("for new endpoints" → "for all endpoints", 所有公开接口 → 所有接口,
// "em produção" → "em desenvolvimento") widens or narrows it: a condition drop. So is a rule's
// leading phrase dropped ("For database changes, …", "Для изменений схемы …", 在合并之后) and a
// "without …" exception of a prohibition. A rewording that keeps the scope passes: the phrase
// moved from the front to the end, two rules under one phrase merged, "all" said another way,
// filler dropped. The sentences are written for this test, not taken from the edit sets.
func TestScopeClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		// a scope word added or exchanged
		{"en new → all", TypeCondition, "Write integration tests for new endpoints.", "Write integration tests for all endpoints."},
		{"en release → every commit", TypeCondition, "Run the smoke tests on release.", "Run the smoke tests on every commit."},
		{"de kritische → alle", TypeCondition, "- Für kritische Pfade sind Lasttests Pflicht.", "- Für alle Pfade sind Lasttests Pflicht."},
		{"de jede → neue", TypeCondition, "- Jede Migration braucht ein Rollback-Skript.", "- Neue Migrationen brauchen ein Rollback-Skript."},
		{"fr complexes → tous", TypeCondition, "Ajoute des captures d'écran pour les changements complexes de l'interface.", "Ajoute des captures d'écran pour tous les changements de l'interface."},
		{"es cualquier → grandes", TypeCondition, "- Revisa cualquier dependencia antes de instalarla.", "- Revisa las dependencias grandes antes de instalarlas."},
		{"pt produção → desenvolvimento", TypeCondition, "- Use logs estruturados em produção.", "- Use logs estruturados em desenvolvimento."},
		{"ja 新規 → 全て", TypeCondition, "- 新規ファイルは TypeScript で書く。", "- 全てのファイルは TypeScript で書く。"},
		{"ko 큰 → 모든", TypeCondition, "- 큰 변경은 리뷰를 받는다.", "- 모든 변경은 리뷰를 받는다."},
		{"ru публичных → всех", TypeCondition, "- Для публичных методов пишите документацию.", "- Для всех методов пишите документацию."},
		{"ko 통과 상태에서 → 언제든", TypeCondition, "- 빌드가 성공한 상태에서 스테이징 서버에 배포한다.", "- 언제든 스테이징 서버에 배포한다."},
		// a scope word removed while what it qualifies stays
		{"en public removed", TypeCondition, "Add a changelog entry for public packages.", "Add a changelog entry for packages."},
		{"zh 公开 removed", TypeCondition, "所有公开接口都需要单元测试。", "所有接口都需要单元测试。"},
		{"de gesamte → Ordner", TypeCondition, "Die Formatierung gilt für das gesamte Projekt.", "Die Formatierung gilt für den Ordner `lib/`."},
		// a leading phrase or a "without" exception dropped
		{"en lead dropped", TypeCondition, "For database changes, ask before running migrations.", "Ask before running migrations."},
		{"de lead dropped", TypeCondition, "- Für Datenbankänderungen ist ein Review nötig.", "- Ein Review ist nötig."},
		{"fr lead dropped", TypeCondition, "- Pour les correctifs urgents, préviens l'équipe d'astreinte.", "- Préviens l'équipe d'astreinte."},
		{"es lead dropped", TypeCondition, "- Para cambios de la API, actualiza el esquema OpenAPI.", "- Actualiza el esquema OpenAPI."},
		{"ru lead dropped", TypeCondition, "- Для изменений схемы базы данных запускайте миграции.", "- Запускайте миграции."},
		{"zh 在…之后 dropped", TypeCondition, "- 在合并之后删除功能分支。", "- 删除功能分支。"},
		{"zh 对于 dropped", TypeCondition, "- 对于数据库变更，需要维护者审批。", "- 需要维护者审批。"},
		{"zh 情况下 dropped", TypeCondition, "- 禁止在没有备份的情况下删除数据。", "- 禁止删除数据。"},
		{"pt sem dropped", TypeCondition, "- Não use `eval` em scripts de build sem revisão de segurança.", "- Não use `eval` em scripts de build."},
		{"en without dropped", TypeCondition, "- Never force-push to shared branches without a reviewer's approval.", "- Never force-push to shared branches."},
		// a case, an initiative or a part the rule was restricted to dropped
		{"fr dans ce cas dropped", TypeCondition, "- Si la CI est rouge, préviens l'équipe. Dans ce cas, ne fusionne aucune branche.", "- Si la CI est rouge, préviens l'équipe. Ne fusionne aucune branche."},
		{"en in that case dropped", TypeCondition, "- The build may fail on ARM runners. In that case, do not retry the job.", "- The build may fail on ARM runners. Do not retry the job."},
		{"ru по своей инициативе dropped", TypeCondition, "- Не устанавливайте системные пакеты по своей инициативе.", "- Не устанавливайте системные пакеты."},
		{"zh 主动 dropped", TypeCondition, "- 不要主动创建新的文档文件。", "- 不要创建新的文档文件。"},
		{"es parcialmente dropped", TypeCondition, "- Los mocks se usan parcialmente en los tests de integración.", "- Los mocks se usan en los tests de integración."},
		{"ru конкретного dropped", TypeCondition, "- Нужна отдельная проверка для конкретного модуля оплаты.", "- Нужна отдельная проверка для модуля оплаты."},
		{"fr toutes → techniques", TypeCondition, "- Le ton s'applique à toutes les réponses du bot.", "- Le ton s'applique aux réponses techniques du bot."},
		// a heading's scope dropped
		{"zh heading (Windows) dropped", TypeCondition, "### 2. 构建步骤 (Windows)\n- 使用 `build.cmd` 构建。", "### 2. 构建步骤\n- 使用 `build.cmd` 构建。"},
		{"en heading (macOS) dropped", TypeCondition, "## Signing (macOS)\n\nRun `make sign` before a release.", "## Signing\n\nRun `make sign` before a release."},
		// honest: the scope kept
		{"en lead moved to the end", "", "For new endpoints, write integration tests.", "Write integration tests for new endpoints."},
		{"en two rules merged under one lead", "", "For release builds, sign the artifacts. For release builds, attach the checksums.", "For release builds, sign the artifacts and attach the checksums."},
		{"fr filler dropped", "", "- Pour chaque nouvelle route, il faut simplement ajouter un test.", "- Pour chaque nouvelle route, ajoute un test."},
		{"ja すべて said 全", "", "- すべてのファイルは UTF-8 で保存する。", "- 全ファイルは UTF-8 で保存する。"},
		{"zh lead restated", "", "- 对于所有公共 API，都要编写文档注释。", "- 所有公共 API 都要编写文档注释。"},
		{"es all dropped, its noun kept", "", "- Ejecuta todos los tests antes de cada commit.", "- Ejecuta los tests antes de cada commit."},
		{"ru lead said as a verb", "", "- Для всех публичных методов пишите документацию.", "- Документируйте все публичные методы."},
		{"en two-word scope said by one", "", "- For database migrations, run `make migrate-check`.", "- Migrations: run `make migrate-check`."},
		{"fr two-word scope said by one", "", "- Pour les changements de schéma, lance `make db-check`.", "- Schéma modifié : lance `make db-check`."},
		{"en two-word scope dropped", TypeCondition, "- For database migrations, run `make migrate-check`.", "- Run `make migrate-check`."},
		{"ru initiative kept", "", "- Не устанавливайте системные пакеты по своей инициативе.", "- Системные пакеты по своей инициативе не устанавливайте."},
		{"en heading description dropped", "", "## Commands (quick reference)\n\nRun `make test` before a commit.", "## Commands\n\nRun `make test` before a commit."},
		{"en heading scope kept", "", "## Signing (macOS)\n\nRun `make sign` before a release.", "## Signing on macOS\n\nRun `make sign` before a release."},
		{"en any in a prohibition", "", "- Never commit secrets to the repository.", "- Never commit any secrets to the repository."},
		{"zh 任何 in a prohibition", "", "- 不要向仓库提交密钥。", "- 不要向仓库提交任何密钥。"},
		{"en all left out of a plural scope", "", "- For all public APIs, add doc comments.", "- Public APIs need doc comments."},
		{"de alle left out of a plural scope", "", "- Für alle neuen Module wird ein README geschrieben.", "- Neue Module bekommen ein README."},
		{"en all exchanged for a qualifier", TypeCondition, "- For all packages, keep the changelog current.", "- For internal packages, keep the changelog current."},
		{"en without kept", "", "- Never force-push to shared branches without a reviewer's approval.", "- Never force-push to shared branches without approval from a reviewer."},
	})
}

// TestScopeEntries reads every entry of the scope tables in a statement of its own and checks
// the reader finds it as what the table says: a scope word with its key, a hedge, a
// "without" word opening an exception.
func TestScopeEntries(t *testing.T) {
	read := func(text string) []clauseInfo { return readClauses([]stmtLine{{text: text}}, false) }
	marks := func(text string) map[string]scopeMark { return scopeSet(scopeMarks(read(text))) }
	check := func(table, key, forms string) {
		for _, f := range strings.Fields(forms) {
			w := strings.ReplaceAll(strings.TrimSuffix(f, "*"), "_", " ")
			text := "check " + w + " widgets"
			if r, _ := utf8.DecodeRuneInString(w); isCJK(r) {
				text = "检查" + w + "文件"
			}
			if _, ok := marks(text)[key]; !ok {
				t.Errorf("%s %q: %q read as %v, want %s", table, f, text, marks(text), key)
			}
		}
	}
	for lang, forms := range scopeQuantText() {
		check("scopeQuantText() "+lang, scopeAllKey, forms)
	}
	for key, forms := range scopeQualText() {
		check("scopeQualText()", key, forms)
	}
	for key, forms := range scopeFamilyText() {
		check("scopeFamilyText()", key, forms)
	}
	for _, h := range strings.Fields(scopeHedgeText) {
		text := "use widgets " + strings.ReplaceAll(h, "_", " ")
		if got := scopeHedge(read(text)); got == "" {
			t.Errorf("scopeHedgeText %q: %q has no hedge", h, text)
		}
	}
	x := scopeLex()
	for _, w := range strings.Fields(withoutText) {
		text := "never check gadgets " + w + " widgets."
		if lps := x.withoutPhrases(read(text)[0]); len(lps) != 1 {
			t.Errorf("withoutText %q: %q read as %+v", w, text, lps)
		}
	}
}

// TestAnchoredConditions: a list item cut down to its code span shares too few words with its
// original to align, yet it is that statement: its condition dropped is a condition drop; kept
// in other words, none. (Sentences written for this test.)
func TestAnchoredConditions(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en if dropped", TypeCondition, "- `scripts/migrate.sh` (if the schema changed)", "- `scripts/migrate.sh`"},
		{"de wenn dropped", TypeCondition, "- `pnpm test:e2e` (wenn die Oberfläche geändert wurde)", "- `pnpm test:e2e`"},
		{"ja 場合 dropped", TypeCondition, "- `docs/api.md`（公開 API を変更した場合）", "- `docs/api.md`"},
		{"ru если dropped", TypeCondition, "- `docs/schema.md` (если менялась схема базы)", "- `docs/schema.md`"},
		{"en condition reworded", "", "- `scripts/migrate.sh` (if the schema changed)", "- `scripts/migrate.sh`, when the schema changes"},
		{"de condition reworded", "", "- `pnpm test:e2e` (wenn die Oberfläche geändert wurde)", "- `pnpm test:e2e` bei geänderter Oberfläche"},
	})
}
