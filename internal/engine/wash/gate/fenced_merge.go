package gate

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// A list written inside a code block ("- feat: new feature" and "- fix: bug fix" under
// "Types:", or "# - docs/ -> documentation" comment lines) is often said on one line by a
// summariser: "Types: feat (new feature), fix (bug fix)". Code lines are compared byte for byte,
// so each merged line would read as a dropped code line. A run of consecutive code lines the
// result lost is free when one new code line of the result says exactly their words, in their
// order, and nothing else: only the punctuation and the line breaks changed. A word left out,
// one added ("not") or two descriptions traded is still a dropped code line.

// mergedCodeLines returns the lost code lines (gone, in line order) that no new code line of
// the result (cands) merges word for word.
func mergedCodeLines(gone []Drop, cands map[string][]*fencedLine) []Drop {
	if len(gone) < 2 {
		return gone
	}
	var news []*fencedLine
	for _, list := range cands {
		for _, fl := range list {
			if !fl.used {
				news = append(news, fl)
			}
		}
	}
	sort.Slice(news, func(a, b int) bool { return news[a].line < news[b].line })
	merged := make([]bool, len(gone))
	for _, ul := range news {
		if from, to, ok := mergedRun(gone, merged, codeWords(ul.text)); ok {
			ul.used = true
			for i := from; i < to; i++ {
				merged[i] = true
			}
		}
	}
	var out []Drop
	for i, d := range gone {
		if !merged[i] {
			out = append(out, d)
		}
	}
	return out
}

// mergedRun finds a run of two or more consecutive lost lines, none merged yet, whose words
// joined are want, and returns its bounds [from, to).
func mergedRun(gone []Drop, merged []bool, want []string) (int, int, bool) {
	if len(want) == 0 {
		return 0, 0, false
	}
	for from := range gone {
		var words []string
		for to := from; to < len(gone) && !merged[to]; to++ {
			if to > from && gone[to].Line != gone[to-1].Line+1 {
				break
			}
			words = append(words, codeWords(gone[to].Value)...)
			if len(words) > len(want) || !slices.Equal(words, want[:len(words)]) {
				break
			}
			if len(words) == len(want) && to > from {
				return from, to + 1, true
			}
		}
	}
	return 0, 0, false
}

// codeWords returns the words of a code line, lowercased: its runs of letters and digits.
func codeWords(line string) []string {
	return strings.FieldsFunc(strings.ToLower(line), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	})
}
