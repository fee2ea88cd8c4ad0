package walk

import "strings"

// wmResult is the outcome of one matching attempt. The two abort results
// prune the search: once the text is exhausted no later split can match
// (wmAbortAll), and a single '*' that stops at a '/' can only be rescued by an
// enclosing "**" (wmAbortToDoubleStar). Without them a pattern with many stars
// would backtrack exponentially.
type wmResult uint8

const (
	wmMatch wmResult = iota
	wmNoMatch
	wmAbortAll
	wmAbortToDoubleStar
)

// wildmatch reports whether text matches pattern with git's wildmatch rules in
// pathname mode: '*' and '?' and bracket expressions never match '/', "**" as
// a whole path component matches across directories ("a/**/b" also matches
// "a/b"), '\' quotes the next character, and brackets accept ranges, '!' or
// '^' negation and the POSIX classes [:alpha:] and friends. Matching is
// byte-wise and case-sensitive (core.ignoreCase is not supported).
func wildmatch(pattern, text string) bool {
	return wild(pattern, text) == wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func wild(p, t string) wmResult {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			// A trailing backslash quotes nothing and so matches nothing.
			if pi >= len(p) || t[ti] != p[pi] {
				return wmNoMatch
			}
		case '?':
			if t[ti] == '/' {
				return wmNoMatch
			}
		case '[':
			r, next := matchBracket(p, pi, t[ti])
			if r != wmMatch {
				return r
			}
			pi = next
		case '*':
			r, np, nt, done := matchStar(p, pi, t, ti)
			if done {
				return r
			}
			// A single star followed by '/' consumed one path component; both
			// cursors now sit on a '/' that the loop step moves past.
			pi, ti = np, nt
		default:
			if t[ti] != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// matchStar handles the star run starting at p[pi]. It either decides the
// whole match (done) or, for a single star followed by '/', returns the
// cursors positioned on the '/' in both pattern and text.
func matchStar(p string, pi int, t string, ti int) (r wmResult, np, nt int, done bool) {
	start := pi
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	crossSlash := false
	if pi-start >= 2 {
		before := start == 0 || p[start-1] == '/'
		after := pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')
		if before && after {
			// "**/" may also stand for no directory at all.
			if pi < len(p) && p[pi] == '/' && wild(p[pi+1:], t[ti:]) == wmMatch {
				return wmMatch, 0, 0, true
			}
			crossSlash = true
		}
		// Otherwise "**" is just '*'.
	}
	if pi == len(p) {
		if !crossSlash && strings.IndexByte(t[ti:], '/') >= 0 {
			return wmNoMatch, 0, 0, true
		}
		return wmMatch, 0, 0, true
	}
	if !crossSlash && p[pi] == '/' {
		slash := strings.IndexByte(t[ti:], '/')
		if slash < 0 {
			return wmNoMatch, 0, 0, true
		}
		return 0, pi, ti + slash, false
	}
	for ti < len(t) {
		if c := p[pi]; !isGlobSpecial(c) {
			// The star must swallow everything up to the next occurrence of
			// the literal that follows it.
			for ti < len(t) && t[ti] != c && (crossSlash || t[ti] != '/') {
				ti++
			}
			if ti >= len(t) || t[ti] != c {
				return wmNoMatch, 0, 0, true
			}
		}
		m := wild(p[pi:], t[ti:])
		if m != wmNoMatch {
			if !crossSlash || m != wmAbortToDoubleStar {
				return m, 0, 0, true
			}
		} else if !crossSlash && t[ti] == '/' {
			return wmAbortToDoubleStar, 0, 0, true
		}
		ti++
	}
	return wmAbortAll, 0, 0, true
}

// matchBracket matches the byte c against the bracket expression opening at
// p[open]. On wmMatch it returns the index of the closing ']'.
func matchBracket(p string, open int, c byte) (wmResult, int) {
	pi := open + 1
	if pi >= len(p) {
		return wmAbortAll, 0
	}
	negated := p[pi] == '!' || p[pi] == '^'
	if negated {
		pi++
	}
	matched := false
	var prev byte
	// The first member is taken literally even when it is ']', so the loop
	// tests for the closing bracket only after consuming a member.
	for {
		if pi >= len(p) {
			return wmAbortAll, 0
		}
		pc := p[pi]
		switch {
		case pc == '\\':
			pi++
			if pi >= len(p) {
				return wmAbortAll, 0
			}
			pc = p[pi]
			if c == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			hi := p[pi]
			if hi == '\\' {
				pi++
				if pi >= len(p) {
					return wmAbortAll, 0
				}
				hi = p[pi]
			}
			if c >= prev && c <= hi {
				matched = true
			}
			pc = 0 // a range cannot be the start of another range
		case pc == '[' && pi+1 < len(p) && p[pi+1] == ':':
			nameStart := pi + 2
			end := strings.IndexByte(p[nameStart:], ']')
			if end < 0 {
				return wmAbortAll, 0
			}
			end += nameStart
			if end-1 < nameStart || p[end-1] != ':' {
				// Not a "[:class:]": the '[' is an ordinary member.
				if c == '[' {
					matched = true
				}
				break
			}
			in, ok := inClass(p[nameStart:end-1], c)
			if !ok {
				return wmAbortAll, 0
			}
			if in {
				matched = true
			}
			pi = end
			pc = 0
		default:
			if c == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		if pi < len(p) && p[pi] == ']' {
			break
		}
	}
	if matched == negated || c == '/' {
		return wmNoMatch, 0
	}
	return wmMatch, pi
}

// inClass reports whether c belongs to the POSIX class name, using git's
// ASCII-only character types; ok is false for an unknown class name.
func inClass(name string, c byte) (in, ok bool) {
	upper := c >= 'A' && c <= 'Z'
	lower := c >= 'a' && c <= 'z'
	digit := c >= '0' && c <= '9'
	alnum := upper || lower || digit
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	print := c >= 0x20 && c <= 0x7e
	switch name {
	case "alnum":
		return alnum, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return print && !space, true
	case "lower":
		return lower, true
	case "print":
		return print, true
	case "punct":
		return print && !space && !alnum, true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
