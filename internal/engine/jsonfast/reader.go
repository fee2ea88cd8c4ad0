package jsonfast

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Reader reads the compact JSON json.Marshal writes into known types. Anything it is not
// sure encoding/json reads the same way (whitespace, an unknown or repeated member, a
// member name in another case, a number out of its field's range, a surrogate escape,
// invalid UTF-8) sets bad, and the caller hands the input to encoding/json.
type Reader struct {
	b     []byte
	i     int
	bad   bool
	depth int // of the values skip is in
}

// maxDepth is the nesting skip reads before leaving the input to encoding/json (whose own
// limit is 10,000).
const maxDepth = 256

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Done reports whether the whole input was read without a doubt.
func (r *Reader) Done() bool { return !r.bad && r.i == len(r.b) }

// Lit consumes s if it is next.
func (r *Reader) Lit(s string) bool {
	if r.bad || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// Object reads an object, giving each member's name to member, which reads its value and
// reports whether it knows the name. null leaves the value alone, as encoding/json does.
func (r *Reader) Object(member func(key string) bool) {
	if r.Lit("null") {
		return
	}
	if !r.Lit("{") {
		r.bad = true
		return
	}
	if r.Lit("}") {
		return
	}
	var seen []string
	for !r.bad {
		if r.i >= len(r.b) || r.b[r.i] != '"' {
			r.bad = true
			return
		}
		k := r.string()
		if slices.Contains(seen, k) || !r.Lit(":") || !member(k) {
			r.bad = true
			return
		}
		seen = append(seen, k)
		if !r.Lit(",") {
			break
		}
	}
	if !r.Lit("}") {
		r.bad = true
	}
}

// ReadList reads an array, each item by item: null is nil, [] an empty slice.
func ReadList[T any](r *Reader, item func(*Reader, *T)) []T {
	if r.Lit("null") {
		return nil
	}
	if !r.Lit("[") {
		r.bad = true
		return nil
	}
	out := []T{}
	if r.Lit("]") {
		return out
	}
	for !r.bad {
		var v T
		item(r, &v)
		out = append(out, v)
		if !r.Lit(",") {
			break
		}
	}
	if !r.Lit("]") {
		r.bad = true
	}
	return out
}

// ReadPtr reads an object into a new T; null is nil.
func ReadPtr[T any](r *Reader, read func(*Reader, *T)) *T {
	if r.Lit("null") {
		return nil
	}
	v := new(T)
	read(r, v)
	return v
}

func (r *Reader) Strs() []string {
	return ReadList(r, func(r *Reader, s *string) { *s = r.Str() })
}

// Str reads a string value; null is "".
func (r *Reader) Str() string {
	if r.Lit("null") {
		return ""
	}
	if r.bad || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.bad = true
		return ""
	}
	return r.string()
}

// string reads the string at i.
func (r *Reader) string() string {
	r.i++
	start := r.i
	plain := true
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			s := string(r.b[start:r.i])
			r.i++
			if !plain && !utf8.ValidString(s) {
				r.bad = true // encoding/json would replace the invalid bytes
			}
			return s
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			r.bad = true
			return ""
		case c >= utf8.RuneSelf:
			plain = false
		}
		r.i++
	}
	r.bad = true
	return ""
}

// escaped reads the rest of a string with escapes, from start; i is at the first escape.
func (r *Reader) escaped(start int) string {
	out := append([]byte(nil), r.b[start:r.i]...)
	for r.i < len(r.b) && !r.bad {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			if !utf8.Valid(out) {
				r.bad = true
			}
			return string(out)
		case c == '\\':
			out = r.escape(out)
		case c < 0x20:
			r.bad = true
		default:
			out = append(out, c)
			r.i++
		}
	}
	r.bad = true
	return ""
}

