package ollama

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// instruction is the fixed part of every prompt. The text follows a line of
// three dashes; the fake server in fakeollama relies on that separator.
const instruction = "Paraphrase the text after the line of three dashes. Vary word choice, connectors and clause order, " +
	"but keep the meaning and preserve exactly every fact, number, name, URL, code identifier and anything between backticks. " +
	"Keep the line structure: the same number of lines, blank lines where they are, each line's leading indentation " +
	"and any marker at the start of a line (such as #, //, -, * or >), and the same leading and trailing whitespace. " +
	"Keep the same language. Output only the rewritten text, with no introduction, explanation, quotes or code fences."

// Prompt is the chat message sent for one region's text.
func Prompt(text string) string { return instruction + "\n\n---\n" + text }

// Length drift bounds: outside them the output is not a paraphrase.
const (
	minRatio        = 0.5
	maxRatio        = 2.0
	ratioFloorRunes = 80
)

// patterns are compiled on first use, not at process start: every prosewash
// process, hooks included, would otherwise pay for them.
type postPatterns struct {
	wrapperLine, wrapperPrefix, urlToken, codeToken, numberToken *regexp.Regexp
}

var patterns = sync.OnceValue(func() *postPatterns {
	return &postPatterns{
		// wrapperLine is a line a chat model puts before its answer.
		wrapperLine: regexp.MustCompile(`(?i)^(?:(?:sure|okay|ok|certainly|of course)[,.!]?[ \t]*)?` +
			`(?:(?:here(?:'s|’s| is| are)|below is)\b[^\n]{0,80}|(?:the )?(?:rewritten|paraphrased|revised|reworded)(?: text| version| passage)?):$`),
		// wrapperPrefix is the same preface on the answer's own line.
		wrapperPrefix: regexp.MustCompile(`(?i)^(?:(?:sure|okay|ok|certainly)[,.!]?[ \t]*)?here(?:'s|’s| is) (?:the|a|your) ` +
			`(?:rewritten|paraphrased|revised|reworded)(?: text| version| passage)?:[ \t]+`),
		urlToken:    regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s<>"'` + "`" + `]+`),
		codeToken:   regexp.MustCompile("`[^`\n]+`"),
		numberToken: regexp.MustCompile(`\d+(?:[.,:/-]\d+)*`),
	}
})

// quotePairs are the quotes a model may wrap its answer in.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"‘", "’"}, {"«", "»"}}

// lineMarkers are the characters that may open a line as structure: list
// bullets, block quotes, headings, comment leaders, table pipes.
const lineMarkers = "#/*-+>|;!%=~"

// Accept post-processes a model's answer for the region text input and
// returns the new region text, or a non-empty reason to keep the input. It
// strips what chat models wrap around an answer (a preface line, a think
// block, a code fence, quotes) only when the input does not itself start
// that way, restores whitespace (the region's edges and every line's
// indentation and trailing whitespace) from the input and never re-adds any
// other character, and refuses an answer that is empty, changes the line
// structure, drifts in length, or drops or introduces a number, URL or code
// span. Reasons never quote the text.
func Accept(input, answer string) (string, string) {
	lead, core, trail := splitEdges(input)
	out := unwrap(core, answer)
	if out == "" {
		return "", "the model returned no text"
	}
	inLines, outLines := strings.Split(core, "\n"), strings.Split(out, "\n")
	if len(inLines) != len(outLines) {
		return "", fmt.Sprintf("the model changed the line structure (%d lines, want %d)", len(outLines), len(inLines))
	}
	for i := range inLines {
		inBlank, outBlank := strings.TrimSpace(inLines[i]) == "", strings.TrimSpace(outLines[i]) == ""
		if inBlank != outBlank {
			return "", fmt.Sprintf("the model moved a blank line (line %d)", i+1)
		}
		if marker(inLines[i]) != marker(outLines[i]) {
			return "", fmt.Sprintf("the model changed the marker at the start of line %d", i+1)
		}
	}
	if n := utf8.RuneCountInString(core); n > ratioFloorRunes {
		ratio := float64(utf8.RuneCountInString(out)) / float64(n)
		if ratio < minRatio || ratio > maxRatio {
			return "", fmt.Sprintf("the model's output length drifted (ratio %.2f, allowed %.1f to %.1f)", ratio, minRatio, maxRatio)
		}
	}
	if reason := tokenLoss(core, out); reason != "" {
		return "", reason
	}
	if n := newInvisibles(core, out); n > 0 {
		// The rewrite stage runs after the carrier stage: whatever invisible
		// character the model adds would reach the file uncleaned.
		return "", "the model introduced " + plural(n, "invisible or control character")
	}
	var b strings.Builder
	b.WriteString(lead)
	for i, in := range inLines {
		if i > 0 {
			b.WriteByte('\n')
		}
		inLead, inCore, inTrail := splitEdges(in)
		if inCore == "" {
			b.WriteString(in)
			continue
		}
		_, outCore, _ := splitEdges(outLines[i])
		b.WriteString(inLead)
		b.WriteString(outCore)
		b.WriteString(inTrail)
	}
	b.WriteString(trail)
	return b.String(), ""
}

