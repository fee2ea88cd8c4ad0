package gate

import (
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// A code line is compared by presence, byte for byte (whitespace collapsed). Its trailing
// comment is prose, though: a summariser rewords "./check.sh all # run every check" and keeps
// the command. A code line the result no longer holds is therefore paired with a new code line
// of the result whose code part is the same, and the two comments are compared as statements
// (their names, values, rules, order) by the gate itself; a changed code part is still a
// dropped code line.

// commentMarks is a set of line-comment markers, one bit each (markHash is "#").
type commentMarks uint8

const (
	markHash commentMarks = 1 << iota
	markSlashes
	markDashes
	markSemicolon
	// markDefault are the markers read in a fence whose language is unknown.
	markDefault = markHash | markSlashes
)

// markerText is the marker of bit bit of commentMarks.
func markerText(bit int) string { return [...]string{"#", "//", "--", ";"}[bit] }

// commentMarkers returns the line-comment markers of the language a fence names; a fence with
// no language, or one not listed, reads markDefault. Markdown, JSON and diffs have no
// comments the gate reads.
func commentMarkers(lang string) commentMarks {
	switch lang {
	case "sh", "bash", "shell", "zsh", "fish", "console", "shellsession", "powershell", "ps1",
		"python", "py", "yaml", "yml", "toml", "ruby", "rb", "perl", "r", "makefile", "make",
		"dockerfile", "docker", "cmake", "nix", "elixir", "dotenv", "env", "gitignore", "conf":
		return markHash
	case "hcl", "terraform", "php":
		return markHash | markSlashes
	case "go", "js", "javascript", "jsx", "ts", "typescript", "tsx", "java", "kotlin", "kt",
		"scala", "swift", "rust", "rs", "c", "cpp", "c++", "cs", "csharp", "dart", "groovy",
		"jsonc", "json5", "proto", "zig":
		return markSlashes
	case "sql", "lua", "haskell", "hs", "elm":
		return markDashes
	case "ini":
		return markSemicolon | markHash
	case "lisp", "clojure", "scheme", "elisp", "asm", "nasm":
		return markSemicolon
	case "markdown", "md", "json", "diff":
		return 0
	}
	return markDefault
}

// fencedLine is a code line split at its trailing comment.
type fencedLine struct {
	line          int // 1-based
	text          string
	code, comment string // collapsed; comment without its marker
	// before and after are the nearest lines around it that both versions hold: a reworded
	// line sits where its original sat, between the same kept lines.
	before, after lineKey
	placed, used  bool
}

// splitComment cuts a collapsed code line at its first comment marker that stands at the
// start or after whitespace, outside quotes; a line with no comment is all code, and a
// comment's step number stays with the code (cutStep).
func splitComment(line string, markers commentMarks) (code, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
			continue
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
			continue
		}
		if i > 0 && line[i-1] != ' ' {
			continue
		}
		for bit := 0; bit < 4; bit++ {
			if m := markerText(bit); markers&(1<<bit) != 0 && strings.HasPrefix(line[i:], m) {
				return cutStep(strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+len(m):]))
			}
		}
	}
	return line, ""
}

// cutStep keeps a comment's step number ("# 2. install the hooks") with the code: the steps
// a block's comments number are its order, and renumbering one is not rewording it.
func cutStep(code, comment string) (string, string) {
	if n := mdline.OrdinalPrefix([]byte(comment)); n > 0 {
		return code + " #" + strings.TrimSpace(comment[:n]), strings.TrimSpace(comment[n:])
	}
	return code, comment
}

