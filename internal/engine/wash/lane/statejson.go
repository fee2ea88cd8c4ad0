package lane

import (
	"errors"
	"math"
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
