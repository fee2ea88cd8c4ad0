package walk

import (
	"bytes"
	"strings"
)

// ruleKind selects the cheapest test that is exact for a pattern.
type ruleKind uint8

const (
	kindExact  ruleKind = iota // no glob character at all: string equality
	kindSuffix                 // '*' followed by a literal: suffix test
	kindGlob                   // anything else: wildmatch
)

// rule is one compiled gitignore line.
type rule struct {
	pat      string // without '!', leading '/' and trailing '/'
	negate   bool   // "!pat" re-includes
	dirOnly  bool   // "pat/" matches directories only
	basename bool   // no '/' in pat: matched against the entry name at any depth
	kind     ruleKind
	literal  int // length of the glob-free prefix of pat
}

// level is the rules of one source (a .gitignore, info/exclude or the
// global excludes file). Levels chain from the innermost directory outwards;
// the first rule that matches, searching innermost level first and the last
// line of a level first, decides.
type level struct {
	parent *level
	base   string // directory of the source relative to the repository root, "" for the root
	rules  []rule
}

// parseIgnore compiles the lines of a gitignore-format file.
func parseIgnore(data []byte) []rule {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var rules []rule
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if r, ok := parseRule(string(trimTrailingSpaces(line))); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

// trimTrailingSpaces drops unescaped trailing spaces ("a\ " keeps its space).
func trimTrailingSpaces(line []byte) []byte {
	end := len(line)
	lastSpace := -1
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(line) {
				return line
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		end = lastSpace
	}
	return line[:end]
}

// parseRule compiles one non-comment line; ok is false for a line that can
// match nothing.
func parseRule(s string) (rule, bool) {
	var r rule
	if strings.HasPrefix(s, "!") {
		r.negate = true
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		r.dirOnly = true
		s = s[:len(s)-1]
	}
	r.basename = strings.IndexByte(s, '/') < 0
	if !r.basename {
		s = strings.TrimPrefix(s, "/")
		// "**/x" with no further slash matches x at any depth, exactly like
		// the basename pattern "x", and is far cheaper to test that way.
		if rest, ok := strings.CutPrefix(s, "**/"); ok && strings.IndexByte(rest, '/') < 0 && rest != "" {
			s = rest
			r.basename = true
		}
	}
	if s == "" {
		return rule{}, false
	}
	r.pat = s
	r.literal = len(s)
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			r.literal = i
			break
		}
	}
	switch {
	case r.literal == len(s):
		r.kind = kindExact
	case s[0] == '*' && len(s) > 1 && !strings.ContainsAny(s[1:], "*?[\\"):
		r.kind = kindSuffix
	default:
		r.kind = kindGlob
	}
	return r, true
}

// match reports whether the rule matches the entry name inside the directory
// dir, where dir is relative to the rule's own level ("" for the level's
// directory itself).
func (r *rule) match(dir, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.basename {
		switch r.kind {
		case kindExact:
			return name == r.pat
		case kindSuffix:
			return strings.HasSuffix(name, r.pat[1:])
		}
		return wildmatch(r.pat, name)
	}
	// The path relative to the level is dir + "/" + name; test the cheap
	// parts before building it.
	textLen := len(name)
	if dir != "" {
		textLen += len(dir) + 1
	}
	if textLen < r.literal {
		return false
	}
	if r.kind == kindExact {
		if dir == "" {
			return name == r.pat
		}
		return len(r.pat) == len(dir)+1+len(name) && strings.HasPrefix(r.pat, dir) &&
			r.pat[len(dir)] == '/' && strings.HasSuffix(r.pat, name)
	}
	if dir == "" {
		return wildmatch(r.pat, name)
	}
	if r.literal > 0 {
		// The literal prefix must agree with the directory part first.
		n := min(r.literal, len(dir))
		if r.pat[:n] != dir[:n] {
			return false
		}
	}
	return wildmatch(r.pat, dir+"/"+name)
}

// ignored decides an entry of the directory whose path relative to the
// repository root is rel, consulting top and the levels it chains to.
func ignored(top *level, rel, name string, isDir bool) bool {
	for l := top; l != nil; l = l.parent {
		dir := rel
		if l.base != "" {
			// rel is always at or below l.base.
			if len(rel) == len(l.base) {
				dir = ""
			} else {
				dir = rel[len(l.base)+1:]
			}
		}
		for i := len(l.rules) - 1; i >= 0; i-- {
			r := &l.rules[i]
			if r.match(dir, name, isDir) {
				return !r.negate
			}
		}
	}
	return false
}
