package jsonfast

import (
	"errors"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Writer appends JSON as json.Marshal writes it: compact, HTML characters escaped.
type Writer struct {
	b     []byte
	first bool // no member written yet in the object being written
	err   error
}

func (w *Writer) Open() { w.b, w.first = append(w.b, '{'), true }

func (w *Writer) Close() { w.b, w.first = append(w.b, '}'), false }

// NewWriter starts a document in a buffer of size bytes.
func NewWriter(size int) *Writer { return &Writer{b: make([]byte, 0, size)} }

// Bytes is what was written, or the first error writing it.
func (w *Writer) Bytes() ([]byte, error) { return w.b, w.err }

// Key writes a member's name, quoted as encoding/json quotes a map's keys.
func (w *Writer) Key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(AppendString(w.b, k), ':')
}

// Uint writes an unsigned integer member.
func (w *Writer) Uint(k string, n uint64) {
	w.Key(k)
	w.b = strconv.AppendUint(w.b, n, 10)
}

func (w *Writer) Int(k string, n int64) {
	w.Key(k)
	w.b = strconv.AppendInt(w.b, n, 10)
}

// optInt, optStr and optBool write a member tagged omitempty: not at all when zero.
func (w *Writer) OptInt(k string, n int64) {
	if n != 0 {
		w.Int(k, n)
	}
}

func (w *Writer) Str(k, s string) {
	w.Key(k)
	w.b = AppendString(w.b, s)
}

func (w *Writer) OptStr(k, s string) {
	if s != "" {
		w.Str(k, s)
	}
}

func (w *Writer) Bool(k string, v bool) {
	w.Key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *Writer) OptBool(k string, v bool) {
	if v {
		w.Bool(k, v)
	}
}

// Float writes f as encoding/json does (ES6 number formatting).
func (w *Writer) Float(k string, f float64) {
	w.Key(k)
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

// Time writes t through its own MarshalJSON, as encoding/json does (an error for a year
// RFC 3339 cannot hold).
func (w *Writer) Time(k string, t time.Time) {
	w.Key(k)
	b, err := t.MarshalJSON()
	if err != nil {
		w.fail(err)
		return
	}
	w.b = append(w.b, b...)
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Strs writes a []string member tagged omitempty.
func (w *Writer) Strs(k string, xs []string) {
	if len(xs) > 0 {
		w.Key(k)
		WriteList(w, xs, func(w *Writer, s *string) { w.b = AppendString(w.b, *s) })
	}
}

// WriteList writes xs as an array, each item by item; nil is null.
func WriteList[T any](w *Writer, xs []T, item func(*Writer, *T)) {
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

// AppendString appends s quoted as encoding/json quotes it: <, > and & escaped as
// \u003c and so on, control characters escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped.
func AppendString(b []byte, s string) []byte {
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
