package region

// Python, shell, TOML and Dockerfile share the '#' line comment, and with it
// the way tools put directives in it: a keyword right after a '#' (noqa,
// shellcheck, hadolint) or the "word:" shape, anywhere a '#' starts a
// segment ("# why  # noqa: E501"). Each language passes its own keywords and
// names its own "word:" tools.

// hashKeyword is a directive word that needs no colon, matched
// case-insensitively as a prefix right after a '#' and optional blanks.
type hashKeyword struct{ prefix, why string }

// hashDirective checks every '#'-introduced segment of the comment text t
// for a keyword or the "word:" shape; wordWhy names the tool behind a word.
func hashDirective(t []byte, keywords []hashKeyword, wordWhy func(string) string) (string, bool) {
	if why, ok := suppressionDirective(t, inAnyComment); ok {
		return why, true
	}
	for k := 0; k < len(t); k++ {
		if t[k] != '#' {
			continue
		}
		seg := t[k+1:]
		for e := 0; e < len(seg); e++ {
			if seg[e] == '#' {
				seg = seg[:e]
				break
			}
		}
		body := trimSpaceLeft(seg)
		for _, kw := range keywords {
			if hasPrefixFold(body, kw.prefix) {
				return kw.why, true
			}
		}
		if word, ok := wordColon(seg); ok {
			return wordWhy(word), true
		}
	}
	return "", false
}

// commonHashKeywords are the '#'-comment languages' own keywords (kics,
// bandit-style nosec after any '#', pragma); the scanners that read every
// comment syntax are in the shared vocabulary (see suppressions).
var commonHashKeywords = [...]hashKeyword{
	{"nosec", "directive: # nosec"},
	{"kics-scan", "directive: # kics-scan"},
	{"pragma", "directive: # pragma"},
}

// markHashComment marks the comment [start, end) of kind k, ending it at
// the first \r or \n: a line break and what follows it are never prose, so
// a language that reads a lone \r as an ordinary character and one that
// reads it as a line end both see the prose part as comment.
// A prose comment's reason names the label that opens it ("comment
// (TODO:)"), so the engine keeps a carrier whose removal would make one
// appear.
func markHashComment(b *Builder, src []byte, start, end int, k Kind, why string) {
	cut := lineEnd(src[:end], start)
	if k == Prose && why == "comment" && cut > start {
		why = commentWhy(src[start+1 : cut])
	}
	b.Mark(start, cut, k, why)
	if cut < end {
		b.Mark(cut, end, Runtime, "comment after a line break")
	}
}
