package region

import (
	"strings"
	"testing"
)

func TestTOMLRegions(t *testing.T) {
	cases := []struct {
		src, needle string
		kind        Kind
		why         string
	}{
		{"# header\na = 1\n", "# header", Prose, "comment"},
		{"a = 1 # trailing\u200b\n", "# trailing", Prose, "comment"},
		{"[t] # after a table\n", "# after", Prose, "comment"},
		{"[[a]] # after an array table\n", "# after", Prose, "comment"},
		{"a = [ # in an array\n  1, # item\n  2,\n] # end\n", "# in an", Prose, "comment"},
		{"a = [ # in an array\n  1, # item\n  2,\n] # end\n", "# item", Prose, "comment"},
		{"a = [ # in an array\n  1, # item\n  2,\n] # end\n", "# end", Prose, "comment"},
		{"a = { b = 1 } # after an inline table\n", "# after", Prose, "comment"},
		{"#:schema ./schema.json\na = 1\n", "#:schema", Directive, "directive: #:schema"},
		{"#\u200b:schema ./schema.json\na = 1\n", "#", Directive, "directive: #:schema"},
		{"#:tombi toml-version = \"v1.1.0\"\na = 1\n", "#:tombi", Directive, "directive: #:"},
		{"# taplo: x\na = 1\n", "# taplo", Directive, "directive: # taplo:"},
		{"# TODO: x\na = 1\n", "# TODO", Prose, "comment (TODO:)"},
		{"a = 1 # a\u2028b = 2\n", "# a", Prose, "comment"},
		// Not comments.
		{"a = \"# basic\"\n", "# basic", Runtime, "string"},
		{"a = '# literal'\n", "# literal", Runtime, "string"},
		{"a = \"\"\"\n# multi-line basic\n\"\"\"\n", "# multi", Runtime, "string"},
		{"a = '''\n# multi-line literal\n'''\n", "# multi", Runtime, "string"},
		{"a = \"\"\"x\"\"\"\" # after four quotes\n", "# after", Prose, "comment"},
		{"a = \"\"\"\\\"\"\"# escaped quote\"\"\"\n", "# escaped", Runtime, "string"},
		{"a = \"\"\"\\\"\"\"\"# after the closing quotes\n", "# after", Prose, "comment"},
		{"\"# quoted key\" = 1\n", "# quoted", Runtime, "string"},
		{"a = \"\\\"# after an escape\"\n", "# after", Runtime, "string"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.toml", c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q at %q: got %s %q, want %s %q", c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestTOMLInvalid(t *testing.T) {
	// A control character in a comment makes the file invalid TOML; only
	// the comment is at fault, and cleaning it repairs the file.
	for _, src := range []string{"# bell \x07 here\na = 1\n", "a = 1 # del \x7f\n", "# cr \r here\na = 1\n"} {
		m, err := Classify("t.toml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if r := m.At(strings.Index(src, "#")); r.Kind != Prose {
			t.Errorf("%q: comment is %s %q", src, r.Kind, r.Why)
		}
	}
	// Errors outside comments make the whole file runtime.
	for src, why := range map[string]string{
		"# c\na = \"open\n":   "TOML error at 2:5",
		"# c\na = = 1\n":      "TOML error at 2:5",
		"# c\na = 1\na = 2\n": "", // duplicate keys are the decoder's business
	} {
		m, err := Classify("t.toml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if why == "" {
			if m.At(0).Kind != Prose {
				t.Errorf("%q: %v", src, m.Regions)
			}
			continue
		}
		if len(m.Regions) != 1 || m.Regions[0].Kind != Runtime || m.Regions[0].Why != why {
			t.Errorf("%q: got %v, want one runtime region %q", src, m.Regions, why)
		}
	}
}
