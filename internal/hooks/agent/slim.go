package agent

import "bytes"

// kept names the members of a payload object its reader decodes, by their
// JSON names in lower case; a non-nil value is the same for that member's
// own object. Every other member is cut before encoding/json sees the
// payload: a post-tool-use payload carries the written file's content twice
// (tool_input and tool_response, and an Edit's originalFile a third time),
// and encoding/json's scanner spends tens of instructions on every byte of
// them, which was the largest part of that hook's own work.
type kept map[string]kept

// maxSlimDepth is the nesting slim reads before leaving the payload to
// encoding/json whole (whose own limit is 10,000).
const maxSlimDepth = 256

// slim returns data with the members keep does not name cut out, or false
// when data is not a JSON object slim is sure encoding/json reads the same
// way: then the caller decodes data itself, with encoding/json's errors.
// slim accepts only what encoding/json accepts, and keeps every member whose
// name has an escape or a non-ASCII byte (encoding/json matches names
// case-insensitively, with Unicode folding slim does not repeat), so
// decoding its answer into a struct whose fields keep names fills the
// struct exactly as decoding data would.
func slim(data []byte, keep kept) ([]byte, bool) {
	s := &scanner{data: data}
	s.space()
	out, ok := s.object(keep, make([]byte, 0, 512))
	if !ok {
		return nil, false
	}
	s.space()
	return out, s.i == len(data)
}

// scanner reads JSON from data at i, validating as encoding/json does.
type scanner struct {
	data  []byte
	i     int
	depth int
}

func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// object reads an object at i and appends it to out with only the members
// keep names.
func (s *scanner) object(keep kept, out []byte) ([]byte, bool) {
	if s.i >= len(s.data) || s.data[s.i] != '{' {
		return nil, false
	}
	out = append(out, '{')
	first := true
	ok := s.list('}', func() bool {
		var ok bool
		out, first, ok = s.member(keep, out, first)
		return ok
	})
	return append(out, '}'), ok
}

// member reads one "name": value pair and appends it to out if keep names
// it, its value slimmed in turn when keep has names for it and it is an
// object.
func (s *scanner) member(keep kept, out []byte, first bool) ([]byte, bool, bool) {
	start := s.i
	plain, ok := s.string()
	name := s.data[start:s.i]
	if !ok || !s.colon() {
		return nil, false, false
	}
	inner, want := keep[string(bytes.ToLower(name[1:len(name)-1]))]
	want = want || !plain
	vstart := s.i
	if !want || inner == nil || !plain || s.data[s.i] != '{' {
		if !s.value() {
			return nil, false, false
		}
		if !want {
			return out, first, true
		}
		return append(s.sep(out, first, name), s.data[vstart:s.i]...), false, true
	}
	out, ok = s.object(inner, s.sep(out, first, name))
	return out, false, ok
}

// colon reads the space, colon and space after a member's name.
func (s *scanner) colon() bool {
	s.space()
	if s.i >= len(s.data) || s.data[s.i] != ':' {
		return false
	}
	s.i++
	s.space()
	return s.i < len(s.data)
}

// sep appends a member's name, after a comma unless it is the first.
func (s *scanner) sep(out []byte, first bool, name []byte) []byte {
	if !first {
		out = append(out, ',')
	}
	return append(append(out, name...), ':')
}

// skipObject reads an object at i that nothing keeps.
func (s *scanner) skipObject() bool {
	return s.list('}', func() bool {
		_, ok := s.string()
		return ok && s.colon() && s.value()
	})
}

// value reads any JSON value at i.
func (s *scanner) value() bool {
	if s.i >= len(s.data) {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.skipObject()
	case c == '[':
		return s.list(']', s.value)
	case c == '"':
		_, ok := s.string()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(s.data[s.i:], []byte(lit)) {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// list reads an array or an object that nothing keeps, from its opening
// bracket to end: items separated by commas, each read by item.
func (s *scanner) list(end byte, item func() bool) bool {
	if s.depth >= maxSlimDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	s.i++
	s.space()
	if s.i < len(s.data) && s.data[s.i] == end {
		s.i++
		return true
	}
	for {
		if !item() {
			return false
		}
		s.space()
		if s.i >= len(s.data) {
			return false
		}
		c := s.data[s.i]
		s.i++
		if c == end {
			return true
		}
		if c != ',' {
			return false
		}
		s.space()
	}
}

// string reads a string at i; plain says it holds only ASCII and no
// escape. The quote and the escapes are found with bytes.IndexByte, eight
// or more bytes a step: a payload is mostly the text of one or two long
// strings (a file's content).
func (s *scanner) string() (plain, ok bool) {
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return false, false
	}
	s.i++
	plain = true
	quote := -1 // where the next unescaped quote may be
	for {
		if quote < s.i {
			if quote = bytes.IndexByte(s.data[s.i:], '"'); quote < 0 {
				return false, false
			}
			quote += s.i
		}
		seg := s.data[s.i:quote]
		esc := bytes.IndexByte(seg, '\\')
		if esc >= 0 {
			seg = seg[:esc]
		}
		for _, c := range seg {
			if c < 0x20 {
				return false, false
			}
			plain = plain && c < 0x80
		}
		if esc < 0 {
			s.i = quote + 1
			return plain, true
		}
		s.i += esc
		plain = false
		if !s.escape() {
			return false, false
		}
	}
}

// escape reads the escape at i: \" \\ \/ \b \f \n \r \t or \u and four
// hexadecimal digits.
func (s *scanner) escape() bool {
	if s.i+1 >= len(s.data) {
		return false
	}
	switch s.data[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.data) {
			return false
		}
		for _, h := range s.data[s.i+2 : s.i+6] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() bool {
	if s.i < len(s.data) && s.data[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.data) && s.data[s.i] == '0' {
		s.i++
	} else if !s.digits() {
		return false
	}
	if s.i < len(s.data) && s.data[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more decimal digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
