package region

import (
	"bytes"
	"errors"
	"sort"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The TOML classifier finds comments with a small scanner (in TOML a '#'
// outside a string always starts a comment that runs to the line end) and
// has go-toml's parser, with KeepComments, confirm every one of them at the
// same byte range. A file go-toml rejects is parsed again with the
// scanner's comments blanked: when only comments were at fault (a control
// character, which TOML forbids there and a clean removes) the scan stands;
// otherwise the whole file is runtime. Keys and values, multi-line strings
// included, are runtime.

type tomlSpan struct {
	start, end int
	comment    bool
	why        string
}

func classifyTOML(src []byte) (*Map, error) {
	spans, scanErr := scanTOML(src)
	whole := func(why string) (*Map, error) {
		b := NewBuilder(len(src))
		b.Mark(0, len(src), Runtime, why)
		return b.Map("toml"), nil
	}
	if scanErr >= 0 {
		return whole("TOML error at " + lineCol(src, scanErr))
	}
	got, err := tomlComments(src)
	if err != nil {
		blanked := bytes.Clone(src)
		for _, s := range spans {
			if s.comment {
				for k := s.start + 1; k < s.end; k++ {
					blanked[k] = ' '
				}
			}
		}
		if got, err = tomlComments(blanked); err != nil {
			return whole("TOML error at " + lineCol(src, tomlErrorOffset(blanked, err)))
		}
	}
	want := 0
	for _, s := range spans {
		if s.comment {
			want++
		}
	}
	if len(got) != want {
		return whole("go-toml and the scanner disagree on the comments")
	}
	k := 0
	for _, s := range spans {
		if !s.comment {
			continue
		}
		if got[k] != [2]int{s.start, s.end} {
			return whole("go-toml and the scanner disagree on the comment at " + lineCol(src, s.start))
		}
		k++
	}
	b := NewBuilder(len(src))
	for _, s := range spans {
		if !s.comment {
			b.Mark(s.start, s.end, Runtime, s.why)
			continue
		}
		text := src[s.start:lineEnd(src[:s.end], s.start)]
		kind, why := Prose, "comment"
		if w, ok := matchAfterRemoval(text, tomlDirective); ok {
			kind, why = Directive, w
		}
		markHashComment(b, src, s.start, s.end, kind, why)
	}
	return b.Map("toml"), nil
}

// tomlComments returns go-toml's comment ranges in source order.
func tomlComments(src []byte) ([][2]int, error) {
	p := unstable.Parser{KeepComments: true}
	p.Reset(src)
	var out [][2]int
	var walk func(n *unstable.Node)
	walk = func(n *unstable.Node) {
		for ; n != nil && n.Valid(); n = n.Next() {
			if n.Kind == unstable.Comment {
				out = append(out, [2]int{int(n.Raw.Offset), int(n.Raw.Offset + n.Raw.Length)})
			}
			walk(n.Child())
		}
	}
	for p.NextExpression() {
		walk(p.Expression())
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	// Comments inside arrays are children, trailing ones siblings: sort to
	// source order.
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}

// tomlErrorOffset returns the byte offset go-toml's error points at, or 0.
func tomlErrorOffset(src []byte, err error) int {
	var perr *unstable.ParserError
	if !errors.As(err, &perr) || len(perr.Highlight) == 0 && cap(perr.Highlight) == 0 {
		return 0
	}
	off := cap(src) - cap(perr.Highlight)
	if off < 0 || off > len(src) {
		return 0
	}
	return off
}

// scanTOML returns the comments and strings of src in order, and -1, or the
// offset of a string that never ends.
func scanTOML(src []byte) ([]tomlSpan, int) {
	var spans []tomlSpan
	n := len(src)
	for i := 0; i < n; {
		switch src[i] {
		case '#':
			e := i + 1
			for e < n && src[e] != '\n' {
				e++
			}
			if e > i && src[e-1] == '\r' && e < n {
				e-- // \r\n ends the comment; a lone \r is the comment's
			}
			spans = append(spans, tomlSpan{start: i, end: e, comment: true})
			i = e
		case '"', '\'':
			end, ok := tomlStringEnd(src, i)
			if !ok {
				return nil, i
			}
			spans = append(spans, tomlSpan{start: i, end: end, why: "string"})
			i = end
		default:
			i++
		}
	}
	return spans, -1
}

// tomlStringEnd returns the offset after the string whose quote is at q.
func tomlStringEnd(src []byte, q int) (int, bool) {
	c := src[q]
	n := len(src)
	multi := q+2 < n && src[q+1] == c && src[q+2] == c
	i := q + 1
	if multi {
		i = q + 3
	}
	for i < n {
		switch {
		case src[i] == '\\' && c == '"':
			i += 2
		case src[i] == c:
			if !multi {
				return i + 1, true
			}
			if i+2 < n && src[i+1] == c && src[i+2] == c {
				// Up to two more quotes belong to the content: """a""""".
				e := i + 3
				for k := 0; k < 2 && e < n && src[e] == c; k++ {
					e++
				}
				return e, true
			}
			i++
		case (src[i] == '\n' || src[i] == '\r') && !multi:
			return 0, false
		default:
			i++
		}
	}
	return 0, false
}

func tomlWordWhy(word string) string {
	switch word {
	case "taplo", "tombi":
		return "directive: # " + word + ":"
	}
	return "directive: word:"
}

// tomlDirective matches "#:schema ./x.json" (taplo, tombi and Even Better
// TOML read it), "#:tombi ..." and the '#'-comment directives.
func tomlDirective(t []byte) (string, bool) {
	if len(t) > 2 && t[0] == '#' && t[1] == ':' && isWordStart(t[2]) {
		if bytes.HasPrefix(t[2:], []byte("schema")) {
			return "directive: #:schema", true
		}
		return "directive: #:", true
	}
	if why, ok := hashDirective(t, commonHashKeywords[:], tomlWordWhy); ok {
		return why, true
	}
	return "", false
}
