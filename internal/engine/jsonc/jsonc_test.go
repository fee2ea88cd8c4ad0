package jsonc

import (
	"encoding/json"
	"testing"
)

func TestToJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n  // c\n  \"a\": [1, 2,], /* d */\n}\n", "{\n      \n  \"a\": [1, 2 ]         \n}\n"}, // the comma before a comment and "}" trails,
		{`{"a": "x // not, a comment", "b": "\"}", }`, `{"a": "x // not, a comment", "b": "\"}"  }`},
		{"[1, /* a,\n b */ 2]", "[1,      \n      2]"},
		{`{"a": 1,}`, `{"a": 1 }`},
		{"\xef\xbb\xbf{\"a\": 1}", "   {\"a\": 1}"},                // a leading byte order mark
		{"{\"a\": \"\xef\xbb\xbf\"}", "{\"a\": \"\xef\xbb\xbf\"}"}, // elsewhere it is text
	} {
		got, err := ToJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("ToJSON(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if len(got) != len(c.in) {
			t.Errorf("ToJSON(%q) moved offsets", c.in)
		}
		if !json.Valid(got) {
			t.Errorf("ToJSON(%q) = %q is no JSON", c.in, got)
		}
	}
	for _, in := range []string{`{"a": "open}`, "{ /* open }", "\"a\nb\""} {
		if _, err := ToJSON([]byte(in)); err == nil {
			t.Errorf("ToJSON(%q) accepted broken input", in)
		}
	}
}
