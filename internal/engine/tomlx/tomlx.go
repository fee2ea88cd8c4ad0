package tomlx

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Error is a TOML problem at a position in a file.
type Error struct {
	File string
	Line int // 1-based; 0 when unknown
	Col  int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "%s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is a list of problems found in one file.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap exposes each problem to errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// DecodeStrict decodes data into v, refusing unknown keys. The error names
// file, line and key of every problem.
func DecodeStrict(file string, data []byte, v any) error {
	d := toml.NewDecoder(bytes.NewReader(StripBOM(data)))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	if err == nil {
		return nil
	}
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		var es Errors
		for i := range sm.Errors {
			de := &sm.Errors[i]
			row, col := de.Position()
			es = append(es, &Error{File: file, Line: row, Col: col, Key: strings.Join(de.Key(), "."), Msg: "unknown key"})
		}
		return es
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &Error{File: file, Line: row, Col: col, Key: strings.Join(de.Key(), "."), Msg: firstLine(de.Error())}
	}
	return &Error{File: file, Msg: firstLine(err.Error())}
}

func firstLine(s string) string {
	s = strings.TrimPrefix(s, "toml: ")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	// go-toml names Go struct types; users wrote TOML.
	// Compiled here, on the error path only: nothing at process start.
	if m := regexp.MustCompile(`cannot decode TOML (\w+) into .* of type (\S+)$`).FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("expected %s, found %s", tomlType(m[2]), m[1])
	}
	return s
}

func tomlType(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "an integer"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "a table"
}

// StripBOM drops a UTF-8 byte order mark at the start of a file. TOML does
// not allow one, but editors write it and it is not part of the text, so
// prosewash reads past it (and positions count from after it, as an
// editor shows them).
func StripBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
}