// newInvisibles counts the distinct invisible, control and format
// characters in out that in does not contain.
func newInvisibles(in, out string) int {
	seen := map[rune]bool{}
	for _, r := range in {
		if invisible(r) {
			seen[r] = true
		}
	}
	n := 0
	for _, r := range out {
		if invisible(r) && !seen[r] {
			seen[r] = true
			n++
		}
	}
	return n
}

// invisible reports whether r is a character a reader cannot see or that
// is not text: controls other than tab and line breaks, format characters
// (zero-width, bidi, tags), private use, surrogates, spaces other than
// U+0020, line and paragraph separators, variation selectors, other default
// ignorables, noncharacters, and U+FFFD (what invalid UTF-8 decodes to).
func invisible(r rune) bool {
	if r > ' ' && r < 0x7f {
		return false
	}
	switch r {
	case '\t', '\n', '\r', ' ':
		return false
	case utf8.RuneError:
		return true
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zs, unicode.Zl, unicode.Zp,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point, unicode.Noncharacter_Code_Point)
}

// splitEdges splits s into leading whitespace, the rest, and trailing
// whitespace.
func splitEdges(s string) (lead, core, trail string) {
	core = strings.TrimLeftFunc(s, unicode.IsSpace)
	lead = s[:len(s)-len(core)]
	trimmed := strings.TrimRightFunc(core, unicode.IsSpace)
	trail = core[len(trimmed):]
	return lead, trimmed, trail
}

// unwrap removes the wrapping a chat model adds around its answer.
func unwrap(core, answer string) string {
	s := strings.ReplaceAll(answer, "\r\n", "\n")
	if i := strings.LastIndex(s, "</think>"); i >= 0 && !strings.Contains(core, "</think>") {
		s = s[i+len("</think>"):]
	} else if strings.HasPrefix(strings.TrimSpace(s), "<think>") && !strings.Contains(core, "<think>") {
		// An unfinished think block: there is no answer.
		return ""
	}
	s = strings.TrimSpace(s)
	firstIn, _, _ := strings.Cut(core, "\n")
	if first, rest, ok := strings.Cut(s, "\n"); ok && patterns().wrapperLine.MatchString(strings.TrimSpace(first)) && !patterns().wrapperLine.MatchString(strings.TrimSpace(firstIn)) {
		s = strings.TrimSpace(rest)
	} else if loc := patterns().wrapperPrefix.FindStringIndex(s); loc != nil && !patterns().wrapperPrefix.MatchString(firstIn) {
		s = strings.TrimSpace(s[loc[1]:])
	}
	for _, fence := range []string{"```", "~~~"} {
		lines := strings.Split(s, "\n")
		if len(lines) >= 2 && strings.HasPrefix(lines[0], fence) && strings.TrimSpace(lines[len(lines)-1]) == fence &&
			!strings.HasPrefix(core, fence) {
			s = strings.TrimSpace(strings.Join(lines[1:len(lines)-1], "\n"))
			break
		}
	}
	for _, q := range quotePairs {
		if len(s) >= len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) &&
			!strings.HasPrefix(core, q[0]) && !strings.HasSuffix(core, q[1]) {
			s = strings.TrimSpace(s[len(q[0]) : len(s)-len(q[1])])
			break
		}
	}
	return s
}

// marker is the run of structural characters opening a line, after its
// indentation.
func marker(line string) string {
	s := strings.TrimLeftFunc(line, unicode.IsSpace)
	i := 0
	for i < len(s) && strings.IndexByte(lineMarkers, s[i]) >= 0 {
		i++
	}
	return s[:i]
}

// tokenLoss compares the fact-bearing tokens of input and output.
func tokenLoss(in, out string) string {
	var lost, added []string
	for _, k := range []struct {
		name string
		find func(string) map[string]bool
	}{
		{"number", numbers},
		{"URL", urls},
		{"code span", codeSpans},
	} {
		a, b := k.find(in), k.find(out)
		if n := missing(a, b); n > 0 {
			lost = append(lost, plural(n, k.name))
		}
		if n := missing(b, a); n > 0 {
			added = append(added, plural(n, k.name))
		}
	}
	switch {
	case len(lost) > 0:
		return "the model dropped " + strings.Join(lost, " and ")
	case len(added) > 0:
		return "the model introduced " + strings.Join(added, " and ")
	}
	return ""
}

func missing(want, have map[string]bool) int {
	n := 0
	for t := range want {
		if !have[t] {
			n++
		}
	}
	return n
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func tokenSet(re *regexp.Regexp, s string, trim string) map[string]bool {
	m := map[string]bool{}
	for _, t := range re.FindAllString(s, -1) {
		m[strings.TrimRight(t, trim)] = true
	}
	return m
}

func numbers(s string) map[string]bool {
	if !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	return tokenSet(patterns().numberToken, s, "")
}

func urls(s string) map[string]bool {
	if !strings.Contains(s, "://") {
		return nil
	}
	return tokenSet(patterns().urlToken, s, ".,;:!?)]}*_")
}

func codeSpans(s string) map[string]bool {
	if !strings.Contains(s, "`") {
		return nil
	}
	return tokenSet(patterns().codeToken, s, "")
}
