package gate

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Equivalences that are facts, not guesses: two values are one when their units convert (60 s
// = 1 min = every minute; 秒, 分钟, 小时; 초, 분, 시간; сек, мин, час), a number word states a
// number (three = 3, zwei = 2, twice = 2x), a language has one name in every language (English =
// Englisch = inglés = 英文 = по-английски), an alias the original defines ("rg (ripgrep)") or a
// common one (k8s, kubernetes) names the same thing, and one side of a pair of alternatives is
// implied by the other (Windows and the rest). Each is data with a test per entry
// (TestEquivalences).

// unitDim is a unit's dimension and its factor to the dimension's base.
type unitDim struct {
	dim   string
	scale float64
}

// unitScale converts a unit to its dimension's base (seconds, bytes) and names the dimension.
var unitScale = sync.OnceValue(func() map[string]unitDim {
	return map[string]unitDim{
		"ns": {"t", 1e-9}, "us": {"t", 1e-6}, "ms": {"t", 1e-3}, "s": {"t", 1}, "min": {"t", 60}, "h": {"t", 3600},
		"d": {"t", 86400}, "w": {"t", 604800},
		"B": {"b", 1}, "KB": {"b", 1e3}, "MB": {"b", 1e6}, "GB": {"b", 1e9}, "TB": {"b", 1e12},
		"KiB": {"b", 1024}, "MiB": {"b", 1 << 20}, "GiB": {"b", 1 << 30}, "TiB": {"b", 1 << 40},
		"%": {"%", 1},
	}
})

// aliasText are common aliases, one group a line's worth per entry: names of one thing.
var aliasText = "rg=ripgrep k8s=kubernetes js=javascript ts=typescript py=python pg=postgres=postgresql " +
	"golang=go nodejs=node=node.js md=markdown yml=yaml gh=github mac=macos osx=macos"

// complementText are families of alternatives whose sides exclude each other: naming one side
// for one alternative implies the other side for the rest.
var complementText = []string{"windows|linux macos mac unix posix osx"}

// everyText are the words that, before a unit, state one of it: "every minute" is 1 min;
// before another word they make the rule apply to each of it ("on every push"), as perText
// do ("approval per file"). A rule said for all of them ("for all files") keeps such a
// qualifier (allText), but saying "all" is no qualifier of its own.
var (
	everyText = "every each jede jeden jedes chaque cada каждую каждый каждые каждое"
	perText   = "per pro je"
	allText   = "all any alle allen tous toutes tout toute todos todas todo toda все всех любой любая любое"
)

// quantifierText are, per language, the words that say a rule holds for every case (all,
// every, each; toutes les, l'ensemble des, chaque; sämtliche; 所有, 全部; すべて, 各; 모든, 전체):
// a rewording exchanges one for another and says the same. "any" is none of them: "if any test
// fails" is not "if all tests fail". One group a language, words as synonymText's.
var quantifierText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "all|every|each",
		"de": "alle|allen|aller|sämtliche|sämtlichen|jede|jeder|jedes|jeden",
		"fr": "tous|toutes|tout|toute|l'ensemble|chaque|chacun|chacune",
		"es": "todos|todas|todo|toda|cada",
		"pt": "todos|todas|todo|toda|cada",
		"ru": "все|всех|всем|всеми|весь|вся|всё|каждый|каждая|каждое|каждые|каждую|каждого|каждой",
		"zh": "所有|全部|每个",
		"ja": "すべて|全て|全部|各",
		"ko": "모든|전체|각",
	}
})

// boundAfterText gives, per language, the words after a number that make it a lower bound:
// "20 or later" is ≥20, as "20+", "at least 20", "≥ 20", 20以上 and 20 이상 are (the CJK ones
// are qualifierAfterText's). Underscores are spaces.
var boundAfterText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "or_more or_later or_higher or_newer or_above and_up and_above and_later",
		"de": "oder_mehr und_mehr oder_höher und_höher oder_neuer und_neuer",
		"fr": "ou_plus et_plus ou_supérieur ou_plus_récent",
		"es": "o_más y_más o_superior o_posterior",
		"pt": "ou_mais e_mais ou_superior ou_posterior",
		"ru": "и_более или_более и_выше или_выше",
		"zh": "及以上 或以上 或更高",
	}
})

