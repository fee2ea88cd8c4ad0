package gate

import "sync"

// The statement lexicon: for each of the nine languages the gate reads (English, German, French,
// Spanish, Portuguese, Chinese, Japanese, Korean, Russian), the words that give a clause its
// modality (how strongly it binds, and in which direction), its conditions, its sequence, the
// antonyms that flip it, the number and frequency words that are values, and the function words
// that carry no content. It is data: every entry is exercised by TestLexiconEntries in the
// sentence of its language. Entries are lowercase; "_" joins the words of a phrase; in Chinese and
// Japanese an entry is matched inside a run of text, in Korean at the start or end of a word.

// alwaysText are the binding words that say how often (always, every time): dropping one weakens a
// rule ("Always run X" said "Run X"), while a dropped "must" that the result restates as a fact
// ("must be relative" said "is relative") does not.
var alwaysText = "always every_time immer stets jedes_mal toujours systématiquement siempre sempre всегда 始终 总是 每次 常に 항상"

// modalText gives, per language, the words of each modality level: +3 binds (must, always), +2
// recommends (should, preferably), +1 permits or hedges (may, if needed), -1 discourages weakly
// (rarely), -2 discourages (avoid, should not), -3 forbids (never, must not, do not). A clause
// with no modality word is an assertion or an imperative and binds like +3.
var modalText = sync.OnceValue(func() map[string]map[int]string {
	return map[string]map[int]string{
		"en": {
			3:  "always must mandatory required shall every_time make_sure need_to needs_to have_to has_to is_required are_required",
			2:  "should usually generally normally recommended preferably ideally advisable desirable preferable it's_best_to prefer prefers preferred favor favour instead instead_of rather_than in_favor_of in_favour_of",
			1:  "may might can could optionally optional if_possible if_needed if_necessary when_needed when_necessary as_needed where_possible when_possible whenever_possible when_in_doubt when_unsure if_in_doubt when_convenient if_convenient when_practical where_practical if_desired if_you_want if_you_like at_your_discretion if_time_permits sometimes consider try_to feel_free allowed permitted acceptable is_fine are_fine is_ok",
			-1: "rarely seldom hardly sparingly no_need_to not_required not_necessary don't_have_to doesn't_have_to does_not_need_to do_not_need_to don't_need_to doesn't_need_to needn't no_need optional_to",
			-2: "avoid avoids avoiding avoided should_not shouldn't discouraged preferably_not try_not_to",
			-3: "never not no nor nothing none nobody don't dont doesn't isn't aren't won't can't cannot mustn't forbidden prohibited disallowed do_not does_not must_not may_not never_ever",
		},
		"de": {
			3:  "immer stets muss müssen musst unbedingt zwingend verpflichtend obligatorisch pflicht erforderlich jedes_mal",
			2:  "sollte sollten soll sollen empfohlen bevorzugt bevorzugen vorzugsweise lieber möglichst idealerweise empfehlenswert wünschenswert ratsam am_besten statt anstatt stattdessen anstelle normalerweise üblicherweise in_der_regel",
			1:  "kann können darf dürfen optional bei_bedarf falls_nötig wenn_nötig wenn_möglich soweit_möglich nach_möglichkeit im_zweifel gegebenenfalls ggf eventuell erlaubt akzeptabel zulässig",
			-1: "selten nicht_nötig nicht_erforderlich muss_nicht müssen_nicht braucht_nicht nicht_notwendig",
			-2: "vermeiden vermeide vermieden sollte_nicht sollten_nicht möglichst_nicht lieber_nicht",
			-3: "nie niemals keinesfalls nichts niemand nicht kein keine keinen keinem keiner keines verboten untersagt darf_nicht dürfen_nicht",
		},
		"fr": {
			3:  "toujours doit doivent devez obligatoire obligatoirement impérativement systématiquement",
			2:  "devrait devraient recommandé préférer préférez privilégier privilégie idéalement souhaitable conseillé préférable il_vaut_mieux mieux_vaut plutôt au_lieu_de généralement habituellement normalement en_général",
			1:  "peut peuvent pouvez peux facultatif optionnel si_possible autant_que_possible si_besoin au_besoin éventuellement de_préférence autorisé acceptable acceptables dans_la_mesure_du_possible",
			-1: "rarement pas_besoin pas_nécessaire pas_obligatoire",
			-2: "éviter évite évitez évité évitée évités évitées à_éviter essaie_de_ne_pas essayez_de_ne_pas",
			-3: "jamais ne_pas pas rien ni aucun aucune interdit ne_jamais",
		},
		"es": {
			3:  "siempre debe deben debes obligatorio obligatoria obligatoriamente",
			2:  "debería deberían recomendado preferible preferir prefiere preferiblemente idealmente conviene conveniente recomendable aconsejable deseable lo_ideal en_lugar_de en_vez_de normalmente generalmente habitualmente por_lo_general",
			1:  "puede pueden puedes opcional opcionalmente si_es_posible cuando_sea_posible si_hace_falta si_es_necesario cuando_convenga si_conviene de_preferencia permitido aceptable aceptables de_ser_posible en_lo_posible",
			-1: "rara_vez raramente no_hace_falta no_es_necesario no_necesita",
			-2: "evita evitar evite evitado evitada evitados evitadas intenta_no procura_no",
			-3: "nunca jamás no ni nada nadie ningún ninguna ninguno prohibido",
		},
		"pt": {
			3:  "sempre deve devem obrigatório obrigatória obrigatoriamente",
			2:  "deveria deveriam recomendado preferir prefira preferencialmente de_preferência idealmente desejável recomendável aconselhável preferível convém conveniente em_vez_de ao_invés_de normalmente geralmente em_geral",
			1:  "pode podem opcional opcionalmente se_possível quando_possível sempre_que_possível se_necessário permitido aceitável aceitáveis",
			-1: "raramente não_precisa não_é_necessário",
			-2: "evite evitar evitado evitada evitados evitadas tente_não procure_não",
			-3: "nunca jamais não nem nada ninguém nenhum nenhuma proibido",
		},
		"zh": {
			3:  "必须 务必 一定要 始终 总是 每次 不得不 强制",
			2:  "应该 应当 建议 推荐 优先 尽量 尽可能 最好 理想情况下 首选 通常",
			1:  "可以 可选 可以选择 必要时 如有需要 视情况 允许 可能的话",
			-1: "很少 尽量少 不必 无需 无须 不需要 不用",
			-2: "避免 尽量不要 不建议",
			-3: "永远不要 永远不 绝不 从不 决不 永不 不要 不能 不得 不可 不准 不许 禁止 严禁 切勿 请勿 勿 不",
		},
		"ja": {
			3:  "必ず 常に 必須 なければならない なければいけない なくてはならない ないといけない ねばならない 絶対に",
			2:  "べき 推奨 望ましい 方がよい 方が良い 方がいい ほうがよい ほうが良い ほうがいい 理想的には おすすめ お勧め 優先 通常",
			1:  "できれば 可能であれば 可能な場合 可能な限り 必要に応じて 構いません 構わない てもよい てもいい 任意 なるべく",
			-1: "めったに 必要はない 必要ありません",
			// 不要 in a Japanese rule ("説明不要", "…は不要") leaves the thing out, as 避ける does
			-2: "避ける 避け 控える 不要",
			-3: "しないで しない ないで ません せず ずに するな 禁止 だめ ダメ ない",
		},
		"ko": {
			3:  "항상 반드시 필수 꼭 해야 무조건 절대로",
			2:  "권장 권고 바람직 이상적으로 우선 가급적 되도록 보통 일반적으로 대개",
			1:  "가능하면 필요하면 필요시 필요_시 선택적 해도_됨 해도_된다 허용 될_수_있으면",
			-1: "드물게 필요_없 필요없",
			-2: "피하기 피하다 피할 지양",
			-3: "안 절대 금지 않기 않는다 않음 않고 말_것 말고 마세요 안_됨 안된다 하지_마",
		},
		"ru": {
			3:  "всегда обязательно обязателен должен должна должно должны нужно надо необходимо",
			2:  "следует желательно желателен рекомендуется рекомендуем советуем лучше в_идеале предпочтительно предпочитайте обычно как_правило",
			1:  "можно может могут допустимо разрешено при_необходимости по_возможности если_возможно старайся старайтесь допустимы приемлемо по_мере_возможности",
			-1: "редко не_нужно не_надо не_обязательно необязательно",
			-2: "избегай избегайте избегать старайся_не старайтесь_не лучше_не",
			-3: "никогда не нельзя запрещено запрещается ни ничего никто нигде никаких никакие никакой никакого ни_в_коем_случае",
		},
	}
})

