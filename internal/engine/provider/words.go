package provider

import (
	"path/filepath"
	"strings"
)

// Hand-written matchers instead of package-level regexps: every prosewash
// process (hooks included) would pay for compiling those at start-up.

// validID reports whether s is a definition or operation name: 1 to 64 of
// [a-z0-9._-], starting with a letter or digit.
func validID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// replaceVars calls fn for every ${name} (name of [a-z_]+) in s and
// substitutes its result.
func replaceVars(s string, fn func(name string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + 2
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '_') {
			j++
		}
		if j == i+2 || j >= len(s) || s[j] != '}' {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(fn(s[i+2 : j]))
		s = s[j+1:]
	}
}

// varNames lists the ${name} references in s.
func varNames(s string) []string {
	var names []string
	replaceVars(s, func(n string) string { names = append(names, n); return "" })
	return names
}

// urls finds scheme://... runs in s: a scheme of [A-Za-z][A-Za-z0-9+.-]*,
// then everything up to whitespace or a quote or angle bracket.
func urls(s string) []string {
	var out []string
	for off := 0; ; {
		k := strings.Index(s[off:], "://")
		if k < 0 {
			return out
		}
		k += off
		start := k
		for start > 0 && schemeByte(s[start-1]) {
			start--
		}
		for start < k && !(s[start] >= 'a' && s[start] <= 'z' || s[start] >= 'A' && s[start] <= 'Z') {
			start++
		}
		end := k + 3
		for end < len(s) && !strings.ContainsRune(" \t\n\r\f\v\"'<>", rune(s[end])) {
			end++
		}
		if start < k && end > k+3 {
			out = append(out, s[start:end])
		}
		off = end
	}
}

func schemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// isInterpreter reports whether a program is a language interpreter or a
// shell: run bare, it executes whatever its arguments say, so it cannot be
// bound to content.
func isInterpreter(prog string) bool {
	name := strings.TrimSuffix(filepath.Base(prog), ".exe")
	for _, p := range []string{"python", "pypy"} {
		if rest, ok := strings.CutPrefix(name, p); ok && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	switch name {
	case "node", "nodejs", "deno", "bun", "sh", "bash", "dash", "zsh", "ksh", "fish", "ruby", "perl", "php",
		"pwsh", "powershell", "lua", "Rscript", "osascript", "env":
		return true
	}
	return false
}