// factKeys returns the keys a fact matches by: its own, and its canonical forms.
func factKeys(t Token) []string {
	keys := []string{t.Key()}
	switch t.Type {
	case TypeNumber:
		if k := canonicalNumber(t.Value); k != "" {
			keys = append(keys, k)
		}
		if n, ok := strings.CutSuffix(t.Value, "x"); ok && n != "" && strings.Trim(strings.TrimLeft(n, "≤≥<>"), "0123456789") == "" {
			keys = append(keys, TypeNumber+":"+n) // "twice" (2x) says "after 2 failures"' 2
		}
	case TypeName:
		if l := langOf(t.Value); l != "" {
			keys = append(keys, "lang:"+l)
		}
		for _, a := range builtinAliases()[t.Value] {
			keys = append(keys, TypeName+":"+a)
		}
	}
	return keys
}

// canonicalNumber writes a number with a convertible unit in its dimension's base unit
// ("300s" and "5min" are both "num:t:300"), or "" when it has no such unit.
func canonicalNumber(v string) string {
	u := unitOf(v)
	sc, ok := unitScale()[u]
	if !ok {
		return ""
	}
	body := strings.TrimSuffix(v, u)
	prefix := ""
	for len(body) > 0 && strings.ContainsRune("+-$€£¥~≥≤<>", rune(body[0])) {
		r, n := utf8.DecodeRuneInString(body)
		prefix += string(r)
		body = body[n:]
	}
	lo, hi, isRange := strings.Cut(body, "-")
	a, err := strconv.ParseFloat(lo, 64)
	if err != nil {
		return ""
	}
	out := "num:" + sc.dim + ":" + prefix + strconv.FormatFloat(a*sc.scale, 'g', 12, 64)
	if isRange {
		b, err := strconv.ParseFloat(hi, 64)
		if err != nil {
			return ""
		}
		out += "-" + strconv.FormatFloat(b*sc.scale, 'g', 12, 64)
	}
	return out
}

// langOf returns the canonical language a word names ("inglés" -> "english"), or "".
func langOf(w string) string {
	x := slex()
	if l, ok := x.langName[w]; ok {
		return l
	}
	if _, ok := langNameText()[w]; ok {
		return w
	}
	for _, st := range x.langStem {
		if strings.HasPrefix(w, st.stem) {
			return st.lang
		}
	}
	return ""
}

// wordFacts returns the values a statement states in words: number and frequency words, "every
// minute", 每分钟, language names in any language and script.
func wordFacts(cls []clauseInfo) []Token {
	x := slex()
	every := x.every
	var out []Token
	for _, cl := range cls {
		words := clauseWordsOf(cl.toks)
		for i := 0; i < len(words); i++ {
			w := words[i]
			if w == "" {
				continue
			}
			if v, n := numberPhrase(x, words, i); n > 0 {
				if i+n < len(cl.toks) && cl.toks[i+n].kind == tNum {
					i += n - 1 // "Sept 5, 2025": a month before its day, not French seven
					continue
				}
				out = append(out, Token{TypeNumber, wordQualifier(x, words, i) + v})
				i += n - 1
				continue
			}
			if x.quantity[w] && i+1 < len(words) {
				// "several hours", "quelques minutes": an amount of that unit.
				if u := unitName(x, words[i+1]); u != "" {
					out = append(out, Token{TypeNumber, "~" + u})
				}
			}
			if every[w] && i+1 < len(words) {
				if u, ok := unitWord(words[i+1], false); ok {
					out = append(out, Token{TypeNumber, "1" + u})
				} else if u, ok := x.unit[words[i+1]]; ok {
					out = append(out, Token{TypeNumber, "1" + u})
				} else if q := distributive(x, words, i); q != "" {
					out = append(out, Token{TypeCondition, "per " + q})
				}
			} else if x.perWord[w] || x.allWord[w] {
				if q := distributive(x, words, i); q != "" {
					kind := "per "
					if x.allWord[w] {
						kind = "all "
					}
					out = append(out, Token{TypeCondition, kind + q})
				}
			}
			if l := langOf(w); l != "" {
				out = append(out, Token{TypeName, l})
			}
		}
		for _, t := range cl.toks {
			if t.kind == tCJK {
				out = append(out, cjkWordFacts(x, t.text)...)
			}
		}
	}
	return out
}

