package lane

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// The state is read and written at every session start, and encoding/json sets up the
// reflection of State's types again in every hook process (280-380 us of a session start,
// more than decoding and encoding the state itself). stateJSON writes exactly the bytes
// json.Marshal writes for a State, so every version reads what this one writes, and
// decodeState reads the compact form json.Marshal writes (what every version has written)
// without reflection, handing anything else to encoding/json: the fast reader only ever
// answers where it is sure encoding/json would answer the same (statejson_test.go proves
// both against encoding/json).

// jsonWriter appends JSON as json.Marshal writes it: compact, HTML characters escaped.
type jsonWriter struct {
	b     []byte
	first bool // no member written yet in the object being written
	err   error
}

func (w *jsonWriter) open() { w.b, w.first = append(w.b, '{'), true }

func (w *jsonWriter) close() { w.b, w.first = append(w.b, '}'), false }

// key writes a member's name; names are plain lower-case ASCII.
func (w *jsonWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(append(append(w.b, '"'), k...), '"', ':')
}

func (w *jsonWriter) int(k string, n int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, n, 10)
}

// optInt, optStr and optBool write a member tagged omitempty: not at all when zero.
func (w *jsonWriter) optInt(k string, n int64) {
	if n != 0 {
		w.int(k, n)
	}
}

func (w *jsonWriter) str(k, s string) {
	w.key(k)
	w.b = appendJSONString(w.b, s)
}

func (w *jsonWriter) optStr(k, s string) {
	if s != "" {
		w.str(k, s)
	}
}

func (w *jsonWriter) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jsonWriter) optBool(k string, v bool) {
	if v {
		w.bool(k, v)
	}
}

