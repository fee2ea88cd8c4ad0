package gate

import (
	"strings"
	"testing"
)

// editClass is a one-statement edit of a class the held-out sets showed the gate missing or
// falsely blocking, in the language it was seen in: block edits must be refused by a drop of
// their type, pass edits must pass.
type editClass struct {
	name, typ, old, new string // typ "" for an honest edit that must pass
}

func checkEditClasses(t *testing.T, cases []editClass) {
	t.Helper()
	for _, c := range cases {
		drops := Check([]byte(c.old+"\n"), []byte(c.new+"\n"))
		switch {
		case c.typ == "" && len(drops) > 0:
			t.Errorf("%s: honest edit blocked: %v", c.name, drops)
		case c.typ != "" && !hasType(drops, c.typ):
			t.Errorf("%s: not blocked by %s; drops %v", c.name, c.typ, drops)
		}
	}
}

// TestOrderClasses: an order stated by a rank word (höchste, 첫), by before/after words, by
// sequence words after a lead ("TDD：先 A，再 B") and by a Japanese "A てから B" is a fact; its
// reversal is an order drop, a rewording that keeps it is none.
func TestOrderClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"rank antonym", TypeOrder, "- Security-Patches (höchste Priorität)", "- Security-Patches (niedrigste Priorität)"},
		{"bevor/nachdem", TypeOrder, "- Übersicht als Tabelle ausgeben, bevor Aktionen gestartet werden.", "- Übersicht als Tabelle ausgeben, nachdem Aktionen gestartet werden."},
		{"first/last argument", TypeOrder, "`*testing.T`를 첫 인자로 받고 `t.Helper()` 호출.", "`*testing.T`를 마지막 인자로 받고 `t.Helper()` 호출."},
		{"sequence after a lead", TypeOrder, "- 任务设计遵循 TDD：先设计测试用例，再开发功能。", "- 任务设计遵循 TDD：先开发功能，再设计测试用例。"},
		{"sequence after a lead kept", "", "- 任务设计遵循 TDD：先设计测试用例，再开发功能。", "- 任务设计遵循 TDD：先写测试用例，再开发功能。"},
		{"te-kara reversed", TypeOrder, "- git push は必ずユーザーの確認を取ってから実行すること", "- git push は実行してから必ずユーザーの確認を取ること"},
		{"te-kara kept", "", "- git push は必ずユーザーの確認を取ってから実行すること", "- git push は必ずユーザーに確認を取ってから実行する"},
	})
}

// TestHedgeBoundClasses: a hedge or permission restated with a binding word binds where the
// original left it to judgement (a modality drop); a hedge left out or reworded is none.
func TestHedgeBoundClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"if needed → always", TypeModality, "Run the linters if needed.", "Always run the linters."},
		{"必要时 → 始终", TypeModality, "- 保持变更记录与状态同步，必要时在终端与日志中输出清晰进度。", "- 保持变更记录与状态同步，始终在终端与日志中输出清晰进度。"},
		{"可能な場合は → 必ず", TypeModality, "- **lint実行**: 可能な場合は静的解析ツールを実行", "- **lint実行**: 必ず静的解析ツールを実行"},
		{"if needed reworded", "", "Run the linters if needed.", "Run the linters if necessary."},
		{"hedge left out", "", "Run the linters if needed.", "Run the linters."},
	})
}

// TestBlockMessagesNameWhatChanged: a block names the original statement, the result statement
// it is aligned with, and what changed in it: the condition's own words, the modality words,
// the two operands whose order is reversed.
func TestBlockMessagesNameWhatChanged(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"- Run the deploy script only on macOS.", "- Run the deploy script.",
			`line 1 "Run the deploy script only on macOS." → line 1 "Run the deploy script."; condition "only on macOS" missing`},
		{"- You must run the tests before a commit.", "- You may run the tests before a commit.",
			`line 1 "You must run the tests before a commit." → line 1 "You may run the tests before a commit."; "must" → "may"`},
		{"1. Run `make build`, then run `make test`.", "1. Run `make test`, then run `make build`.",
			"order of \"run `make build`\" and \"run `make test`\" reversed"},
	} {
		if got := Render(Check([]byte(c.old+"\n"), []byte(c.new+"\n"))); !strings.Contains(got, c.want) {
			t.Errorf("%q → %q:\n%s\nwant it to say %s", c.old, c.new, got, c.want)
		}
	}
}

