package gate

import "strings"

// nominalBase writes an English noun of action in -ification as its verb's form before the
// stemmer ("modifications", "verification" as "modifi-", the stem of "modify", "verifying"):
// "before modifications" said "before modifying" keeps its condition.
func nominalBase(w string) string {
	for _, suf := range []string{"ications", "ication"} {
		if b, ok := strings.CutSuffix(w, suf); ok && strings.HasSuffix(b, "f") && len(b) >= 3 {
			return b + "y"
		}
	}
	return w
}
