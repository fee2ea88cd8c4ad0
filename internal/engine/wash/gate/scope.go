package gate

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// Scopes and conditions said by a plain phrase. The phrase a rule applies to is part of the
// rule: "for new files", "für kritische User-Flows", "em produção", 所有公共 API. A scope word
// added, removed or exchanged there widens or narrows the rule ("for new files" → "for all
// files", "any task" → "large tasks", 所有公共 API → 所有 API, "in production" → "in
// development"), and so does a rule's leading phrase dropped ("For behavioural changes, run …",
// "Для …", 在获批后) or a "without …" exception of a prohibition ("never `as any` without a
// justification"). None of these carries a condition word the lexicon of langs.go knows; this
// pass reads them from the tables below, which are data with a test per entry
// (TestScopeEntries). A rewording that keeps the scope passes: the phrase moved from the front
// to the end, rules merged under it, "every" said as "all", filler dropped.

// scopeQuantText are the universal quantifiers per language: a rule said of all of something. An
// entry ending in "*" matches the words it starts (inflected forms); in Chinese and Japanese an
// entry is matched inside a run of text.
var scopeQuantText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "all every each any entire whole anytime any_time at_any_time everywhere",
		"de": "alle allen aller alles jede jeden jeder jedes jedem gesamt* ganze ganzen sämtliche* jederzeit überall",
		"fr": "tous toutes tout toute chaque entier entière n'importe_quel n'importe_quelle partout",
		"es": "todo todos toda todas cada cualquier cualquiera entero entera",
		"pt": "todo todos toda todas cada qualquer quaisquer inteiro inteira",
		"ru": "все всех всем всеми весь всего вся всю всё любой любая любое любые любых любом каждый каждая каждое каждые каждого везде",
		"zh": "所有 全部 任何 一切 每个 每一 随时 任意 整个",
		"ja": "全て すべて 全部 全体 あらゆる いつでも どんな",
		"ko": "모든 모두 전체* 전부 언제든* 어떤_경우든",
	}
})

// scopeQualText are the qualifiers that narrow what a rule applies to, by concept, the forms of
// each language in one string ("*" as in scopeQuantText; Korean forms match the words they start).
var scopeQualText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"new":       "new newly neu neue neuen neuer neues nouveau nouvel nouvelle nouveaux nouvelles nuevo nueva nuevos nuevas novo nova novos novas нов* 新規 新しい 新增 新建 新 새 신규*",
		"critical":  "critical kritisch* critique critiques crític* критичн* критическ* 关键 クリティカル 핵심*",
		"public":    "public publicly öffentlich* publique publiques públic* публичн* 公共 公开 公開 공개*",
		"private":   "private internal privat* intern* privée privé interne* privad* interno* интерн* приватн* 私有 内部 非公開 비공개* 내부*",
		"complex":   "complex complicated komplex* kompliziert* complexe* complej* complicad* complex* сложн* 复杂 複雑 복잡*",
		"large":     "large big giant huge enormous massive major large-scale groß* grosse* umfangreich* gros grosse grand grande grandes grands mayor* больш* крупн* 大型 大规模 大き 大規模 대형* 큰 대규모*",
		"small":     "small minor tiny klein* petit* pequeñ* pequen* мелк* небольш* 小型 小规模 小さ 小規模 작은 소규모*",
		"specific":  "specific particular concrete spezifisch* bestimmt* konkret* spécifique* particulier* concret* específic* particular* concret* специфичн* определённ* определенн* конкретн* 特定 具体 특정*",
		"partial":   "partial partially partly teilweise partiell* partiellement partiel* parcial parcialmente частичн* 局部 部分的 一部 일부*",
		"technical": "technical technisch* technique techniques técnic* техническ* 技术性 技術的 기술적*",
		// a case the text before named ("in that case"): left out, the rule holds in every case
		"case": "in_this_case in_that_case in_such_cases in_which_case in_diesem_fall in_dem_fall in_solchen_fällen dans_ce_cas dans_ces_cas " +
			"en_ese_caso en_este_caso en_tal_caso en_esos_casos nesse_caso neste_caso em_tal_caso nesses_casos в_этом_случае в_таком_случае в_этих_случаях " +
			"这种情况下 此时 その場合 この場合",
		// the agent's own initiative: left out, the rule forbids what it allowed when asked
		"initiative": "on_your_own_initiative of_your_own_accord proactively unprompted von_sich_aus eigenmächtig* ungefragt de_ta_propre_initiative " +
			"de_votre_propre_initiative spontanément por_iniciativa_propia por_tu_cuenta por_iniciativa_própria por_conta_própria по_своей_инициативе самовольно " +
			"主动 擅自 自分から 勝手に 自発的に 임의로 마음대로",
		"trivial":  "trivial triviale trivialen triviaux trivia* тривиальн* 琐碎 些細 사소*",
		"existing": "existing bestehend* existant* existente* существующ* 现有 已有 既存 기존*",
		"selected": "selected relevant ausgewählt* relevant* sélectionné* pertinent* seleccionad* relevante* selecionad* выбранн* релевантн* 相关 该当 관련*",
	}
})