// TestChainedOrderClasses: a chain of one joiner said twice or more ("A before B before C", "A >
// B > C", "A vor B vor C") states the order of its items; reversed, it is an order drop, while a
// chain kept under a reworded lead or with an item reworded is none.
func TestChainedOrderClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"before chain reversed", TypeOrder, "- Release order: docs before the CLI before the server.", "- Release order: the server before the CLI before docs."},
		{"before chain kept", "", "- Release order: docs before the CLI before the server.", "- Release docs before the CLI before the server."},
		{"> chain reversed", TypeOrder, "Escalate: on-call > team lead > director.", "Escalate: director > team lead > on-call."},
		{"> chain kept", "", "Escalate: on-call > team lead > director.", "Escalation: on-call > team lead > director."},
		{"vor chain reversed", TypeOrder, "- Deploy-Reihenfolge: Staging vor Canary vor Produktion.", "- Deploy-Reihenfolge: Produktion vor Canary vor Staging."},
		{"avant chain reversed", TypeOrder, "Migrer la base avant le cache avant le frontend.", "Migrer le frontend avant le cache avant la base."},
		{"перед chain reversed", TypeOrder, "Обновляй схему перед API перед клиентом.", "Обновляй клиента перед API перед схемой."},
		{"then chain reversed", TypeOrder, "Format the code then lint it then commit.", "Commit then lint it then format the code."},
		{"comparison kept", "", "Keep coverage > 80 for core packages.", "Keep coverage > 80 in core packages."},
		{"arrow chain's first step moved", TypeOrder, "- Deploy: build -> smoke test -> publish", "- Deploy: smoke test -> build -> publish"},
		{"arrow chain kept", "", "- Deploy: build -> smoke test -> publish", "- Deploy steps: build -> smoke test -> publish"},
		// a step's parenthesis (with a comma in it) cuts no chain
		{"arrow chain past a parenthesis reordered", TypeOrder, "- Gate after each task, in full: `lint` (0 errors, strict mode) → `type` → `test` (0 failures, count checked) → `build` → `check`.",
			"- Gate after each task: `lint` (0 errors, strict) → `type` → `build` → `test` (0 failures, count) → `check`."},
		{"arrow chain past a parenthesis kept", "", "- Gate after each task, in full: `lint` (0 errors, strict mode) → `type` → `test` (0 failures, count checked) → `build` → `check`.",
			"- Gate after each task: `lint` (0 errors, strict mode) → `type` → `test` (0 failures, count checked) → `build` → `check`."},
	})
}

// TestWithoutClasses: "without" and its kin in each language (ohne, sans, sin, sem, без, 없이,
// なしで) forbid what they govern, as "no" does: "with X" said "without X" is a polarity drop,
// and a "no X" rule merged into another as "..., without X" keeps it.
func TestWithoutClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"with → without", TypePolarity, "Build the images with layer caching enabled.", "Build the images without layer caching."},
		{"mit → ohne", TypePolarity, "- Tests immer mit aktivierter Race-Erkennung starten.", "- Tests immer ohne Race-Erkennung starten."},
		{"с → без", TypePolarity, "Собирай образы с включенным кэшем слоёв.", "Собирай образы без кэша слоёв."},
		{"avec → sans", TypePolarity, "Lance les tests avec le cache activé.", "Lance les tests sans le cache."},
		{"con → sin", TypePolarity, "Ejecuta las pruebas con la caché activada.", "Ejecuta las pruebas sin la caché."},
		{"포함 → 없이", TypePolarity, "- 캐시를 포함해 이미지를 빌드합니다.", "- 캐시 없이 이미지를 빌드합니다."},
		{"kein merged under ohne", "", "- **Format:** Alle Tags im Format `vX.Y.Z`\n- **Keine Präfixe:** Kein `release-` vor Tags",
			"- **Tags:** Alle im Format `vX.Y.Z`, ohne `release-` davor"},
		{"no merged under without", "", "- Write commit subjects in the imperative.\n- No trailing period in commit subjects.",
			"- Write commit subjects in the imperative, without a trailing period."},
		{"sin kept", "", "Ejecuta las pruebas sin la caché.", "Ejecuta las pruebas sin caché."},
		{"no X sin Y flipped", TypePolarity, "- No subir secretos al repositorio sin cifrarlos", "- Subir secretos al repositorio sin cifrarlos"},
		{"não → evitar beside sem", TypeModality, "- **NÃO** mudar o schema sem migração aprovada", "- **EVITAR** mudar o schema sem migração aprovada"},
	})
}