// Condition kinds: what a condition word does to the rule of its clause.
const (
	condIf     = "if"     // if, when, in case: the rule holds under a circumstance
	condOnly   = "only"   // only, solely: the rule is restricted to a case
	condExcept = "except" // unless, except: a case is taken out of the rule
	condScope  = "scope"  // for X, für X, для X, 在X后, a Korean "X에": the cases the rule is for
)

// scopeText are the prepositions that, opening a rule's clause (or the text after its label's
// colon), say what the rule is for: "For database migrations, run ...", "Для изменений схемы
// запускайте ...". The phrase is a condition of the rule (condScope).
var scopeText = "for during für während pour pendant durant lors para durante для"

// scopeNotText are the words that, first after a scope preposition, make it no scope: a pointer
// to more ("For more details, see ..."), an example, or the project the whole file is about ("For
// this repository, ...").
var scopeNotText = "example instance details detail information info more reference now short simplicity " +
	"project projects repo repository repositories codebase " +
	"beispiel details informationen mehr projekt repository " +
	"exemple plus détails informations projet dépôt " +
	"ejemplo más detalles información proyecto repositorio " +
	"exemplo mais detalhes informações projeto repositório " +
	"примера подробностей подробнее информации проекта репозитория"

// scopeAllText are the words of a scope that widen it to every case ("for all packages"): a
// scope that gains or loses one is widened or narrowed.
var scopeAllText = allText + " 모든 전체 所有 全部 すべて 全て"