// scopeStrictText are the concepts of scopeQualText whose word left out alone widens the rule
// ("public APIs" said "APIs"); the others (new, large, complex) are often description, and
// count only when the result adds one or exchanges one for "all". A negated compound
// ("non-trivial", "nicht-kritisch") is always strict.
var scopeStrictText = "public private critical existing specific partial case initiative"

// scopeFamilyText are nouns that name one of a closed set (an environment, an event a step runs
// on): exchanging one for another of its family moves the rule ("in production" → "in
// development", "on release" → "on push"). Only an exchange counts: a noun of the family said
// or left out alone is a value of the statement, compared by its other passes.
var scopeFamilyText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"env:production":  "production prod produktion produktiv* producción produção produção продакшн* продакшен* прод 生产 本番 프로덕션* 운영*",
		"env:development": "development dev entwicklung* développement desarrollo desenvolvimento разработк* 开发环境 開発環境 개발*",
		"env:staging":     "staging stage-umgebung préproduction preproducción homologação стейджинг* 预发布 ステージング 스테이징*",
		"event:release":   "release releases releasing veröffentlichung* publication lanzamiento lançamento релиз* 发布 发版 リリース 릴리스* 릴리즈*",
		"event:push":      "push pushes pushing пуш* 推送 プッシュ 푸시*",
		"event:commit":    "commit commits committing коммит* 提交 コミット 커밋*",
		"event:merge":     "merge merges merging мерж* 合并 マージ 머지*",
		"event:deploy":    "deploy deploys deployment deployments déploiement despliegue implantação деплой* 部署 デプロイ 배포*",
	}
})

// scopeHedgeText are phrases that leave a rule to the case at hand ("where appropriate"): one
// exchanged for a word that says always or all binds the rule everywhere.
var scopeHedgeText = "where_appropriate where_applicable where_sensible where_it_makes_sense where_relevant " +
	"wo_passend wo_sinnvoll wo_nötig wo_angebracht wenn_sinnvoll falls_sinnvoll le_cas_échéant si_pertinent si_nécessaire " +
	"cuando_proceda cuando_corresponda donde_corresponda si_procede quando_aplicável quando_apropriado onde_fizer_sentido " +
	"где_уместно где_необходимо где_нужно по_ситуации 适当时 酌情 适用时 適宜 必要な箇所 적절히 적절한_경우"

// scopeJoinerText are the function words inside a noun phrase ("changes of the API"): a
// leading phrase goes on after them, and ends at any other.
var scopeJoinerText = "of the a an and or de del des du d' la le les el los las da do das dos von vom der den und oder y e et ou o и или"

// zhLeadOpen and zhLeadClose bound a Chinese leading phrase: 对于 … ，, 在没有 … 的情况下, 在 …
// 期间, 在 … 之后. (在 … 后, 时 and 前 are scopes the clause reader marks, condScope; it leaves
// 之后 and 之前 alone, sequence words of the lexicon.)
var (
	zhLeadOpen  = []string{"对于", "针对", "在"}
	zhLeadClose = []string{"的情况下", "情况下", "期间", "之后", "以后", "之前", "以前"}
)

// scopeEntry is one compiled form of a scope table.
type scopeEntry struct {
	form   string
	key    string
	prefix bool
}