// TestMergedProhibitionClasses: two prohibitions merged into one sentence under the one rule
// word ("…は不要" and "…は避ける" said "…、…は不要") keep both; a prohibition made a plain
// statement is still a drop.
func TestMergedProhibitionClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"不要 and 避ける merged", "", "- **ログ不要**: デバッグ出力や一時ログは不要\n- **簡潔**: 冗長なコメントは避ける",
			"- **ログ不要・簡潔**: デバッグ出力や一時ログ、冗長なコメントは不要"},
		{"避ける → 不要", "", "- 冗長なコメントは避ける", "- 冗長なコメントは不要"},
		{"Han label of a Japanese rule", "", "- **報告不要**: 途中経過の報告は不要\n- **簡潔**: 長い前置きは避ける", "- **報告不要・簡潔**: 途中経過の報告、長い前置きは不要"},
		{"不要 made plain", TypePolarity, "- デバッグ出力や一時ログは不要", "- デバッグ出力や一時ログを出す"},
	})
}

// TestShortenedLabelClasses: a hyphenated compound label shortened to one of its parts
// ("Patch-Updates" said "Patches") keeps its name; a lowercase tool name cut short
// ("vue-router" said "vue") does not.
func TestShortenedLabelClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"compound labels shortened", "", "Reihenfolge:\n\n- Hotfix-Releases\n- Feature-Releases\n- Major-Releases (mit Ankündigung)",
			"Reihenfolge:\n\n- Hotfixes\n- Features\n- Majors (mit Ankündigung)"},
		{"tool name cut", TypeName, "- Use vue-router for routing.", "- Use vue for routing."},
	})
}

// TestScopeConditionClasses: a leading scope phrase of a rule ("For database migrations, ...",
// "Für Datenbankänderungen ...", "Для изменений схемы ...", 在合并后, a Korean "…에" phrase) is a
// condition of it: dropped, narrowed or widened ("for all packages" said "for core packages") it
// is a condition drop; moved to the end of the rule, or a reference ("For more details, see
// ...") or the project itself ("For this repository, ...") dropped, it is none.
func TestScopeConditionClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"for X dropped", TypeCondition, "For database migrations, run `make migrate-check` first.", "Run `make migrate-check` first."},
		{"for X moved", "", "For database migrations, run `make migrate-check`.", "Run `make migrate-check` for database migrations."},
		{"for all narrowed", TypeCondition, "For all packages, keep the public API documented.", "For core packages, keep the public API documented."},
		{"for X widened", TypeCondition, "For exported functions, write doc comments.", "For all functions, write doc comments."},
		{"reference dropped", "", "For more details, see `docs/release.md`.", "See `docs/release.md`."},
		{"the project dropped", "", "For this repository, use `pnpm` and never `npm`.", "Use `pnpm`, never `npm`."},
		{"für X dropped", TypeCondition, "- Für Datenbankänderungen immer ein Migrationsskript anlegen.", "- Immer ein Migrationsskript anlegen."},
		{"pour X dropped", TypeCondition, "Pour les changements d'API, mets à jour le changelog.", "Mets à jour le changelog."},
		{"para X dropped", TypeCondition, "Para cambios de esquema, ejecuta `make migrate`.", "Ejecuta `make migrate`."},
		{"para X dropped (pt)", TypeCondition, "Para mudanças de API, atualize o changelog.", "Atualize o changelog."},
		{"для X dropped", TypeCondition, "Для изменений схемы запускайте `make migrate`.", "Запускайте `make migrate`."},
		{"для X kept", "", "Для изменений схемы запускайте `make migrate`.", "При изменениях схемы запускайте `make migrate`."},
		{"在…后 dropped", TypeCondition, "- 代码需经过评审并在合并后部署到测试环境。", "- 代码需经过评审并部署到测试环境。"},
		{"在…后 reworded", "", "- 在合并后把代码部署到测试环境。", "- 合并后把代码部署到测试环境。"},
		{"…에 widened", TypeCondition, "공개 API에 예제 테스트 작성.", "모든 API에 예제 테스트 작성."},
		{"…에 kept", "", "공개 API에 예제 테스트 작성.", "공개 API에는 예제 테스트를 작성."},
		{"an adjective list of a scope", "", "For small, internal changes like typo fixes, skip the changelog.", "For internal changes such as typo fixes, skip the changelog."},
		{"在必要时 is a hedge", "", "- 保留英文术语，并在必要时补充中文解释", "- 保留英文术语，必要时补充中文解释"},
	})
}