// distributive returns the stem of the word a distributive word at words[i] applies the rule
// to ("approval per file", "on every push", "pour chaque test"), or "" when it is followed by
// no content word.
func distributive(x *stmtLexicon, words []string, i int) string {
	if i+1 >= len(words) {
		return ""
	}
	n := words[i+1]
	if isHangulWord(n) && !isHangulWord(words[i]) {
		return "" // "VS 2019 Pro에서": a Korean particle glued to a name ends it, no "pro" rate
	}
	if n == "" || x.stop[n] || lex().stop[n] || x.modal[n] != 0 || n == "time" || n == "other" || n == "one" || unitName(x, n) != "" {
		return "" // "2-4 times per day" is a rate, read with its number
	}
	return wordStem(n)
}

// unitName returns the normal unit a word names in any language ("heures", "минут"), or "".
func unitName(x *stmtLexicon, w string) string {
	if u, ok := unitWord(w, false); ok {
		return u
	}
	if u, ok := x.unit[w]; ok {
		return u
	}
	return ""
}

// wordQualifier returns the bound said in words before words[i] ("at most twice": ≤), or "".
func wordQualifier(x *stmtLexicon, words []string, i int) string {
	for _, e := range x.qualBefore {
		k := strings.Count(e.text, " ") + 1
		if e.lang != "cjk" && i >= k && strings.Join(words[i-k:i], " ") == e.text {
			return e.kind
		}
	}
	return ""
}

// numberPhrase reads a number word at words[i]: the value and its length in words. "one" counts
// only before a word it counts ("one commit"), not as a pronoun ("one of", "the one").
func numberPhrase(x *stmtLexicon, words []string, i int) (string, int) {
	for k := min(3, len(words)-i); k >= 1; k-- {
		p := strings.Join(words[i:i+k], " ")
		v, ok := x.number[p]
		if !ok {
			continue
		}
		if p == "one" {
			next, prev := "", ""
			if i+1 < len(words) {
				next = words[i+1]
			}
			if i > 0 {
				prev = words[i-1]
			}
			if next == "" || next == "of" || next == "another" || next == "or" || next == "by" || next == "more" ||
				prev == "the" || prev == "no" || prev == "any" || prev == "each" || prev == "every" || prev == "this" || prev == "that" || prev == "which" {
				return "", 0
			}
		}
		return v, k
	}
	return "", 0
}

// cjkWordFacts reads number words (一个, 两次, 一つ), "every unit" (每分钟, 毎分) and language
// names in a run of Chinese or Japanese.
func cjkWordFacts(x *stmtLexicon, s string) []Token {
	var out []Token
	rest := s
	for _, e := range x.cjkNumber {
		if strings.Contains(rest, e.text) {
			out = append(out, Token{TypeNumber, e.kind})
			rest = strings.ReplaceAll(rest, e.text, "　")
		}
	}
	for _, q := range []string{"几个", "几", "数"} {
		// 几个小时, 几分钟, 数時間: an amount of that unit.
		for i := strings.Index(rest, q); i >= 0; {
			tail := rest[i+len(q):]
			if u := cjkUnitAt(x, tail); u != "" {
				out = append(out, Token{TypeNumber, "~" + u})
			}
			j := strings.Index(tail, q)
			if j < 0 {
				break
			}
			i += len(q) + j
		}
	}
	for _, ev := range []string{"每", "毎"} {
		for i := strings.Index(s, ev); i >= 0 && i < len(s); {
			tail := s[i+len(ev):]
			if u := cjkUnitAt(x, tail); u != "" {
				out = append(out, Token{TypeNumber, "1" + u})
			}
			j := strings.Index(tail, ev)
			if j < 0 {
				break
			}
			i += len(ev) + j
		}
	}
	for _, n := range cjkNames(s) {
		if l := langOf(n); l != "" {
			out = append(out, Token{TypeName, l})
		}
	}
	return out
}

