package gitconfig

import (
	"fmt"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// Entry is one "key = value" of a config file. Section and Key are
// lower-cased (git compares them without case); Subsection keeps its case.
type Entry struct {
	Section, Subsection, Key, Value string
	// NoValue is true for a bare "key" line, which git reads as true.
	NoValue bool
}

// Parse reads git's config syntax: [section], [section "subsection"],
// [section.subsection] (old style), key = value, comments after # and ;
// outside quotes, double quotes, the escapes \\ \" \n \t \b and a
// backslash at the end of a line continuing the value. A malformed file is
// an error: git refuses such a file, and so do we, rather than guess.
func Parse(data []byte) ([]Entry, error) {
	var out []Entry
	section, sub := "", ""
	lines := strings.Split(string(data), "\n")
	for ln := 0; ln < len(lines); ln++ {
		line := strings.TrimRight(lines[ln], "\r")
		t := strings.TrimLeft(line, " \t")
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			end := strings.IndexByte(t, ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated section header", ln+1)
			}
			head := t[1:end]
			rest := strings.TrimLeft(t[end+1:], " \t")
			if rest != "" && rest[0] != '#' && rest[0] != ';' {
				// A key may follow the header on the same line.
				lines[ln] = rest
				ln--
			}
			if i := strings.IndexAny(head, " \t"); i >= 0 {
				name := strings.TrimSpace(head[i:])
				if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
					return nil, fmt.Errorf("line %d: bad subsection", ln+1)
				}
				section, sub = strings.ToLower(head[:i]), unescapeSub(name[1:len(name)-1])
			} else if i := strings.IndexByte(head, '.'); i >= 0 {
				section, sub = strings.ToLower(head[:i]), strings.ToLower(head[i+1:])
			} else {
				section, sub = strings.ToLower(head), ""
			}
			if section == "" {
				return nil, fmt.Errorf("line %d: empty section name", ln+1)
			}
			continue
		}
		if section == "" {
			return nil, fmt.Errorf("line %d: key outside a section", ln+1)
		}
		k := 0
		for k < len(t) && (isAlnum(t[k]) || t[k] == '-') {
			k++
		}
		if k == 0 {
			return nil, fmt.Errorf("line %d: bad key", ln+1)
		}
		e := Entry{Section: section, Subsection: sub, Key: strings.ToLower(t[:k])}
		rest := strings.TrimLeft(t[k:], " \t")
		if rest == "" || rest[0] == '#' || rest[0] == ';' {
			e.NoValue = true
			out = append(out, e)
			continue
		}
		if rest[0] != '=' {
			return nil, fmt.Errorf("line %d: expected '=' after %s", ln+1, e.Key)
		}
		raw := rest[1:]
		// Continuation lines: a value ending in an unescaped backslash.
		for strings.HasSuffix(raw, "\\") && !strings.HasSuffix(raw, "\\\\") && ln+1 < len(lines) {
			ln++
			raw = raw[:len(raw)-1] + strings.TrimRight(lines[ln], "\r")
		}
		v, err := value(raw)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", ln+1, err)
		}
		e.Value = v
		out = append(out, e)
	}
	return out, nil
}

func value(raw string) (string, error) {
	var b strings.Builder
	quoted := false
	pendingSpace := ""
	raw = strings.TrimLeft(raw, " \t")
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			quoted = !quoted
			b.WriteString(pendingSpace)
			pendingSpace = ""
		case c == '\\':
			if i+1 >= len(raw) {
				return "", fmt.Errorf("dangling backslash")
			}
			i++
			b.WriteString(pendingSpace)
			pendingSpace = ""
			switch raw[i] {
			case '\\', '"':
				b.WriteByte(raw[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				s := b.String()
				b.Reset()
				if len(s) > 0 {
					b.WriteString(s[:len(s)-1])
				}
			default:
				return "", fmt.Errorf("bad escape \\%c", raw[i])
			}
		case !quoted && (c == '#' || c == ';'):
			i = len(raw)
		case !quoted && (c == ' ' || c == '\t'):
			pendingSpace += " " // git turns each unquoted blank into a space
		default:
			b.WriteString(pendingSpace)
			pendingSpace = ""
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", fmt.Errorf("unterminated quote")
	}
	return b.String(), nil
}

func unescapeSub(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Last returns the last value of section.key (no subsection) in a file,
// and whether it was set. An unreadable or malformed file sets nothing.
func Last(file, section, key string) (string, bool) {
	data, err := fsx.ReadRegular(file, 0, true)
	if err != nil {
		return "", false
	}
	es, err := Parse(data)
	if err != nil {
		return "", false
	}
	v, set := "", false
	for _, e := range es {
		if e.Section == section && e.Subsection == "" && e.Key == key {
			v, set = e.Value, true
		}
	}
	return v, set
}