// hangulScopeEnds are the particles ending a Korean scope phrase at a rule's start ("공개 API에
// 예제 테스트 작성": for the public API), longest first.
var hangulScopeEnds = []string{"에서는", "에서", "에는", "에"}

// condText gives, per language, the words that open or mark a condition of each kind.
var condText = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		"en": {
			condIf:     "if when whenever in_case provided as_long_as before after",
			condOnly:   "only solely exclusively",
			condExcept: "unless except excluding other_than apart_from but_not",
		},
		"de": {
			condIf:     "wenn falls sofern sobald solange bei bevor nachdem",
			condOnly:   "nur ausschließlich lediglich",
			condExcept: "außer ausgenommen es_sei_denn abgesehen_von",
		},
		"fr": {
			condIf:     "si lorsque quand dès_que dès_qu'une pourvu_que avant après",
			condOnly:   "seulement uniquement ne_que",
			condExcept: "sauf excepté hormis à_moins_que à_moins",
		},
		"es": {
			condIf:     "si cuando siempre_que mientras_que en_caso_de antes_de después_de",
			condOnly:   "solo sólo solamente únicamente",
			condExcept: "salvo excepto a_menos_que menos_que",
		},
		"pt": {
			condIf:     "se quando sempre_que caso antes_de depois_de",
			condOnly:   "somente apenas só unicamente",
			condExcept: "exceto salvo a_menos_que",
		},
		"zh": {
			condIf:     "如果 若 如需 假如 的时候 一旦",
			condOnly:   "只有 只能 仅限 仅仅 唯一 只 仅",
			condExcept: "除非 除了 除外 否则",
		},
		"ja": {
			condIf:     "場合 なら たら れば とき 時 際",
			condOnly:   "のみ だけ しか 限り 限る 限定",
			condExcept: "以外 除き 除いて 除く ただし",
		},
		"ko": {
			condIf:     "경우 때 시",
			condOnly:   "만 에만 에서만 때만 경우만",
			condExcept: "제외 예외 외에는 단",
		},
		"ru": {
			condIf:     "если когда пока при перед после",
			condOnly:   "только лишь исключительно",
			condExcept: "кроме исключением если_только_не",
		},
	}
})

// Sequence marks: a clause's place in a sequence the text states.
const (
	seqFirst = 0 // first, zuerst, 先, まず
	seqThen  = 1 // then, dann, 然后, 次に
	seqLast  = 2 // finally, zuletzt, 最后
)

// seqText gives, per language, the words that place a clause first, next or last in a sequence,
// and the leads ("Order:", "Порядок:") after which a list of items is a sequence.
var seqText = sync.OnceValue(func() map[string]map[int]string {
	return map[string]map[int]string{
		"en": {seqFirst: "first firstly to_begin", seqThen: "then next afterwards subsequently", seqLast: "finally lastly last"},
		"de": {seqFirst: "zuerst erst zunächst", seqThen: "dann danach anschließend", seqLast: "zuletzt schließlich"},
		"fr": {seqFirst: "d'abord premièrement", seqThen: "ensuite puis après_quoi", seqLast: "enfin finalement"},
		"es": {seqFirst: "primero", seqThen: "luego después a_continuación", seqLast: "finalmente"},
		"pt": {seqFirst: "primeiro", seqThen: "depois em_seguida então", seqLast: "finalmente"},
		"zh": {seqFirst: "首先 先", seqThen: "然后 再 接着 之后", seqLast: "最后"},
		"ja": {seqFirst: "まず 最初に 先に", seqThen: "次に その後 それから てから", seqLast: "最後に"},
		"ko": {seqFirst: "먼저 우선", seqThen: "다음 그다음 그_다음 이후", seqLast: "마지막으로"},
		"ru": {seqFirst: "сначала сперва", seqThen: "затем потом далее после_этого", seqLast: "наконец"},
	}
})