// float writes f as encoding/json does (ES6 number formatting).
func (w *jsonWriter) float(k string, f float64) {
	w.key(k)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.fail(errors.New("unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)))
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if n := len(w.b); format == 'e' && n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
		w.b[n-2] = w.b[n-1] // e-09 is written e-9
		w.b = w.b[:n-1]
	}
}

// time writes t through its own MarshalJSON, as encoding/json does (an error for a year
// RFC 3339 cannot hold).
func (w *jsonWriter) time(k string, t time.Time) {
	w.key(k)
	b, err := t.MarshalJSON()
	if err != nil {
		w.fail(err)
		return
	}
	w.b = append(w.b, b...)
}

func (w *jsonWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// strs writes a []string member tagged omitempty.
func (w *jsonWriter) strs(k string, xs []string) {
	if len(xs) > 0 {
		w.key(k)
		writeList(w, xs, func(w *jsonWriter, s *string) { w.b = appendJSONString(w.b, *s) })
	}
}

// writeList writes xs as an array, each item by item; nil is null.
func writeList[T any](w *jsonWriter, xs []T, item func(*jsonWriter, *T)) {
	if xs == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		item(w, &xs[i])
	}
	w.b = append(w.b, ']')
	w.first = false
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it: <, > and & escaped as
// \u003c and so on, control characters escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// appendEscape appends the escape encoding/json writes for the ASCII byte c.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// jsonReader reads the compact JSON json.Marshal writes into known types. Anything it is not
// sure encoding/json reads the same way (whitespace, an unknown or repeated member, a
// member name in another case, a number out of its field's range, a surrogate escape,
// invalid UTF-8) sets bad, and the caller hands the input to encoding/json.
type jsonReader struct {
	b   []byte
	i   int
	bad bool
}

// done reports whether the whole input was read without a doubt.
func (r *jsonReader) done() bool { return !r.bad && r.i == len(r.b) }

// lit consumes s if it is next.
func (r *jsonReader) lit(s string) bool {
	if r.bad || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// object reads an object, giving each member's name to member, which reads its value and
// reports whether it knows the name. null leaves the value alone, as encoding/json does.
func (r *jsonReader) object(member func(key string) bool) {
	if r.lit("null") {
		return
	}
	if !r.lit("{") {
		r.bad = true
		return
	}
	if r.lit("}") {
		return
	}
	var seen []string
	for !r.bad {
		if r.i >= len(r.b) || r.b[r.i] != '"' {
			r.bad = true
			return
		}
		k := r.string()
		if slices.Contains(seen, k) || !r.lit(":") || !member(k) {
			r.bad = true
			return
		}
		seen = append(seen, k)
		if !r.lit(",") {
			break
		}
	}
	if !r.lit("}") {
		r.bad = true
	}
}

// readList reads an array, each item by item: null is nil, [] an empty slice.
func readList[T any](r *jsonReader, item func(*jsonReader, *T)) []T {
	if r.lit("null") {
		return nil
	}
	if !r.lit("[") {
		r.bad = true
		return nil
	}
	out := []T{}
	if r.lit("]") {
		return out
	}
	for !r.bad {
		var v T
		item(r, &v)
		out = append(out, v)
		if !r.lit(",") {
			break
		}
	}
	if !r.lit("]") {
		r.bad = true
	}
	return out
}

// readPtr reads an object into a new T; null is nil.
func readPtr[T any](r *jsonReader, read func(*jsonReader, *T)) *T {
	if r.lit("null") {
		return nil
	}
	v := new(T)
	read(r, v)
	return v
}

func (r *jsonReader) strs() []string {
	return readList(r, func(r *jsonReader, s *string) { *s = r.str() })
}

// str reads a string value; null is "".
func (r *jsonReader) str() string {
	if r.lit("null") {
		return ""
	}
	if r.bad || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.bad = true
		return ""
	}
	return r.string()
}

// string reads the string at i.
func (r *jsonReader) string() string {
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
func (r *jsonReader) escaped(start int) string {
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
func (r *jsonReader) escape(out []byte) []byte {
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
func (r *jsonReader) number() string {
	start := r.i
	r.lit("-")
	if !r.lit("0") && !r.digits() {
		r.bad = true
		return ""
	}
	if r.lit(".") && !r.digits() {
		r.bad = true
		return ""
	}
	if r.lit("e") || r.lit("E") {
		if !r.lit("+") {
			r.lit("-")
		}
		if !r.digits() {
			r.bad = true
			return ""
		}
	}
	return string(r.b[start:r.i])
}

// digits reads one or more decimal digits.
func (r *jsonReader) digits() bool {
	start := r.i
	for !r.bad && r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// int reads an int field; null is 0.
func (r *jsonReader) int() int {
	return int(r.intN(strconv.IntSize))
}

// intN reads an integer of bits bits, as encoding/json reads one into a Go integer: a
// fraction, an exponent or an overflow is an error.
func (r *jsonReader) intN(bits int) int64 {
	if r.lit("null") {
		return 0
	}
	n, err := strconv.ParseInt(r.number(), 10, bits)
	if err != nil {
		r.bad = true
	}
	return n
}

func (r *jsonReader) uint64() uint64 {
	if r.lit("null") {
		return 0
	}
	n, err := strconv.ParseUint(r.number(), 10, 64)
	if err != nil {
		r.bad = true
	}
	return n
}

func (r *jsonReader) float() float64 {
	if r.lit("null") {
		return 0
	}
	f, err := strconv.ParseFloat(r.number(), 64)
	if err != nil {
		r.bad = true
	}
	return f
}

// bool reads true, false or null (false).
func (r *jsonReader) bool() bool {
	if r.lit("true") {
		return true
	}
	if !r.lit("false") && !r.lit("null") {
		r.bad = true
	}
	return false
}

// time reads a time through its own UnmarshalJSON, as encoding/json does (null leaves it
// alone).
func (r *jsonReader) time(t *time.Time) {
	start := r.i
	if !r.lit("null") {
		_ = r.str()
	}
	if !r.bad && t.UnmarshalJSON(r.b[start:r.i]) != nil {
		r.bad = true
	}
}

// decodeJSON decodes data into v, by read when it reads all of it without a doubt and by
// encoding/json otherwise; it reports whether data decoded.
func decodeJSON[T any](data []byte, v *T, read func(*jsonReader, *T)) bool {
	r := &jsonReader{b: data}
	var fast T
	read(r, &fast)
	if r.done() {
		*v = fast
		return true
	}
	return json.Unmarshal(data, v) == nil
}