// escape appends what the escape at i stands for; a surrogate is left to encoding/json.
func (r *Reader) escape(out []byte) []byte {
	if r.i+1 >= len(r.b) {
		r.bad = true
		return out
	}
	c := r.b[r.i+1]
	r.i += 2
	switch c {
	case '"', '\\', '/':
		return append(out, c)
	case 'b':
		return append(out, '\b')
	case 'f':
		return append(out, '\f')
	case 'n':
		return append(out, '\n')
	case 'r':
		return append(out, '\r')
	case 't':
		return append(out, '\t')
	case 'u':
		if r.i+4 <= len(r.b) {
			if v, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16); err == nil && (v < 0xD800 || v > 0xDFFF) {
				r.i += 4
				return utf8.AppendRune(out, rune(v))
			}
		}
	}
	r.bad = true
	return out
}

// number reads a JSON number's literal: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *Reader) number() string {
	start := r.i
	r.Lit("-")
	if !r.Lit("0") && !r.digits() {
		r.bad = true
		return ""
	}
	if r.Lit(".") && !r.digits() {
		r.bad = true
		return ""
	}
	if r.Lit("e") || r.Lit("E") {
		if !r.Lit("+") {
			r.Lit("-")
		}
		if !r.digits() {
			r.bad = true
			return ""
		}
	}
	return string(r.b[start:r.i])
}

// digits reads one or more decimal digits.
func (r *Reader) digits() bool {
	start := r.i
	for !r.bad && r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// Int reads an int field; null is 0.
func (r *Reader) Int() int {
	return int(r.IntN(strconv.IntSize))
}

// IntN reads an integer of bits bits, as encoding/json reads one into a Go integer: a
// fraction, an exponent or an overflow is an error.
func (r *Reader) IntN(bits int) int64 {
	if r.Lit("null") {
		return 0
	}
	n, err := strconv.ParseInt(r.number(), 10, bits)
	if err != nil {
		r.bad = true
	}
	return n
}

func (r *Reader) Uint64() uint64 {
	if r.Lit("null") {
		return 0
	}
	n, err := strconv.ParseUint(r.number(), 10, 64)
	if err != nil {
		r.bad = true
	}
	return n
}

func (r *Reader) Float() float64 {
	if r.Lit("null") {
		return 0
	}
	f, err := strconv.ParseFloat(r.number(), 64)
	if err != nil {
		r.bad = true
	}
	return f
}

// Bool reads true, false or null (false).
func (r *Reader) Bool() bool {
	if r.Lit("true") {
		return true
	}
	if !r.Lit("false") && !r.Lit("null") {
		r.bad = true
	}
	return false
}

// Time reads a time through its own UnmarshalJSON, as encoding/json does (null leaves it
// alone).
func (r *Reader) Time(t *time.Time) {
	start := r.i
	if !r.Lit("null") {
		_ = r.Str()
	}
	if !r.bad && t.UnmarshalJSON(r.b[start:r.i]) != nil {
		r.bad = true
	}
}

// Decode decodes data into v, by read when it reads all of it without a doubt and by
// encoding/json otherwise; it reports whether data decoded.
func Decode[T any](data []byte, v *T, read func(*Reader, *T)) bool {
	r := NewReader(data)
	var fast T
	read(r, &fast)
	if r.Done() {
		*v = fast
		return true
	}
	return json.Unmarshal(data, v) == nil
}

// Raw reads any value and returns its bytes as they stand, as a json.RawMessage holds them.
func (r *Reader) Raw() []byte {
	start := r.i
	r.skip()
	if r.bad {
		return nil
	}
	return r.b[start:r.i]
}

// skip reads any value.
func (r *Reader) skip() {
	if r.bad || r.i >= len(r.b) || r.depth >= maxDepth {
		r.bad = true
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	switch c := r.b[r.i]; {
	case c == '{':
		r.Object(func(string) bool { r.skip(); return true })
	case c == '[':
		ReadList(r, func(r *Reader, _ *struct{}) { r.skip() })
	case c == '"':
		r.string()
	case c == '-' || c >= '0' && c <= '9':
		r.number()
	case !r.Lit("true") && !r.Lit("false") && !r.Lit("null"):
		r.bad = true
	}
}