// scopeLexicon is the compiled scope tables.
type scopeLexicon struct {
	words    map[string]string // exact form -> key ("all", a concept, a family member)
	prefixes []scopeEntry      // forms matching the words they start
	runs     []scopeEntry      // Chinese and Japanese forms, matched inside runs, longest first
	phrases  map[string]string // multi-word forms -> key
	hedges   map[string]bool
	hedgeRun []string
	without  map[string]bool
	joiner   map[string]bool
}

var scopeLex = sync.OnceValue(buildScopeLexicon)

func buildScopeLexicon() *scopeLexicon {
	x := &scopeLexicon{words: map[string]string{}, phrases: map[string]string{}, hedges: map[string]bool{},
		without: set(withoutText), joiner: set(scopeJoinerText)}
	for _, forms := range scopeQuantText() {
		x.addForms(forms, scopeAllKey)
	}
	for key, forms := range scopeQualText() {
		x.addForms(forms, key)
	}
	for key, forms := range scopeFamilyText() {
		x.addForms(forms, key)
	}
	for _, h := range strings.Fields(scopeHedgeText) {
		if r, _ := utf8.DecodeRuneInString(h); isCJK(r) {
			x.hedgeRun = append(x.hedgeRun, h)
			continue
		}
		x.hedges[phrase(h)] = true
	}
	longestScopeFirst(x.runs)
	return x
}

// scopeAllKey is the key of every universal quantifier: "every file" and "all files" are one
// scope.
const scopeAllKey = "all"

// addForms compiles one table string under key.
func (x *scopeLexicon) addForms(forms, key string) {
	for _, f := range strings.Fields(forms) {
		r, _ := utf8.DecodeRuneInString(f)
		switch {
		case isCJK(r):
			x.runs = append(x.runs, scopeEntry{form: f, key: key})
		case strings.Contains(f, "_"):
			x.phrases[phrase(f)] = key
		case strings.HasSuffix(f, "*"):
			x.prefixes = append(x.prefixes, scopeEntry{form: strings.TrimSuffix(f, "*"), key: key, prefix: true})
		default:
			x.words[f] = key
		}
	}
}

// longestScopeFirst sorts run entries longest first, so 全部 is read before 全 could be.
func longestScopeFirst(e []scopeEntry) {
	sort.SliceStable(e, func(i, j int) bool {
		if len(e[i].form) != len(e[j].form) {
			return len(e[i].form) > len(e[j].form)
		}
		return e[i].form < e[j].form
	})
}

// scopeMark is one scope word of a statement: its key, the word as written and the stem of the
// word it qualifies.
type scopeMark struct {
	key, word, head string
	compound        bool // the last part of a compound ("platform-specific")
	neg             bool // said in a prohibition ("never commit any secrets": emphasis)
	pronoun         bool // a distributive quantifier standing for a set named before ("each one")
}

// wordKey returns the scope key of a spaced-script word: a table form, a form it starts with,
// or, for a compound ("platform-specific", "nicht-kritischen"), its last part's, negated by a
// negating first part ("non-trivial" is the concept "non trivial").
func (x *scopeLexicon) wordKey(w string) string {
	k, _ := x.wordKeyOf(w)
	return k
}

// wordKeyOf is wordKey, also reporting a key read from a compound's last part.
func (x *scopeLexicon) wordKeyOf(w string) (string, bool) {
	if k, ok := x.words[w]; ok {
		return k, false
	}
	for _, e := range x.prefixes {
		if strings.HasPrefix(w, e.form) && utf8.RuneCountInString(w)-utf8.RuneCountInString(e.form) <= 5 {
			return e.key, false
		}
	}
	first, last, ok := cutLastHyphen(w)
	if !ok {
		return "", false
	}
	k := x.wordKey(last)
	if k == "" || k == scopeAllKey {
		return "", false
	}
	if smallSets().negPrefix[first] {
		return "non " + k, false
	}
	return k, true
}

func cutLastHyphen(w string) (string, string, bool) {
	i := strings.LastIndexByte(w, '-')
	if i <= 0 || i == len(w)-1 {
		return "", "", false
	}
	return w[:i], w[i+1:], true
}