// withoutText are the words that leave out what they govern ("…, without `Co-Authored-By`",
// "ohne", "без"): a clause saying one keeps a prohibition merged into it ("No X" and "Do Y"
// said "Do Y without X"), though it is no rule of its own (a paraphrase of "without asking"
// needs no rule word). The scope reader reads the same words as a "without …" exception: the
// words after one name the case a prohibition lets through.
var withoutText = "without ohne sans sin sem без 없이"

// genericActText are the words that name no particular action, only acting at all ("before
// acting", "bevor du loslegst", "avant de commencer", "antes de hacer nada", "перед тем как
// действовать"), and beforeText the condition words such a before-condition opens with: a
// rule done "before acting" is done first, so "first" (zuerst, d'abord, primero, сначала)
// keeps it. Chinese, Japanese and Korean say "before" as an order word, no condition, and need
// no entry.
var (
	genericActText = "act acting action actions proceed proceeding anything something doing do start starting begin beginning " +
		"continue continuing you any " +
		"handeln handelst handelt loslegen loslegst fortfahren fortfährst weitermachen beginnen beginnst anfangen anfängst " +
		"starten startest etwas irgendetwas tun tust du ihr " +
		"agir procéder commencer continuer faire quoi_que_ce_soit quoi ce soit toute action " +
		"actuar proceder empezar comenzar continuar hacer nada cualquier acción " +
		"agir prosseguir começar iniciar continuar fazer nada qualquer ação " +
		"действовать действиями действий приступать приступить начинать начать продолжать продолжить что-либо тем как"
	beforeText = "before bevor avant antes перед прежде"
)

// chainText are the words that, said twice or more in one clause, chain its items in order: "docs
// before the CLI before the server", "Staging vor Canary vor Produktion", "format then lint then
// commit".
var chainText = "before then over vor dann avant puis antes luego depois перед затем потом"

// seqLeadText are the words that, ending in a colon, announce an ordered list of items.
var seqLeadText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "order priority precedence sequence steps",
		"de": "reihenfolge priorität",
		"fr": "ordre priorité",
		"es": "orden prioridad",
		"pt": "ordem prioridade",
		"zh": "顺序 优先级",
		"ja": "順序 順番 優先順位",
		"ko": "순서 우선순위",
		"ru": "порядок приоритет очерёдность",
	}
})

// prefText gives, per language, the words joining a preference's two sides, with the side they
// choose: +1 when the first side is chosen ("A over B", "A statt B", "A 而不是 B"), -1 when the
// second is ("deprecated in favor of B", "A ではなく B", "A보다 B").
var prefText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "over=1 rather_than=1 instead_of=1 than=1 vs=1 versus=1 in_favor_of=-1 in_favour_of=-1",
		"de": "statt=1 anstatt=1 anstelle_von=1 lieber_als=1 vor=1 gegenüber=1",
		"fr": "plutôt_que=1 au_lieu_de=1 plutôt_qu'à=1",
		"es": "sobre=1 en_lugar_de=1 en_vez_de=1 antes_que=1",
		"pt": "sobre=1 em_vez_de=1 ao_invés_de=1 em_lugar_de=1",
		"ru": "вместо=1 а_не=1",
		"zh": "而不是=1 而非=1 优先于=1 胜过=1 代替=1",
		"ja": "ではなく=-1 じゃなく=-1 よりも=-1 より=-1 の代わりに=-1",
		"ko": "보다=-1 보다는=-1 대신=-1",
	}
})

// listNegText are the words that negate each item of a list (ни ... ни ..., neither ... nor):
// an item the list carries on without the word stays negated.
var listNegText = "ни nor ni nem"

// portugueseText are the words that mark a sentence as Portuguese among the nine languages (with
// any word holding ã or õ, see portugueseWord): function words Spanish, English and the others
// do not write. In a Portuguese sentence "no" is "em o" (in the), never a negation, which is "não".
var portugueseText = "é em um uma ao aos à às pelo pela pelos pelas num numa você vocês também está após até já só nós com"