// TestSharedAndPrecedenceClasses: shared ↔ dedicated (共通 ↔ 専用, 通用 ↔ 专用) and precedence ↔
// equal rank (優先 ↔ 同等, 优先 ↔ 同等, takes precedence ↔ equal) reverse a rule.
func TestSharedAndPrecedenceClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"共通 → 専用", TypePolarity, "- 共通ルールは `rules/common.md` に置く", "- 専用ルールは `rules/common.md` に置く"},
		{"通用 → 专用", TypePolarity, "- 通用配置放在 `config/base.yaml`。", "- 专用配置放在 `config/base.yaml`。"},
		{"優先 → 同等", TypePolarity, "この設定はローカル設定より優先されます。", "この設定はローカル設定と同等に扱います。"},
		{"优先 → 同等", TypePolarity, "项目规则优先于全局规则。", "项目规则与全局规则同等对待。"},
		{"precedence → equal", TypePolarity, "Project rules take precedence over global rules.", "Project rules are equal to global rules."},
		{"優先 reworded", "", "この設定はローカル設定より優先されます。", "この設定はローカル設定より優先する。"},
	})
}

// TestCondensationClasses: what a summariser does to a rule keeps it. A rule split in two with
// its rule word ("…and avoid Y" said "…; no Y"); "avoided" said "avoid" (a description of the
// rule as the rule); a bound said in other words ("минимум" said "хотя бы"); a compound label
// cut to its head ("Vue-Komponenten" said "Komponenten"); a Korean list item before the
// prohibition that ends the sentence ("A, B 금지" said "A·B, C 금지"). Dropping the rule word or
// the bound still blocks.
func TestCondensationClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"rule split in two", "", "- Keep only the smallest necessary diff and avoid unrelated renames.", "- Smallest necessary diff only; no unrelated renames."},
		{"avoid dropped", TypePolarity, "- Avoid unrelated renames in the diff.", "- Do unrelated renames in the diff."},
		{"evitado said evitar", "", "- Estado global evitado con stores locales", "- Evitar estado global con stores locales"},
		{"vermieden said vermeiden", "", "- Globale Variablen werden im Code vermieden.", "- Globale Variablen im Code vermeiden."},
		{"хотя бы = минимум", "", "Добавляй минимум два теста на каждый баг.", "Добавляй хотя бы два теста на каждый баг."},
		{"ao menos = pelo menos", "", "Adicione pelo menos um teste por correção.", "Adicione ao menos um teste por correção."},
		{"хотя бы dropped", TypeNumber, "Добавляй хотя бы два теста на каждый баг.", "Добавляй два теста на каждый баг."},
		{"compound cut to its head", "", "- Vue-Komponenten in `src/components/`\n- Stores in `src/stores/`", "- Komponenten in `src/components/`, Stores in `src/stores/`"},
		{"Korean list item before 금지", "", "- 토큰, 세션 키 로그 출력 금지", "- 토큰·세션 키 로그 출력, 디버그 덤프 커밋 금지"},
		{"Korean rule before a ban kept plain", "", "- 테스트 커버리지 80% 유지\n- `console.log` 사용 금지", "- 테스트 커버리지 80% 유지, `console.log` 사용 금지"},
		{"Korean ban dropped", TypePolarity, "- 세션 키 로그 출력 금지", "- 세션 키 로그 출력"},
	})
}

// TestOrderAndRequirementClasses: a comparison before a version is part of it (">= 1.22.0" said
// "1.22.0" pins a floor); required ↔ optional in each language and Portuguese antes ↔ após
// reverse a rule; a Korean "A 후 B" (A, then B) reversed is an order drop.
func TestOrderAndRequirementClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"version floor pinned", TypeVersion, "- Needs Go >= 1.22.0 to build.", "- Needs Go 1.22.0 to build."},
		{"version floor kept", "", "- Needs Go >= 1.22.0 to build.", "- Building needs Go >= 1.22.0."},
		{"obligatoire → facultatif", TypePolarity, "- Revue de code obligatoire pour `release/*`", "- Revue de code facultative pour `release/*`"},
		{"obligatorio → opcional", TypePolarity, "- El changelog es obligatorio en cada release.", "- El changelog es opcional en cada release."},
		{"obrigatório → opcional", TypePolarity, "- Testes de integração obrigatórios antes do merge.", "- Testes de integração opcionais antes do merge."},
		{"Pflicht → optional", TypePolarity, "- Code-Review ist Pflicht für `main`.", "- Code-Review ist optional für `main`."},
		{"обязательно → опционально", TypePolarity, "- Скриншот обязательно прикладывать к PR.", "- Скриншот опционально прикладывать к PR."},
		{"após → antes de", TypeOrder, "- Limpar o cache após cada deploy.", "- Limpar o cache antes de cada deploy."},
		{"후 reversed", TypeOrder, "- 린트 통과 후 푸시", "- 푸시 후 린트 통과"},
		{"후 kept", "", "- 린트 통과 후 푸시", "- 린트를 통과한 후 푸시"},
	})
}