// scopeMarks returns the scope words of clauses, each with the stem of the word it qualifies.
func scopeMarks(cls []clauseInfo) []scopeMark {
	x := scopeLex()
	var out []scopeMark
	for _, cl := range cls {
		for i := 0; i < len(cl.toks); i++ {
			t := cl.toks[i]
			switch t.kind {
			case tWord, tHangul:
				m, n := x.wordMark(cl.toks, i)
				if m.key != "" && !inPath(cl.text, m.word) {
					m.neg = cl.level <= -2
					out = append(out, m)
				}
				i += n - 1
			case tCJK:
				for _, m := range x.runMarks(cl.toks, i) {
					m.neg = cl.level <= -2
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// inPath reports a word the clause says only as part of a path or a link ("[a](new/old.md)"):
// no scope of a rule.
func inPath(text, word string) bool {
	low := strings.ToLower(text)
	for from := 0; ; {
		j := strings.Index(low[from:], word)
		if j < 0 {
			return true
		}
		at := from + j
		from = at + len(word)
		before, _ := utf8.DecodeLastRuneInString(low[:at])
		if !strings.ContainsRune("/._\\", before) && !pathAfter(low[from:]) {
			return false
		}
	}
}

// pathAfter reports text going on as a path: a slash, an underscore, or a dot before a letter
// ("new.md"; a full stop ends a sentence).
func pathAfter(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if r == '/' || r == '_' || r == '\\' {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[n:])
	return r == '.' && unicode.IsLetter(next)
}

// wordMark reads the scope word or phrase at toks[i]: its mark and its length in tokens.
func (x *scopeLexicon) wordMark(toks []ctok, i int) (scopeMark, int) {
	for n := 4; n >= 2; n-- {
		if p := wordsAt(toks, i, n); p != "" {
			if k, ok := x.phrases[p]; ok {
				return scopeMark{key: k, word: p, head: headAfter(toks, i+n, "")}, n
			}
		}
	}
	k, compound := x.wordKeyOf(toks[i].text)
	if k == "" {
		return scopeMark{}, 1
	}
	return scopeMark{key: k, word: toks[i].text, head: headAfter(toks, i+1, ""), compound: compound,
		pronoun: k == scopeAllKey && distributivePronoun(toks, i)}, 1
}

// wordsAt joins the n spaced-script words at toks[i], or "" when there are fewer.
func wordsAt(toks []ctok, i, n int) string {
	if i+n > len(toks) {
		return ""
	}
	ws := make([]string, n)
	for k := range n {
		t := toks[i+k]
		if t.kind != tWord && t.kind != tHangul {
			return ""
		}
		ws[k] = t.text
	}
	return strings.Join(ws, " ")
}

// headAfter returns the stem of the first content word from toks[i] on (rest, when not empty,
// is the remainder of a run of Chinese or Japanese the scope word was found in).
func headAfter(toks []ctok, i int, rest string) string {
	if rest != "" {
		if u := cjkUnits(strings.TrimLeft(rest, "の的な")); len(u) > 0 {
			return u[0]
		}
	}
	for ; i < len(toks); i++ {
		if st := clauseStems(toks[i : i+1]); len(st) > 0 {
			return st[0]
		}
	}
	return ""
}

// runMarks reads the scope words inside a run of Chinese or Japanese (and 全 as a prefix:
// 全プロジェクト, not 安全).
func (x *scopeLexicon) runMarks(toks []ctok, i int) []scopeMark {
	s := toks[i].text
	var out []scopeMark
	taken := make([]bool, len(s))
	for _, e := range x.runs {
		for from := 0; ; {
			j := strings.Index(s[from:], e.form)
			if j < 0 {
				break
			}
			at := from + j
			from = at + len(e.form)
			if taken[at] {
				continue
			}
			for k := at; k < from; k++ {
				taken[k] = true
			}
			out = append(out, scopeMark{key: e.key, word: e.form, head: headAfter(toks, i+1, s[from:])})
		}
	}
	if rest, ok := strings.CutPrefix(s, "全"); ok && katakanaFirst(rest) {
		out = append(out, scopeMark{key: scopeAllKey, word: "全", head: headAfter(toks, i+1, rest)})
	}
	return out
}

func katakanaFirst(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r >= 0x30a0 && r <= 0x30ff || unicode.Is(unicode.Han, r) && utf8.RuneCountInString(s) > 1
}

// scopeSet indexes marks by key.
func scopeSet(ms []scopeMark) map[string]scopeMark {
	out := map[string]scopeMark{}
	for _, m := range ms {
		if _, ok := out[m.key]; !ok {
			out[m.key] = m
		}
	}
	return out
}

// scopePass reports the scope and leading-phrase changes of statement s against its
// counterparts (uc are their clauses).
func (c *stmtCompare) scopePass(s, u *stmt, oc, uc []clauseInfo) {
	before := scopeSet(scopeMarks(oc))
	siblings := map[string]scopeMark{}
	for _, o2 := range c.mergedInto(u) {
		for k, m := range scopeSet(scopeMarks(c.o.clausesOf(o2))) {
			siblings[k] = m
		}
	}
	after := scopeSet(scopeMarks(uc))
	ustems := clauseStemsOf(uc)
	for _, note := range scopeChanges(before, siblings, withoutMeantAll(before, after, oc, ustems), ustems) {
		c.drop(Token{TypeCondition, "scope " + note.what}, s, u, note.text)
	}
	without := saysWithout(uc)
	for _, lead := range leadPhrases(oc) {
		if lead.without && without || leadKept(lead, ustems) {
			continue
		}
		c.drop(Token{TypeCondition, ruleKey(lead.cl)}, s, u, fmt.Sprintf("condition %q missing", lead.text))
	}
	if note := hedgeToAll(oc, uc, before, after); note != "" {
		c.drop(Token{TypeCondition, "scope " + note}, s, u, fmt.Sprintf("condition %q missing", note))
	}
	if s.kind == mdline.Heading {
		for _, q := range headingQualifiers(oc) {
			if !leadKept(q, ustems) {
				c.drop(Token{TypeCondition, "scope " + q.text}, s, u, fmt.Sprintf("scope %q of the section missing", q.text))
			}
		}
	}
}

// headingQualifiers returns the parenthesised names of a heading ("### 1. Commands (Windows)"):
// the scope of its section's rules, which the gate reads no names of in a title. Only a
// parenthesis of names (a capital letter in each word: Windows, macOS, CI) counts; "(quick
// reference)" is description.
func headingQualifiers(cls []clauseInfo) []leadPhrase {
	var out []leadPhrase
	for _, cl := range cls {
		inner, ok := strings.CutPrefix(strings.TrimSuffix(cl.text, ")"), "(")
		if !ok || !allNames(inner) {
			continue
		}
		if st := clauseStems(cl.toks); len(st) > 0 {
			out = append(out, leadPhrase{cl: cl, text: inner, stems: st})
		}
	}
	return out
}

// allNames reports text whose every word holds a capital letter.
func allNames(text string) bool {
	ws := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '/' })
	for _, w := range ws {
		if !strings.ContainsFunc(w, unicode.IsUpper) {
			return false
		}
	}
	return len(ws) > 0 && len(ws) <= 3
}

// scopeNote is one scope change: the scope phrase (a drop's approval value) and its message.
type scopeNote struct{ what, text string }

// scopeChanges compares the scope words of a statement (before; siblings are those of the other
// original statements merged with it) with its counterparts' (after).
func scopeChanges(before, siblings, after map[string]scopeMark, ustems []string) []scopeNote {
	var out []scopeNote
	for _, k := range slices.Sorted(maps.Keys(after)) {
		if m, ok := scopeAdded(k, before, siblings, after); ok {
			verb := "narrowed"
			if k == scopeAllKey {
				verb = "widened"
			}
			out = append(out, scopeNote{m.word, fmt.Sprintf("scope %s: %q added", verb, scopePhrase(m))})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(before)) {
		if _, ok := after[k]; ok || strings.Contains(k, ":") {
			continue
		}
		m := before[k]
		if k == scopeAllKey && (m.head == "" || headKept(m.head, ustems)) {
			continue // "run all the tests" said "run the tests"
		}
		if k != scopeAllKey && !strictScope(m) {
			continue
		}
		out = append(out, scopeNote{m.word, fmt.Sprintf("scope %q missing", scopePhrase(m))})
	}
	return out
}

// scopeAdded reports a scope word of the result the original (with the statements merged with
// it) did not say: "all", a strict qualifier, a family noun in place of another of its family,
// or a description word (new, large) in place of the original's "all" ("any task" said "large
// tasks"); a description word added alone ("a 10-line main" said "a tiny main") is none.
func scopeAdded(k string, before, siblings, after map[string]scopeMark) (scopeMark, bool) {
	_, had := before[k]
	_, had2 := siblings[k]
	m := after[k]
	switch {
	case had || had2:
		return m, false
	case strings.Contains(k, ":"):
		return m, exchanged(k, before, after)
	case k == scopeAllKey:
		return m, !m.neg // "never commit any secrets" forbids no more than "never commit secrets"
	case strictScope(m):
		return m, true
	}
	_, allBefore := before[scopeAllKey]
	_, allAfter := after[scopeAllKey]
	return m, allBefore && !allAfter
}

// strictScope reports a qualifier whose removal alone widens its rule (see scopeStrictText).
func strictScope(m scopeMark) bool {
	if strings.HasPrefix(m.key, "non ") {
		return true
	}
	return !m.compound && containsStr(strings.Fields(scopeStrictText), m.key)
}

// exchanged reports a family noun (an environment, an event) the result says in place of another
// of its family the original said.
func exchanged(k string, before, after map[string]scopeMark) bool {
	fam, _, _ := strings.Cut(k, ":")
	for b := range before {
		if _, ok := after[b]; !ok && strings.HasPrefix(b, fam+":") {
			return true
		}
	}
	return false
}

// scopePhrase is a mark with the word it qualifies, for a message.
func scopePhrase(m scopeMark) string {
	if m.head == "" || strings.HasPrefix(m.head, "`") {
		return m.word
	}
	return m.word + " " + m.head + "…"
}

func clauseStemsOf(cls []clauseInfo) []string {
	var out []string
	for _, cl := range cls {
		for _, s := range cl.stems {
			if !containsStr(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// leadPhrase is a rule's leading phrase: its clause, its text and its content stems.
type leadPhrase struct {
	cl      clauseInfo
	text    string
	stems   []string
	without bool // a "without …" exception
}

// leadPhrases returns the phrases of clauses that restrict their rule without a condition word
// of the lexicon: a "without …" phrase of a prohibition, and a Chinese 对于 … ， or 在 … 情况下
// phrase. (A leading "For …, " phrase is a condScope of the clause reader, see scopeMark.)
func leadPhrases(cls []clauseInfo) []leadPhrase {
	x := scopeLex()
	var out []leadPhrase
	neg := minLevel(cls) <= -2
	for _, cl := range cls {
		if neg {
			out = append(out, x.withoutPhrases(cl)...)
		}
		out = append(out, zhLeads(cl)...)
		out = append(out, valueScopes(cl)...)
		out = append(out, quantifiedWithPhrases(cl)...)
	}
	return out
}

// withoutPhrases reads the "without …" phrases of a clause.
func (x *scopeLexicon) withoutPhrases(cl clauseInfo) []leadPhrase {
	var out []leadPhrase
	for i, t := range cl.toks {
		if (t.kind == tWord || t.kind == tHangul) && x.without[t.text] {
			if lp, ok := phraseAfter(cl, i+1, 2); ok {
				lp.without = true
				out = append(out, lp)
			}
		}
	}
	return out
}

// scopeWordsMost is how many content stems a leading scope phrase has at most: the phrase a
// rule applies to, not the rule ("Для поведенческих изменений запустите …").
const scopeWordsMost = 3

// scopeWords returns the words of a scope phrase (condScope) from its tokens: its first
// content stems, up to the first function word after them that joins no noun phrase ("Für
// Datenbankänderungen ist ein Review nötig" is the scope Datenbankänderungen); a word of every
// case is compared by the scope's "all", not as a word ("для всех публичных методов" said "все
// публичные методы").
func scopeWords(toks []ctok) []string {
	lp, _ := phraseAfter(clauseInfo{toks: toks}, 0, scopeWordsMost)
	return lp.stems
}

// phraseAfter returns the phrase of the first most content stems of a clause from toks[i] on;
// a universal word in it is no content ("для всех публичных методов": its scope is compared by
// scopeChanges).
func phraseAfter(cl clauseInfo, i, most int) (leadPhrase, bool) {
	x := scopeLex()
	var stems, words []string
	for ; i < len(cl.toks) && len(stems) < most; i++ {
		if t := cl.toks[i]; (t.kind == tWord || t.kind == tHangul) && (x.wordKey(t.text) == scopeAllKey || slex().scopeAll[t.text]) {
			words = append(words, cl.toks[i].text)
			continue
		}
		st := clauseStems(cl.toks[i : i+1])
		if len(st) == 0 {
			if len(stems) == 0 || x.joiner[cl.toks[i].text] {
				continue
			}
			break // "Für Datenbankänderungen ist …": the phrase ends at the verb
		}
		stems = append(stems, st...)
		words = append(words, cl.toks[i].text)
	}
	if len(stems) == 0 {
		return leadPhrase{}, false
	}
	if len(stems) > most {
		stems = stems[:most]
	}
	return leadPhrase{cl: cl, text: strings.Join(words, " "), stems: stems}, true
}

// zhLeads reads the Chinese leading phrases of a clause: 在 X 后 (and 时, 前, 情况下), 对于 X.
func zhLeads(cl clauseInfo) []leadPhrase {
	var out []leadPhrase
	for _, t := range cl.toks {
		if t.kind != tCJK {
			continue
		}
		for _, open := range zhLeadOpen {
			at := strings.Index(t.text, open)
			if at < 0 {
				continue
			}
			inner, closer := zhLeadInner(t.text[at+len(open):], open != "在")
			if units := cjkUnits(inner); len(units) > 0 && !holdsModal(inner+closer) {
				out = append(out, leadPhrase{cl: cl, text: open + inner, stems: units[:min(len(units), 3)]})
			}
			break
		}
	}
	return out
}

// holdsModal reports a run of Chinese holding a modality entry (必要时: a hedge, read by the
// rules pass, not a leading phrase).
func holdsModal(s string) bool {
	for _, e := range slex().cjkModal {
		if e.lang == "zh" && strings.Contains(s, e.text) {
			return true
		}
	}
	return false
}

// zhLeadInner returns the words of a Chinese leading phrase up to its closing word, and that
// word; a 对于 phrase (toEnd) runs to the end of its clause.
func zhLeadInner(s string, toEnd bool) (inner, closer string) {
	if toEnd {
		return s, ""
	}
	best := -1
	for _, cl := range zhLeadClose {
		if j := strings.Index(s, cl); j > 0 && (best < 0 || j < best) && utf8.RuneCountInString(s[:j]) <= 14 {
			best, closer = j, cl
		}
	}
	if best < 0 {
		return "", ""
	}
	return s[:best], closer
}

// leadKept reports a leading phrase whose content the counterparts still say: half of its stems
// ("For simple, non-code changes" said "For non-code changes").
func leadKept(lp leadPhrase, ustems []string) bool {
	return 2*shared(lp.stems, ustems) >= len(lp.stems)
}

// saysWithout reports clauses saying a "without" word: a "without …" exception reworded
// ("without requesting additional permission" said "without asking again") is kept.
func saysWithout(cls []clauseInfo) bool {
	x := scopeLex()
	for _, cl := range cls {
		for _, t := range cl.toks {
			if (t.kind == tWord || t.kind == tHangul) && x.without[t.text] {
				return true
			}
		}
	}
	return false
}

// hedgeToAll reports a hedge that leaves the rule to the case ("wo passend") exchanged for a
// binding or universal word ("immer", "all"), or "" when there is none.
func hedgeToAll(oc, uc []clauseInfo, before, after map[string]scopeMark) string {
	h := scopeHedge(oc)
	if h == "" || scopeHedge(uc) != "" {
		return ""
	}
	_, allBefore := before[scopeAllKey]
	_, allAfter := after[scopeAllKey]
	if allAfter && !allBefore || saysAlways(uc) && !saysAlways(oc) {
		return h
	}
	return ""
}

// scopeHedge returns the first hedge phrase of clauses, or "".
func scopeHedge(cls []clauseInfo) string {
	x := scopeLex()
	for _, cl := range cls {
		for i := range cl.toks {
			for n := 4; n >= 1; n-- {
				if p := wordsAt(cl.toks, i, n); p != "" && x.hedges[p] {
					return p
				}
			}
			if cl.toks[i].kind == tCJK {
				for _, h := range x.hedgeRun {
					if strings.Contains(cl.toks[i].text, h) {
						return h
					}
				}
			}
		}
	}
	return ""
}

// saysAlways reports a clause with a binding word of frequency (always, immer, 항상).
func saysAlways(cls []clauseInfo) bool {
	for _, cl := range cls {
		if cl.always {
			return true
		}
	}
	return false
}

// anchoredPass compares a statement the alignment left without a counterpart with the one new
// statement of the result, in its section, that holds all of its code spans: a list item cut
// down to its code ("`docs/payment_flow.md` (если затронуты платежные сценарии)" said
// "`docs/payment_flow.md`") shares too few words to align, but its conditions and scope are
// still compared.
func (c *stmtCompare) anchoredPass(s *stmt) {
	if c.cfg.skipType[TypeCondition] {
		return
	}
	u := c.anchor(s)
	if u == nil {
		u = c.subjectAnchor(s)
	}
	if u == nil {
		return
	}
	oc, uc := c.o.clausesOf(s), c.r.clausesOf(u)
	c.conditionsPass(s, u, oc, uc)
	c.scopePass(s, u, oc, uc)
}

// anchorIndex finds an inventory's statements by key and by code span.
type anchorIndex struct {
	keys   map[string]bool
	byCode map[Token][]*stmt
}

// anchorsOf builds inv's anchor index once.
func (inv *Inv) anchorsOf() *anchorIndex {
	if inv.anchors == nil {
		x := &anchorIndex{keys: map[string]bool{}, byCode: map[Token][]*stmt{}}
		for _, s := range inv.stmts {
			x.keys[s.key] = true
			for _, f := range s.facts {
				if f.Type == TypeCode {
					x.byCode[f] = append(x.byCode[f], s)
				}
			}
		}
		inv.anchors = x
	}
	return inv.anchors
}

// anchor returns the only result statement of s's section that is no copy of an original
// statement and holds every code span of s, or nil.
func (c *stmtCompare) anchor(s *stmt) *stmt {
	var codes []Token
	for _, f := range s.facts {
		if f.Type == TypeCode {
			codes = append(codes, f)
		}
	}
	if len(codes) == 0 {
		return nil
	}
	okeys := c.o.anchorsOf().keys
	var found *stmt
	for _, u := range c.r.anchorsOf().byCode[codes[0]] {
		if u.sect != s.sect || okeys[u.key] || !holdsAll(u.facts, codes) || u == found {
			continue
		}
		if found != nil {
			return nil
		}
		found = u
	}
	return found
}

// holdsAll reports facts holding every token of want.
func holdsAll(facts, want []Token) bool {
	for _, w := range want {
		if !containsTok(facts, w) {
			return false
		}
	}
	return true
}

// allDroppedOnly reports a scope of every case ("For all public APIs") whose counterpart clause
// says all of its words and puts no new word before them: the "all" left out of a plural that
// still says every one ("Public APIs need doc comments"), not a qualifier put in its place ("For
// core packages").
func allDroppedOnly(p condPart, u clauseInfo) bool {
	for _, w := range p.words {
		if !headKept(w, u.stems) {
			return false
		}
	}
	for i, t := range u.toks {
		st := clauseStems(u.toks[i : i+1])
		if len(st) == 0 || !headKept(st[0], p.words) {
			continue
		}
		if i == 0 {
			return true
		}
		prev := clauseStems(u.toks[i-1 : i])
		return len(prev) == 0 || headKept(prev[0], p.words) || t.kind == tCJK
	}
	return false
}

// headKept reports the word a scope word qualified still said: its stem, or an inflection of it
// (one stem starting the other, three letters at least: neuen and neue).
func headKept(head string, ustems []string) bool {
	for _, u := range ustems {
		if u == head || inflected(u, head) {
			return true
		}
	}
	return false
}

func inflected(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return utf8.RuneCountInString(a) >= 3 && strings.HasPrefix(b, a)
}
