package gate

import (
	"fmt"
	"strings"
)

// A precedence verb names what wins over what: "A real environment variable still wins",
// "`local.yml` overrides `base.yml`", "la config locale prime", "переменная окружения имеет
// приоритет". Its subject, said before it, is the winner. A result whose counterpart puts the
// original's winner after the verb ("`lab.env` still wins over a real environment variable")
// has reversed the precedence, though every word is still there.

// precedenceLen returns how many words of a precedence verb start at words[i], or 0. The verb
// is read per language: wins, overrides, takes precedence, has priority; gewinnt, überschreibt,
// hat Vorrang, geht vor; l'emporte, prime, a priorité, écrase; prevalece, gana, tiene
// prioridad, sobrescribe; prevalece, vence, tem prioridade; побеждает, переопределяет,
// перекрывает, имеет приоритет.
func precedenceLen(words []string, i int) int {
	next := ""
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch words[i] {
	case "wins", "win", "overrides", "override", "prevails", "prevail", "beats",
		"gewinnt", "gewinnen", "überschreibt", "überschreiben",
		"l'emporte", "prime", "priment", "écrase", "écrasent",
		"prevalece", "prevalecen", "prevalecem", "gana", "ganan", "vence", "vencem", "sobrescribe", "sobrescreve",
		"побеждает", "переопределяет", "перекрывает", "приоритетнее":
		return 1
	case "takes", "take", "has", "have":
		if next == "precedence" || next == "priority" {
			return 2
		}
	case "hat", "haben":
		if next == "vorrang" {
			return 2
		}
	case "geht", "gehen":
		if next == "vor" {
			return 2
		}
	case "a", "ont":
		if next == "priorité" || next == "la" && i+2 < len(words) && words[i+2] == "priorité" {
			return 2
		}
	case "tiene", "tienen", "tem", "têm":
		if next == "prioridad" || next == "prioridade" || next == "precedencia" || next == "precedência" {
			return 2
		}
	case "имеет", "имеют":
		if next == "приоритет" {
			return 2
		}
	}
	return 0
}

// precedenceSides returns the stems before a clause's first precedence verb (its winner) and
// after it, and whether the clause has one.
func precedenceSides(cl clauseInfo) (winner, rest []string, ok bool) {
	words := clauseWordsOf(cl.toks)
	for i := range words {
		if words[i] == "" {
			continue
		}
		if n := precedenceLen(words, i); n > 0 {
			return clauseStems(cl.toks[:i]), clauseStems(cl.toks[i+n:]), true
		}
	}
	return nil, nil, false
}

// precedencePass reports a precedence whose winner a counterpart clause puts after its
// precedence verb, with something else before it: the other side now wins.
func (c *stmtCompare) precedencePass(s, u *stmt, oc, uc []clauseInfo) {
	for _, cl := range oc {
		w, _, ok := precedenceSides(cl)
		if !ok || len(w) == 0 {
			continue
		}
		for _, m := range uc {
			mw, mr, ok := precedenceSides(m)
			if !ok || len(mw) == 0 {
				continue
			}
			if after, before := shared(w, mr), shared(w, mw); after >= need(len(w)) && after > before {
				c.drop(Token{TypeOrder, "precedence " + strings.Join(w, " ")}, s, u,
					fmt.Sprintf("precedence reversed: %q said %q", strings.TrimSpace(cl.text), strings.TrimSpace(m.text)))
				return
			}
		}
	}
}