// TestNegatedOppositeClasses: "X, not anti-X" (fix|ignore, keep|delete, ask|guess) says X twice;
// the negated opposite left out loses nothing while X stays. A negated half that says more (its
// own object) or a result that no longer does X still drops.
func TestNegatedOppositeClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en keep, don't delete", "", "- Keep old migrations, don't delete them.", "- Keep old migrations."},
		{"en ask, do not guess", "", "- If a path is unclear, ask the user, do not guess.", "- If a path is unclear, ask the user."},
		{"de beheben, nicht ignorieren", "", "- Warnungen des Linters beheben, nicht ignorieren.", "- Warnungen des Linters beheben."},
		{"fr conserver, ne pas supprimer", "", "- Conserve les anciennes migrations, ne les supprime pas.", "- Conserve les anciennes migrations."},
		{"es preguntar, no adivinar", "", "- Ante una ruta ambigua, pregunta al usuario, no adivines.", "- Ante una ruta ambigua, pregunta al usuario."},
		{"pt corrigir, não ignorar", "", "- Corrija os testes quebrados, não os ignore.", "- Corrija os testes quebrados."},
		{"ru исправлять, не игнорировать", "", "- Падающие тесты исправляйте, не отключайте.", "- Падающие тесты исправляйте."},
		{"zh 修复，不要忽略", "", "- 测试失败时立即修复，不要忽略。", "- 测试失败时立即修复。"},
		{"ja 修正し、無視しない", "", "- 警告はすぐ修正し、無視しないこと。", "- 警告はすぐ修正すること。"},
		{"ko 수정하고, 무시하지 마세요", "", "- 경고는 바로 수정하고, 무시하지 마세요.", "- 경고는 바로 수정하세요."},
		{"negated half has its own object", TypePolarity, "- Fix lint errors, don't ignore warnings.", "- Fix lint errors."},
		{"X dropped too", TypePolarity, "- Keep old migrations, don't delete them.", "- Old migrations exist."},
		{"X turned into its opposite", TypePolarity, "- Warnungen beheben, nicht ignorieren.", "- Warnungen ignorieren."},
	})
}

// TestMergedPreferenceClasses: two rules merged into one clause, one of them a preference ("use
// X instead of Y"), keep the other's strength: the joiner ranks only its own pair. A rule word
// that binds the whole merged clause ("You should ...") still weakens the plain rule.
func TestMergedPreferenceClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en instead of", "", "- Keep commits small. Use rebase instead of merge.", "- Keep commits small and use rebase instead of merge."},
		{"de statt", "", "- Commits klein halten. Rebase statt Merge verwenden.", "- Commits klein halten und Rebase statt Merge verwenden."},
		{"fr au lieu de", "", "- Garde les commits petits. Utilise rebase au lieu de merge.", "- Garde les commits petits et utilise rebase au lieu de merge."},
		{"es en vez de", "", "- Mantén los commits pequeños. Usa rebase en vez de merge.", "- Mantén los commits pequeños y usa rebase en vez de merge."},
		{"pt em vez de", "", "- Mantenha os commits pequenos. Use rebase em vez de merge.", "- Mantenha os commits pequenos e use rebase em vez de merge."},
		{"should binds the merged clause", TypeModality, "- Run the tests. You should lint the code.", "- You should run the tests and lint the code."},
		{"no other clause brought the joiner", TypeModality, "- Keep commits small.", "- Keep commits small instead of large."},
	})
}