// cjkUnitAt returns the unit a run of Chinese or Japanese starts with (分钟, 小时, 時間), or "".
func cjkUnitAt(x *stmtLexicon, s string) string {
	best, u := 0, ""
	for w, n := range x.unit {
		if r, _ := utf8.DecodeRuneInString(w); isCJK(r) && strings.HasPrefix(s, w) && len(w) > best {
			best, u = len(w), n
		}
	}
	return u
}

// builtinAliases maps each common alias to the other names of its thing, built once from
// aliasText.
var builtinAliases = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range strings.Fields(aliasText) {
		names := strings.Split(g, "=")
		for _, a := range names {
			for _, b := range names {
				if a != b {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	return m
})

// aliases returns the aliases an inventory defines, "a (b)" with a and b single names, code
// spans or words, both ways, and the common ones.
func (inv *Inv) aliases() map[string][]string {
	if inv.alias != nil {
		return inv.alias
	}
	inv.alias = map[string][]string{}
	for k, v := range builtinAliases() {
		inv.alias[k] = append([]string(nil), v...)
	}
	for _, s := range inv.stmts {
		key := s.key
		for i := strings.Index(key, " ("); i > 0; {
			j := strings.IndexByte(key[i+2:], ')')
			if j < 0 {
				break
			}
			inner := strings.Trim(key[i+2:i+2+j], "` ")
			outer := key[:i]
			if k := strings.LastIndexAny(outer, " ([,;:"); k >= 0 {
				outer = outer[k+1:]
			}
			outer = strings.Trim(outer, "`*")
			if aliasWord(inner) && aliasWord(outer) && namedIn(s, outer) {
				a, b := strings.ToLower(outer), strings.ToLower(inner)
				inv.alias[a] = append(inv.alias[a], b)
				inv.alias[b] = append(inv.alias[b], a)
			} else if acronym(outer) && aliasPhrase(inner) {
				// "PII (personenbezogene Daten)": the acronym says each word of its expansion
				a := strings.ToLower(outer)
				for _, w := range strings.Fields(strings.ToLower(inner)) {
					inv.alias[w] = append(inv.alias[w], a)
				}
			}
			n := strings.Index(key[i+2:], " (")
			if n < 0 {
				break
			}
			i += 2 + n
		}
	}
	return inv.alias
}

// aliasWord reports a word that can be an alias: letters, digits, "-" and "_", and at most
// 30 bytes (not a URL, a path or a phrase).
func aliasWord(w string) bool {
	if w == "" || len(w) > 30 {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// namedIn reports a word the statement names (a name or a code span of its facts): only a
// name takes an alias in parentheses ("rg (ripgrep)"); a plain word's parenthesis is a fact of
// its own ("chiffrés avant insertion (ChaCha20)").
func namedIn(s *stmt, w string) bool {
	lw := strings.ToLower(w)
	for _, t := range s.facts {
		if (t.Type == TypeName || t.Type == TypeCode) && strings.ToLower(t.Value) == lw {
			return true
		}
	}
	return false
}

// acronym reports a word of two to six capitals (and digits): PII, API, K8S.
func acronym(w string) bool {
	if len(w) < 2 || len(w) > 6 || !unicode.IsUpper(rune(w[0])) {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// aliasPhrase reports an expansion: two to five alias words.
func aliasPhrase(p string) bool {
	f := strings.Fields(p)
	if len(f) < 2 || len(f) > 5 {
		return false
	}
	for _, w := range f {
		if !aliasWord(w) {
			return false
		}
	}
	return true
}

// complementFamily returns the family of alternatives a name belongs to, or -1.
func complementFamily(name string) int {
	for i, f := range complementText {
		for _, side := range strings.Split(f, "|") {
			for _, w := range strings.Fields(side) {
				if w == name {
					return i
				}
			}
		}
	}
	return -1
}

// complementSide returns which side of its family a name is on.
func complementSide(name string) int {
	for _, f := range complementText {
		for si, side := range strings.Split(f, "|") {
			for _, w := range strings.Fields(side) {
				if w == name {
					return si
				}
			}
		}
	}
	return -1
}