// portugueseNotRule are the words of the modality lexicon that a Portuguese sentence writes
// as something else: "no" (in the), a negation in English and Spanish.
var portugueseNotRule = "no"

// reasonText are the words that open a clause giving a reason or a purpose ("so the docs always
// describe ...", "damit", "чтобы"): a new clause, and a rationale rather than a rule.
var reasonText = "so because since so_that whereas donc car parce puisque afin damit weil denn sodass porque pues " +
	"para_que portanto pois чтобы потому поэтому 因为 所以 以便 从而 때문에"

// quantityText are the vague quantities that, before a unit, state an amount in words ("several
// hours", "quelques minutes", 几个小时): a value of that unit.
var quantityText = "several few many multiple couple mehrere einige paar wenige viele plusieurs quelques varias varios " +
	"unos unas pocos pocas muchas muchos várias vários alguns algumas poucos poucas muitas muitos несколько много пару"

// antonymText gives, per language, word pairs whose exchange reverses a clause: "a|b", or
// "a|b|order" when the pair is about sequence (before/after), reported as a changed order.
var antonymText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "before|after|order first|last|order top|bottom|order earlier|later|order above|below|order highest|lowest|order " +
			"manual|automatic manually|automatically enable|disable enabled|disabled include|exclude including|excluding " +
			"more|less most|least maximum|minimum max|min faster|slower fast|slow higher|lower increase|decrease " +
			"relative|absolute public|private internal|external local|remote synchronous|asynchronous sync|async " +
			"success|failure on|off true|false add|remove same|different upper|lower uppercase|lowercase " +
			"ascending|descending inclusive|exclusive required|optional many|few single|double with|without precedence|equal shared|dedicated " +
			"keep|translate unchanged|translated deprecated|supported deprecated|recommended allowed|forbidden",
		"de": "vor|nach|order vorher|nachher|order bevor|nachdem|order zuerst|zuletzt|order oben|unten|order früh|spät|order " +
			"höchste|niedrigste|order erste|letzte|order " +
			"manuell|automatisch aktiviert|deaktiviert mehr|weniger schneller|langsamer schnell|langsam " +
			"relativ|absolut öffentlich|privat intern|extern lokal|remote synchron|asynchron erlaubt|verboten " +
			"viele|wenige mit|ohne vorrang|gleichrangig gemeinsam|eigen pflicht|optional verpflichtend|optional " +
			"beibehalten|übersetzen unverändert|übersetzt veraltet|empfohlen",
		"fr": "avant|après|order haut|bas|order premier|dernier|order manuel|automatique manuellement|automatiquement " +
			"activé|désactivé plus|moins rapide|lent relatif|absolu public|privé interne|externe local|distant " +
			"court|long courte|longue avec|sans obligatoire|facultatif obligatoires|facultatives obligatoire|facultative " +
			"conserver|traduire inchangé|traduit obsolète|recommandé autorisé|interdit",
		"es": "antes|después|order primero|último|order arriba|abajo|order manual|automático " +
			"manualmente|automáticamente activado|desactivado más|menos rápido|lento relativo|absoluto " +
			"público|privado interno|externo local|remoto permitidos|prohibidos permitido|prohibido con|sin obligatorio|opcional obligatorios|opcionales " +
			"mantener|traducir obsoleto|recomendado",
		"pt": "antes|depois|order primeiras|últimas|order primeiros|últimos|order primeira|última|order " +
			"primeiro|último|order manual|automático mais|menos rápido|lento relativo|absoluto público|privado " +
			"interno|externo local|remoto ativado|desativado com|sem obrigatório|opcional obrigatórios|opcionais antes|após|order " +
			"manter|traduzir obsoleto|recomendado permitido|proibido",
		"zh": "之前|之后|order 以前|以后|order 前|后|order 先|后|order 上|下 相对|绝对 详细|简略 开|关 多|少 " +
			"快|慢 早|晚 大|小 增|减 内|外 公开|私有 手动|自动 通用|专用 优先|同等 废弃|可使用 废弃|可用 弃用|可使用 弃用|可用 废弃|推荐",
		"ja": "前|後|order 先|後|order 上|下 オン|オフ 多|少 長|短 高|低 早|遅 手動|自動 有効|無効 相対|絶対 共通|専用 優先|同等 待つ|そのまま 待って|そのまま 廃止|推奨",
		"ko": "전|후|order 이전|이후|order 먼저|나중|order 위|아래|order 앞|뒤|order 첫|마지막|order 많|적 켜|끄 상대|절대 " +
			"수동|자동 허용|금지 포함|없이 있|없 공통|전용 우선|동등",
		"ru": "до|после|order прежде|после|order перед|после|order сначала|потом|order первый|последний|order верх|низ|order много|мало " +
			"больше|меньше быстрее|медленнее вручную|автоматически включен|выключен относит|абсолют " +
			"внутрен|внешн локальн|удалён с|без обязательно|опционально обязательн|опциональн",
	}
})

