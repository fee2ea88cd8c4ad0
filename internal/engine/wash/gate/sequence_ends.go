package gate

import "slices"

// The steps a sequence word marks ("changes apply locally, then sync without data loss",
// "TDD : écrire le test d'abord, puis le code") often share words with the text around them:
// a lead the first step starts with ("TDD : écrire") and a tail the last step ends with
// ("without data loss"). A rewrite that reverses the steps keeps both where they stood, so
// matching each step by the most stems it shares would follow the lead and the tail, not the
// steps. Read the steps whole first, then once more with the ends stripped, as for arrows and
// chains (withoutLead).

// withoutEnds strips from two sequences the stems their first steps share and the stems their
// last steps share, each only where every step stripped keeps stems of its own.
func withoutEnds(o, u [][]string) ([][]string, [][]string) {
	o, u = withoutLead(o, u)
	ro, ru := withoutLead(reversedSteps(o), reversedSteps(u))
	return reversedSteps(ro), reversedSteps(ru)
}

// reversedSteps returns the steps of a sequence last first.
func reversedSteps(steps [][]string) [][]string {
	out := slices.Clone(steps)
	slices.Reverse(out)
	return out
}

// markedSteps are the steps the sequence words of two statements mark, their ends stripped.
func markedSteps(oc, uc []clauseInfo) [2][][]string {
	o, u := withoutEnds(markedSegments(oc), markedSegments(uc))
	return [2][][]string{o, u}
}
