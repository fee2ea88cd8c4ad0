package gate

import (
	"strings"
	"sync"
)

// wordSets are the gate's small word sets. They are built together on first use behind one
// sync.OnceValue because each OnceValue allocates when the binary starts, and every agent
// hook starts the binary: seven of them cost fourteen allocations before any hook could
// answer, one costs two.
type wordSets struct {
	or           map[string]bool            // the "or" of a condition's alternatives (orText)
	contrast     map[string]bool            // a conjunction and the negation opening a contrast clause (contrastText)
	elision      map[string]bool            // French articles and pronouns elided before a vowel (elisionText)
	coordinators map[string]bool            // words and marks joining the items of a list: items a rewrite may put in any order
	examples     map[string]bool            // words opening a list of examples, in the nine languages
	conditional  map[string]bool            // words opening a condition clause
	negPrefix    map[string]bool            // first parts of a compound that negate its last ("non-trivial")
	relative     map[string]bool            // relative pronouns, in the Latin and Cyrillic languages
	neither      map[string]bool            // the first word of a "neither … nor" list
	ability      []string                   // endings of a noun naming an ability (testability, Testbarkeit, тестируемость)
	purpose      map[string]bool            // infinitives that, after "para" or "pour", say what a rule is for
	requires     map[string]bool            // words opening a parenthetical precondition: "(requires X)", "(erfordert X)"
	prefVerb     map[string]map[string]bool // a preference verb's forms and the prepositions of its rejected side (prefVerbText)
	orAnd        map[string][]string        // each "or" of a condition and the "and"s of its language (orAndText)
}

var smallSets = sync.OnceValue(func() *wordSets {
	return &wordSets{
		or:           set(orText),
		contrast:     set(contrastText),
		elision:      set(elisionText),
		coordinators: set("and or und oder et ou y o e и или та і 和 与 及 或 、 ・ や と 및 와 과 또는 이나 그리고"),
		examples:     set("e.g eg example examples like such beispiel beispiele z.b exemple exemples ejemplo ejemplos exemplo exemplos например 例 如 比 등 예"),
		conditional:  set("if when whether unless"),
		negPrefix:    set("non nicht no un не"),
		relative: set("that which who whose der die das welche welcher welches deren dessen qui que qu dont " +
			"quien quienes cual cuales cuyo cuya qual quais quem cujo cuja который которая которое которые которых которым которой"),
		neither: set("neither weder ni nem ни"),
		ability: strings.Fields("ability ibility barkeit abilité ibilité abilidad ibilidad abilidade ibilidade емость имость"),
		purpose: set("avoid prevent ensure keep allow make evitar garantizar asegurar permitir facilitar mantener prevenir " +
			"garantir assegurar manter éviter garantir assurer permettre faciliter empêcher préserver"),
		requires: set("requires require needs need erfordert erfordern benötigt benötigen braucht voraussetzung " +
			"nécessite nécessitent requiert exige requiere requieren necesita necesitan requer requerem exige precisa " +
			"требует требуют нужен нужна нужно нужны"),
		prefVerb: prefVerbs(),
		orAnd:    orAndPairs(),
	}
})