// qualifierText gives, per language, the words that bound the number after them, with the
// bound they state: "at most 2" is ≤2, as "≤ 2" is, and differs from 2. qualifierAfterText are
// the bounds written after a number and its unit (4行以内, 2단계 이하). Words that also mean
// "until" or "before" (bis, до, hasta, até) are left out.
var (
	qualifierText = sync.OnceValue(func() map[string]string {
		return map[string]string{
			"en": "at_most=≤ up_to=≤ no_more_than=≤ not_more_than=≤ maximum=≤ max=≤ under=< below=< less_than=< fewer_than=< " +
				"at_least=≥ minimum=≥ min=≥ no_less_than=≥ no_fewer_than=≥ more_than=> over=> above=>",
			"de": "höchstens=≤ maximal=≤ bis_zu=≤ unter=< weniger_als=< mindestens=≥ wenigstens=≥ minimal=≥ über=> mehr_als=>",
			"fr": "au_plus=≤ au_maximum=≤ maximum=≤ minimum=≥ jusqu'à=≤ moins_de=< au_moins=≥ au_minimum=≥ plus_de=>",
			"es": "como_máximo=≤ máximo=≤ mínimo=≥ menos_de=< al_menos=≥ por_lo_menos=≥ como_mínimo=≥ más_de=>",
			"pt": "no_máximo=≤ máximo=≤ mínimo=≥ menos_de=< pelo_menos=≥ ao_menos=≥ no_mínimo=≥ mais_de=>",
			"ru": "не_более=≤ не_больше=≤ максимум=≤ менее=< меньше=< не_менее=≥ не_меньше=≥ минимум=≥ хотя_бы=≥ как_минимум=≥ по_крайней_мере=≥ от=≥ более=> больше=>",
			"ko": "최대=≤ 최소=≥ 적어도=≥",
			"zh": "最多=≤ 至多=≤ 不超过=≤ 不多于=≤ 至少=≥ 最少=≥ 不少于=≥ 超过=> 多于=> 少于=<",
			"ja": "最大=≤ 最小=≥ 最低=≥ 少なくとも=≥",
		}
	})
	qualifierAfterText = "以内=≤ 以下=≤ 以上=≥ 未満=< 以内に=≤ 이내=≤ 이하=≤ 이상=≥ 미만=< 초과=>"
)

// numberText maps number and frequency words to the value they state; a frequency ("once",
// "twice", 一次) is a count of times, "1x". Words that are also an article (ein, un, une, uno, um)
// are left out: they would turn every article into a number.
var numberText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "one=1 two=2 three=3 four=4 five=5 six=6 seven=7 eight=8 nine=9 ten=10 twelve=12 twenty=20 hundred=100 " +
			"twice=2x thrice=3x",
		"de": "zwei=2 drei=3 vier=4 fünf=5 sechs=6 sieben=7 acht=8 neun=9 zehn=10 zwölf=12 zwanzig=20 hundert=100 " +
			"einmal=1x zweimal=2x dreimal=3x",
		"fr": "deux=2 trois=3 quatre=4 cinq=5 six=6 sept=7 huit=8 neuf=9 dix=10 douze=12 vingt=20 cent=100 " +
			"une_fois=1x deux_fois=2x trois_fois=3x",
		"es": "dos=2 tres=3 cuatro=4 cinco=5 seis=6 siete=7 ocho=8 nueve=9 diez=10 doce=12 veinte=20 cien=100 " +
			"una_vez=1x dos_veces=2x tres_veces=3x",
		"pt": "dois=2 duas=2 três=3 quatro=4 cinco=5 seis=6 sete=7 oito=8 nove=9 dez=10 doze=12 vinte=20 cem=100 " +
			"uma_vez=1x duas_vezes=2x três_vezes=3x",
		"ru": "один=1 одна=1 одно=1 два=2 две=2 три=3 четыре=4 пять=5 шесть=6 семь=7 восемь=8 девять=9 десять=10 " +
			"двадцать=20 сто=100 один_раз=1x однажды=1x два_раза=2x дважды=2x три_раза=3x трижды=3x",
		"ko": "하나=1 둘=2 셋=3 넷=4 다섯=5 한_번=1x 두_번=2x 세_번=3x",
		"zh": "一个=1 两个=2 三个=3 四个=4 五个=5 一次=1x 两次=2x 三次=3x 一种=1 两种=2",
		"ja": "一つ=1 二つ=2 三つ=3 一度=1x 二度=2x 一回=1x 二回=2x",
	}
})

