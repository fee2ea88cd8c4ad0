package gate

import "strings"

// A preference verb takes its rejected side after a preposition of its own, no joiner word:
// "prefer composition to inheritance", "préférer les liens relatifs aux liens absolus",
// "preferir composición a herencia", "prefira composição a herança". Inside a clause holding
// such a verb, the first of its prepositions with words between it and the verb joins the
// pair, the chosen side before it. German, Russian, Chinese, Japanese and Korean say the
// rejected side with a joiner (gegenüber, вместо, 而非, より, 보다) prefText already holds, or
// by a case ending no word marks ("предпочитать композицию наследованию"), and need no entry.
// A French joiner ending in "que" is read before an elided word too: "plutôt qu'absolus" is
// "plutôt que absolus".

// prefVerbText gives, per language, the forms of the preference verbs and, after "|", the
// prepositions that introduce their rejected side.
func prefVerbText() []string {
	return []string{
		"prefer prefers preferred preferring|to",
		"préférer préférez préfère préférons privilégier privilégiez privilégie privilégions|à au aux",
		"preferir prefiere prefieren prefiera prefieran prefiero preferimos|a al",
		"preferir prefira prefiram prefere preferem privilegiar privilegie privilegiem|a à ao aos às",
	}
}

// prefVerbs maps each preference verb form to the prepositions of its language; "preferir",
// Spanish and Portuguese, takes the prepositions of both.
func prefVerbs() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, e := range prefVerbText() {
		verbs, preps, _ := strings.Cut(e, "|")
		for _, v := range strings.Fields(verbs) {
			if out[v] == nil {
				out[v] = map[string]bool{}
			}
			for _, p := range strings.Fields(preps) {
				out[v][p] = true
			}
		}
	}
	return out
}

// verbPreference reads the preference of a clause whose verb takes its rejected side after a
// preposition: the stems between the verb and the preposition are chosen over those after it.
func verbPreference(toks []ctok) (preference, bool) {
	verbs := smallSets().prefVerb
	for i, t := range toks {
		preps, ok := verbs[t.text]
		if t.kind != tWord || !ok {
			continue
		}
		for j := i + 1; j < len(toks); j++ {
			if toks[j].kind != tWord || !preps[toks[j].text] {
				continue
			}
			if left := clauseStems(toks[i+1 : j]); len(left) > 0 {
				return sides(left, clauseStems(toks[j+1:]), 1)
			}
		}
	}
	return preference{}, false
}

// unelided returns toks with each French "qu'" word cut into "que" and the word it elides
// before, so a joiner ending in "que" matches it.
func unelided(toks []ctok) []ctok {
	var out []ctok
	for i, t := range toks {
		rest, ok := strings.CutPrefix(t.text, "qu'")
		if t.kind != tWord || !ok || rest == "" {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append([]ctok(nil), toks[:i]...)
		}
		out = append(out, ctok{tWord, "que"}, ctok{tWord, rest})
	}
	if out == nil {
		return toks
	}
	return out
}