// TestBeforeActingClasses: a rule done "before acting" (a before-condition naming no action of
// its own) is done first: "first" or another generic before-condition keeps it; a
// before-condition with an action of its own, or one left out, still drops.
func TestBeforeActingClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en before acting → first", "", "- Read the design notes before acting.", "- Read the design notes first."},
		{"en before proceeding → before you start", "", "- Check the open issues before proceeding.", "- Check the open issues before you start."},
		{"de bevor du handelst → zuerst", "", "- Lies die Architekturnotizen, bevor du handelst.", "- Lies zuerst die Architekturnotizen."},
		{"fr avant d'agir → d'abord", "", "- Lis les notes d'architecture avant d'agir.", "- Lis d'abord les notes d'architecture."},
		{"es antes de actuar → primero", "", "- Lee las notas de arquitectura antes de actuar.", "- Primero lee las notas de arquitectura."},
		{"pt antes de agir → primeiro", "", "- Leia as notas de arquitetura antes de agir.", "- Primeiro leia as notas de arquitetura."},
		{"ru перед тем как действовать → сначала", "", "- Прочитайте заметки об архитектуре перед тем как действовать.", "- Сначала прочитайте заметки об архитектуре."},
		{"a before-condition with its own action", TypeCondition, "- Read the notes before deploying.", "- Read the notes first."},
		{"before acting left out", TypeCondition, "- Read the notes before acting.", "- Read the notes."},
		{"a generic word of the rule itself exchanged", TypeName, "- Start the server before acting.", "- Continue the server before acting."},
	})
}

// TestRelativeNegationClasses: a negation inside a relative clause ("edits that don't touch the
// schema") describes what the rule is about; said on both sides, it is no negation of the rule,
// whose own direction is compared. A relative negation one side drops, or a rule turned round
// around it, still drops.
func TestRelativeNegationClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en skip … that don't → need no", "", "- Skip the migration review for changes that don't touch the schema.", "- Changes that touch no schema need no migration review."},
		{"en don't … → neither … nor", "", "- Skip the changelog for commits that don't change behaviour or output.", "- Commits that change neither behaviour nor output need no changelog."},
		{"fr qui ne … pas → ni … ni", "", "- Ignore le changelog pour les commits qui ne changent pas le comportement.", "- Les commits qui ne changent ni le comportement ni la sortie ne demandent aucun changelog."},
		{"es que no → no necesitan", "", "- Omite el changelog para los commits que no cambian el comportamiento.", "- Los commits que no cambian el comportamiento no necesitan changelog."},
		{"pt que não → não precisam", "", "- Pule o changelog para commits que não mudam o comportamento.", "- Commits que não mudam o comportamento não precisam de changelog."},
		{"rule turned round", TypePolarity, "- Skip the changelog for commits that don't change behaviour.", "- Write the changelog for commits that don't change behaviour."},
		{"relative negation dropped", TypePolarity, "- Skip the changelog for commits that don't change behaviour.", "- Skip the changelog for commits that change behaviour."},
		{"relative negation added", TypePolarity, "- Commit only files that pass the linter.", "- Commit only files that don't pass the linter."},
	})
}

// TestPurposeAndCliticClasses: a purpose opened by a scope preposition ("para no bloquear",
// "pour éviter") is the rule's reason, no scope a comma before it could lose; a Spanish
// infinitive with its object pronoun ("usarlas") is the infinitive. A purpose turned round still
// drops, and so does a real scope left out.
func TestPurposeAndCliticClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"es para no, comma removed", "", "- Usa colas, para no bloquear el hilo principal.", "- Usa colas para no bloquear el hilo principal."},
		{"es para evitar, comma removed", "", "- Usa colas, para evitar bloqueos.", "- Usa colas para evitar bloqueos."},
		{"fr pour ne pas, comma removed", "", "- Utilise des files, pour ne pas bloquer le thread principal.", "- Utilise des files pour ne pas bloquer le thread principal."},
		{"pt para não, comma removed", "", "- Use filas, para não bloquear a thread principal.", "- Use filas para não bloquear a thread principal."},
		{"es clitic", "", "- Revisar las entradas antes de guardar.", "- Revisar las entradas antes de guardarlas."},
		{"es purpose turned round", TypePolarity, "- Usa colas para no bloquear el hilo principal.", "- Usa colas para bloquear el hilo principal."},
		{"es scope left out", TypeCondition, "- Para nuevos módulos, usa colas.", "- Usa colas."},
		{"es condition verb exchanged", TypeCondition, "- Revisar las entradas antes de guardar.", "- Revisar las entradas antes de borrarlas."},
	})
}