// fenceMarkers returns, per line index, the comment markers of the fenced block it sits in:
// those of the language the nearest fence above it names.
func (inv *Inv) fenceMarkers() []commentMarks {
	out := make([]commentMarks, len(inv.keys))
	cur := markDefault
	for i, k := range inv.keys {
		if inv.kinds[i] == mdline.Fence {
			info := strings.TrimLeft(strings.TrimSpace(k.text), "`~")
			cur = commentMarkers(strings.ToLower(strings.Trim(firstField(info), "{}.")))
		}
		out[i] = cur
	}
	return out
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// keptNeighbour is the nearest non-blank line of its block from line index i in direction dir
// that other holds too, the fence included (the zero key when there is none).
func (inv *Inv) keptNeighbour(i, dir int, other *Inv) lineKey {
	for j := i + dir; j >= 0 && j < len(inv.keys); j += dir {
		k := inv.keys[j]
		if strings.TrimSpace(k.text) != "" && other.lines[k] != nil {
			return k
		}
		if inv.kinds[j] != mdline.Fenced {
			break
		}
	}
	return lineKey{}
}

// placeOf fills fl's kept neighbours in inv (line index fl.line-1), once.
func (inv *Inv) placeOf(fl *fencedLine, other *Inv) {
	if !fl.placed {
		fl.before, fl.after = inv.keptNeighbour(fl.line-1, -1, other), inv.keptNeighbour(fl.line-1, 1, other)
		fl.placed = true
	}
}

// newCodeLines are the result's code lines the original does not hold, in line order, by
// their code part.
func newCodeLines(o, r *Inv) map[string][]*fencedLine {
	out := map[string][]*fencedLine{}
	var markers []commentMarks
	seen := map[lineKey]bool{}
	for i, k := range r.keys {
		if r.kinds[i] != mdline.Fenced || o.lines[k] != nil || seen[k] {
			continue
		}
		seen[k] = true
		if v := collapse([]byte(k.text)); v != "" {
			if markers == nil {
				markers = r.fenceMarkers()
			}
			fl := splitFenced(i, v, markers[i])
			out[fl.code] = append(out[fl.code], fl)
		}
	}
	return out
}

func splitFenced(i int, value string, markers commentMarks) *fencedLine {
	code, comment := splitComment(value, markers)
	return &fencedLine{line: i + 1, text: value, code: code, comment: comment}
}

// commentDrops compares the code lines the result lost (gone) with the new code lines of the
// result keeping their code part in their place: each pair's comments are compared as
// statements. A lost line with no such counterpart is a dropped code line.
func commentDrops(o, r *Inv, gone []Drop) []Drop {
	if len(gone) == 0 || o.keys == nil || r.keys == nil {
		return gone // a union of several originals has no line order to read
	}
	cands := newCodeLines(o, r)
	if len(cands) == 0 {
		return gone
	}
	sort.Slice(gone, func(a, b int) bool { return gone[a].Line < gone[b].Line })
	markers := o.fenceMarkers()
	gone = mergedCodeLines(gone, cands) // a list said on one line (fenced_merge.go)
	var out []Drop
	for _, d := range gone {
		ol := splitFenced(d.Line-1, d.Value, markers[d.Line-1])
		ul := pairedCode(o, r, ol, cands[ol.code])
		if ul == nil {
			out = append(out, d)
			continue
		}
		ul.used = true
		out = append(out, commentChanges(d, *ol, *ul)...)
	}
	return out
}

// pairedCode returns the first unused candidate in ol's place (after the same kept line or
// before it), or nil.
func pairedCode(o, r *Inv, ol *fencedLine, cands []*fencedLine) *fencedLine {
	for _, c := range cands {
		if c.used {
			continue
		}
		o.placeOf(ol, r)
		r.placeOf(c, o)
		if c.before == ol.before || c.after == ol.after {
			return c
		}
	}
	return nil
}

// commentChanges compares the comments of a code line and its reworded counterpart and
// returns what the new comment lost, located on the code lines. A comment the new one does
// not align with as a statement would (too few of its stems) was replaced, not reworded, unless
// it was translated word for word (fenced_translated.go): the code line itself is the drop (gone).
func commentChanges(gone Drop, ol, ul fencedLine) []Drop {
	o, r := Inventory([]byte(ol.comment+"\n")), Inventory([]byte(ul.comment+"\n"))
	if ul.comment != "" && !allAligned(o, r) && !translatedInPlace(ol.comment, ul.comment) {
		return []Drop{gone}
	}
	drops := checkInv(o, r, checks{}, nil)
	for i := range drops {
		d := &drops[i]
		note := "comment reworded"
		if d.Note != "" {
			note += ": " + d.Note
		}
		d.Line, d.Statement, d.Note = ol.line, clipText(ol.text), note
		d.Result, d.ResultLine = clipText(ul.text), ul.line
	}
	return drops
}

// allAligned reports that every statement of o with content stems has a counterpart in r.
func allAligned(o, r *Inv) bool {
	a := align(o, r, nil)
	for _, s := range o.stmts {
		if a.to[s.id] == nil && len(o.stemsOf(s)) > 0 {
			return false
		}
	}
	return true
}