// unitText maps unit words of each language to the normal unit of numbers.
var unitText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"de": "sekunde=s sekunden=s minute=min minuten=min stunde=h stunden=h tag=d tage=d tagen=d woche=w wochen=w prozent=%",
		"fr": "seconde=s secondes=s heure=h heures=h jour=d jours=d semaine=w semaines=w pourcent=% lignes=line ligne=line",
		"es": "segundo=s segundos=s minuto=min minutos=min hora=h horas=h día=d días=d semana=w semanas=w líneas=line",
		"pt": "segundo=s segundos=s minuto=min minutos=min hora=h horas=h dia=d dias=d semana=w semanas=w linhas=line",
		"ru": "сек=s секунд=s секунда=s секунды=s секунду=s мин=min минут=min минута=min минуты=min минуту=min час=h часа=h часов=h неделю=w недели=w " +
			"дней=d дня=d день=d мс=ms строк=line строки=line",
		"zh": "毫秒=ms 秒=s 秒钟=s 分钟=min 小时=h 天=d 周=w 行=line",
		"ja": "ミリ秒=ms 秒=s 分=min 分間=min 時間=h 日=d 週間=w 行=line",
		"ko": "밀리초=ms 초=s 분=min 시간=h 일=d 주=w 줄=line",
	}
})

// langNameText gives each language's names for languages, as forms (or, in Russian and Korean,
// stems that inflected forms start with) of one canonical name: "Englisch", "inglés", 英文 and
// "по-английски" are all English.
var langNameText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"english":    "english englisch anglais inglés ingles inglês 英文 英语 英語 영어 англий",
		"german":     "german deutsch allemand alemán alemão 德语 德文 ドイツ語 독일어 немец",
		"french":     "french französisch français francés francês 法语 法文 フランス語 프랑스어 француз",
		"spanish":    "spanish spanisch espagnol español espanhol 西班牙语 スペイン語 스페인어 испан",
		"portuguese": "portuguese portugiesisch portugais portugués português 葡萄牙语 ポルトガル語 포르투갈어 португал",
		"chinese":    "chinese chinesisch chinois chino chinês 中文 汉语 漢語 简体中文 繁体中文 繁體中文 中国語 중국어 китай",
		"japanese":   "japanese japanisch japonais japonés japonês 日文 日语 日本語 일본어 япон",
		"korean":     "korean koreanisch coréen coreano 韩文 韩语 韓国語 한국어 корей",
		"russian":    "russian russisch russe ruso russo 俄语 ロシア語 러시아어 русск по-русски",
	}
})

// stopText2 are the function words of the eight languages other than English (English's are
// stopText): they carry no content, so alignment and rule words ignore them, and their count
// tells which language a sentence is in.
var stopText2 = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"de": "der die das den dem des ein eine einen einem einer und oder aber auch als am an auf aus bei bis da dass " +
			"durch für gegen hat haben ich im in ist mit noch ob sich sie sind so über um unter vom von " +
			"wie wir wird werden zu zum zur es er du man alle alles diese dieser dieses sein seine",
		"fr": "le la les l un une des du de d et ou mais donc car ce cet cette ces à au aux dans par pour sur avec " +
			"sans qui que qu quoi dont est sont être a ont il elle ils elles on tu te ton ta tes vous nous se sa son " +
			"ses leur leurs en y ne ça c s",
		"es": "el la los las lo un una unos unas y o pero de del al a en con por para sin sobre entre es son ser " +
			"está están se su sus que quien cual como este esta estos estas ese esa eso hay le les me te tu mi",
		"pt": "o a os as um uma uns umas e ou mas de do da dos das ao aos à às em no na nos nas com por para sem " +
			"sobre é são ser está estão se seu sua seus suas que como este esta isso esse essa há lhe",
		"ru": "и в во на с со к ко по о об от до из у за для что это как а но или же ли то так его её их он она оно " +
			"они мы вы ты я есть был была были быть при без над под между чтобы через",
		"ko": "및 또는 그리고 등 이 그 저 것 수 있다 없다 한다 하는 있는 위한 통해 대한",
		"zh": "",
		"ja": "",
		"en": "",
	}
})

