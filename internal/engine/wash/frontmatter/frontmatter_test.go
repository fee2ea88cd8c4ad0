package frontmatter

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		state      State
		keys       []string
		pinned     bool
		unreadable bool
	}{
		{"no front matter", "# Title\n\ntext\n", None, nil, false, false},
		{"empty file", "", None, nil, false, false},
		{"thematic break prose", "----\ntext\n", None, nil, false, false},
		{"fence with text tail", "--- title\n", None, nil, false, false},
		{"closed", "---\nname: x\ndescription: y\n---\nbody\n", Closed, []string{"name", "description"}, false, false},
		{"closed crlf", "---\r\nname: x\r\n---\r\nbody\r\n", Closed, []string{"name"}, false, false},
		{"dots close", "---\nname: x\n...\nbody\n", Closed, []string{"name"}, false, false},
		{"bom stripped", "\ufeff---\nname: x\n---\n", Closed, []string{"name"}, false, false},
		{"double bom", "\ufeff\ufeff---\npinned: true\n---\n", Unverifiable, nil, false, false},
		{"nul in head", "---\x00\npinned: true\n---\n", Unverifiable, nil, false, false},
		{"replacement char", "---\n\ufffd: 1\n---\n", Unverifiable, nil, false, false},
		{"invalid utf8", "---\n\xff\xfe: 1\n---\n", Unverifiable, nil, false, false},
		{"bare CR fences", "---\rpinned: true\r---\r", Unverifiable, nil, false, false},
		{"bare CR inside", "---\npinned: true\rx: 1\n---\n", Unverifiable, nil, false, false},
		{"unclosed", "---\npinned: true\n", Unverifiable, nil, false, false},
		{"non-ascii tail", "---\u200b\npinned: true\n---\n", Unverifiable, nil, false, false},
		{"zero width before fence", "\u200b---\npinned: true\n---\n", Unverifiable, nil, false, false},
		{"blank lines before fence", "\n\n---\npinned: true\n---\n", Unverifiable, nil, false, false},
		{"blank lines then prose", "\n\ntext\n", None, nil, false, false},
		{"pinned true", "---\npinned: true\n---\n", Closed, []string{"pinned"}, true, false},
		{"pinned yes", "---\npinned: yes\n---\n", Closed, []string{"pinned"}, true, false},
		{"pinned empty", "---\npinned:\n---\n", Closed, []string{"pinned"}, true, false},
		{"pinned quoted", "---\n\"pinned\": \"true\"\n---\n", Closed, []string{"pinned"}, true, false},
		{"pinned false", "---\npinned: false\n---\n", Closed, []string{"pinned"}, false, false},
		{"pinned off comment", "---\npinned: off # not now\n---\n", Closed, []string{"pinned"}, false, false},
		{"pinned nested counts", "---\nmeta:\n  pinned: true\n---\n", Closed, []string{"meta"}, true, false},
		{"pinned case", "---\nPinned: TRUE\n---\n", Closed, []string{"Pinned"}, true, false},
		{"nested and seq", "---\nname: x\ntags:\n  - a\n  - b\nmeta:\n  k: v\n# c\n---\n", Closed, []string{"name", "tags", "meta"}, false, false},
		{"block scalar", "---\ndescription: |\n  anything: at all\n  - even this\nnext: 1\n---\n", Closed, []string{"description", "next"}, false, false},
		{"continuation", "---\ndescription: a long\n  folded value\nname: n\n---\n", Closed, []string{"description", "name"}, false, false},
		{"tab indent", "---\nname: x\n\tk: v\n---\n", Closed, []string{"name"}, false, true},
		{"flow mapping key", "---\n{a: 1}\n---\n", Closed, nil, false, true},
		{"indicator key", "---\n&anchor: 1\n---\n", Closed, nil, false, true},
		{"not a key", "---\nname: x\njust words\n---\n", Closed, []string{"name"}, false, true},
		{"less indented", "---\n  name: x\nother: y\n---\n", Closed, []string{"name"}, false, true},
		{"non ascii key", "---\nnamé: x\n---\n", Closed, nil, false, true},
		{"url value", "---\nurl: https://example.com/a:b\n---\n", Closed, []string{"url"}, false, false},
		{"duplicate key", "---\na: 1\na: 2\n---\n", Closed, []string{"a"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.in))
			if r.State != tt.state {
				t.Fatalf("state = %v (%s), want %v", r.State, r.Reason, tt.state)
			}
			if !slices.Equal(r.Keys, tt.keys) {
				t.Errorf("keys = %q, want %q", r.Keys, tt.keys)
			}
			if r.Pinned != tt.pinned {
				t.Errorf("pinned = %v, want %v", r.Pinned, tt.pinned)
			}
			if r.Unreadable != tt.unreadable {
				t.Errorf("unreadable = %v (%s), want %v", r.Unreadable, r.Reason, tt.unreadable)
			}
			refuse, _ := r.Refuse()
			if want := tt.pinned || tt.unreadable || tt.state == Unverifiable; refuse != want {
				t.Errorf("refuse = %v, want %v", refuse, want)
			}
		})
	}
}

func TestEndOffset(t *testing.T) {
	in := "\ufeff---\r\nname: x\r\n---\r\nbody\r\n"
	r := Parse([]byte(in))
	if r.State != Closed {
		t.Fatalf("state %v", r.State)
	}
	if got := in[r.End:]; got != "body\r\n" {
		t.Errorf("body after End = %q", got)
	}
	if r.EndLine != 3 {
		t.Errorf("EndLine = %d, want 3", r.EndLine)
	}
}

// TestInvisibleSweep proves that no single format or control character placed around the
// opening fence turns a pinned file into an unpinned, modifiable one.
func TestInvisibleSweep(t *testing.T) {
	for c := rune(0); c <= 0xFFFF; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue
		}
		if !invisible(c) || c == ' ' || c == '\t' {
			continue
		}
		for _, in := range []string{
			string(c) + "---\npinned: true\n---\n",
			"---" + string(c) + "\npinned: true\n---\n",
		} {
			r := Parse([]byte(in))
			if refuse, _ := r.Refuse(); !refuse {
				t.Fatalf("U+%04X: pinned file not refused (state %v)", c, r.State)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"---\npinned: true\n---\n", "\ufeff---\na: 1\n---\nx", "--- x", "\n---\n", "---\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := Parse(b)
		if r.State == Closed && (r.End <= 0 || r.End > len(b)) {
			t.Fatalf("End %d out of range %d", r.End, len(b))
		}
		if r.State != Closed && r.Pinned {
			t.Fatalf("pinned without closed block")
		}
		// A pin marker in the first block must never come back unrefused.
		if strings.HasPrefix(string(b), "---\npinned: true\n") {
			if refuse, _ := r.Refuse(); !refuse {
				t.Fatalf("pin not refused")
			}
		}
	})
}