// German capitalises every noun, so a capitalised word in mid-sentence is a name in the other
// Latin-script languages but usually a noun in German. germanMarkText are words that tell a
// German sentence; germanArticleText the determiners a noun follows ("die Datenbank", "einem
// natürlichen Pausenpunkt"); germanNounEndText the endings of German nouns and the heads of
// the compounds instruction files are full of (Zeitpunkt, Teilschritts, Datenbank). A capitalised
// word of a German sentence with one of them, or with an umlaut, is a noun, not a name; one
// without ("mit Docker", "Exponential Backoff") stays a name.
var (
	germanMarkText = "der die das den dem ein eine einen einem einer eines und oder aber auch auf aus bei bis dass " +
		"durch für gegen hat haben ist mit noch sich sind über vom von wie wir wird werden zu zum zur nicht nur " +
		"kein keine immer bitte sowie wenn falls nach"
	germanArticleText = "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner " +
		"keines jede jeder jedes jeden jedem diese dieser dieses diesen diesem alle allen aller beide beiden " +
		"mein meine dein deine sein seine seinen ihr ihre ihren unser unsere euer eure welche welcher welches " +
		"zum zur im am vom beim ins"
	germanNounEndText = "ung ungen heit heiten keit keiten schaft tion tionen tät täten nis nisse ismus ling chen " +
		"lein erei ität ur enz anz datei dateien daten bank punkt schritt schritte schritts zeit satz weise teil " +
		"stelle stellen wert werte fall fälle lauf weg feld bild name namen liste seite text zahl frage regel " +
		"regeln fehler prüfung ordner pfad verzeichnis befehl befehle ausgabe eingabe aufgabe aufgaben abschluss " +
		"anfang ende kontext sitzung änderung"
)

// oppositeActionText gives, per language, pairs of opposite actions on one object (fix|ignore,
// keep|delete, ask|guess): "X, not anti-X" says X twice, so the negated half may go while X
// stays ("sofort fixen, nicht ignorieren" said "sofort fixen"). A side lists the word's forms
// by the prefix they start with, "/" between alternatives; Chinese and Japanese entries are
// matched inside a run of text.
func oppositeActionText() map[string]string {
	return map[string]string{
		"en": "fix/repair/resolv/address/handl|ignor/skip/suppress/silenc/disabl keep/preserv/retain|delet/remov/drop/discard/overwrit " +
			"ask/verif/check/confirm|guess/assum run/execut|skip report/surfac/rais/throw/propagat|hid/swallow/suppress reus/extend|duplicat/reimplement/rewrit",
		"de": "fix/beheb/korrigier/reparier|ignorier/übersprin/unterdrück/deaktivier behalt/bewahr/erhalt|lösch/entfern/verwerf/überschreib " +
			"frag/prüf/verifizier/bestätig|rate/errat/annehm/vermut ausführ/ausfuhr|übersprin",
		"fr": "corrig/répar/résou/résol|ignor/masqu/désactiv/saut conserv/gard/préserv|supprim/effac/écras " +
			"demand/vérifi/confirm|devin/suppos exécut/lanc|saut/ignor",
		"es": "corrig/corrij/arregl/repar/resolv/resuelv|ignor/omit/salt/desactiv manten/mantien/conserv/preserv/guard|elimin/borr/quit/descart/sobrescrib " +
			"pregunt/verific/comprob/confirm|adivin/asum/supon ejecut|omit/salt",
		"pt": "corrig/corrij/consert/repar/resolv|ignor/omit/pul/desativ mant/conserv/preserv/guard|apag/remov/exclu/descart/sobrescrev " +
			"pergunt/verific/verifiq/confirm|adivinh/assum/supon execut/rod|pul/omit",
		"ru": "исправ/чин|игнор/пропуск/пропуст/отключ/подавл сохран/оставл/оставь|удал/стир/перезапис " +
			"спрашив/спроси/уточн/провер|угады/угад/предпол запуск/выполн|пропуск/пропуст",
		"zh": "修复/修正/解决/处理|忽略/跳过/屏蔽/禁用 保留|删除/移除/覆盖 询问/确认/核实/验证|猜测/假设/臆测 运行/执行|跳过",
		"ja": "修正/対処/解決|無視/スキップ/無効化 残す/残し/保持/維持|削除/上書き 確認/質問/検証|推測/憶測/仮定 実行|スキップ/省略",
		"ko": "수정/고치/고쳐/해결/처리|무시/생략/건너 유지/보존/보관|삭제/제거/덮어 확인/질문/검증|추측/가정 실행|생략/건너",
	}
}
