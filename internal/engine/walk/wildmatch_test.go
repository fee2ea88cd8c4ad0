package walk

import (
	"strings"
	"testing"
)

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"abc", "abc", true},
		{"abc", "abd", false},
		{"", "", true},
		{"", "a", false},
		{"a", "", false},
		{"*", "", true},
		{"*", "abc", true},
		{"*", "a/b", false},
		{"**", "a/b", true},
		{"a*", "a/b", false},
		{"*/b", "a/b", true},
		{"*/b", "a/c/b", false},
		{"**/b", "b", true},
		{"**/b", "a/c/b", true},
		{"a/**", "a/b/c", true},
		{"a/**", "a", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a**b", "a/b", false}, // not a whole component: just a star
		{"a**b", "axxb", true},
		{"***", "a/b", true},
		{"?", "a", true},
		{"?", "/", false},
		{"??", "a", false},
		{"[abc]", "b", true},
		{"[abc]", "d", false},
		{"[!abc]", "d", true},
		{"[^abc]", "a", false},
		{"[a-c]", "b", true},
		{"[a-c]", "-", false},
		{"[a-]", "-", true},
		{"[]a]", "]", true},
		{"[]-a]", "`", true},
		{"[!]a]", "]", false},
		{"[/]", "/", false},
		{"[!a]", "/", false},
		{"[", "[", false}, // unterminated: never matches
		{"[a", "a", false},
		{"[[:alpha:]]", "q", true},
		{"[[:alpha:]]", "1", false},
		{"[[:digit:][:upper:]]", "Q", true},
		{"[[:space:]]", " ", true},
		{"[[:punct:]]", "!", true},
		{"[[:xdigit:]]", "f", true},
		{"[[:xdigit:]]", "g", false},
		{"[[:nope:]]", "a", false},
		{"[[:alpha:]", "a", false},
		{"[[:]a]", ":a]", true}, // no ":]" before "]": the set is "[[:]"
		{"[[:]a]", ":", false},
		{`\*`, "*", true},
		{`\*`, "a", false},
		{`a\`, "a", false},
		{`[\]]`, "]", true},
		{`[\-a]`, "-", true},
		{`[a\-c]`, "b", false},
		{"*.go", "x.go", true},
		{"*.go", ".go", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 60), false},
		{"**/**/**/**/**/x", strings.Repeat("a/", 30) + "y", false},
		{"ż?", "żx", true},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

// quote escapes every byte so that the pattern matches text literally.
func quote(text string) string {
	var sb strings.Builder
	for i := 0; i < len(text); i++ {
		sb.WriteByte('\\')
		sb.WriteByte(text[i])
	}
	return sb.String()
}

func FuzzWildmatch(f *testing.F) {
	for _, s := range [][2]string{{"a*b", "axb"}, {"**/x", "a/b/x"}, {"[!a-c]", "d"}, {"[[:alpha:]]*", "q/"}, {`\`, ""}, {"a/**/b", "a/b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		got := wildmatch(pattern, text) // must terminate without panicking
		if !strings.ContainsAny(pattern, "*?[\\") && got != (pattern == text) {
			t.Errorf("literal %q vs %q: %v", pattern, text, got)
		}
		if !wildmatch(quote(text), text) {
			t.Errorf("quoted %q does not match itself", text)
		}
		if text != pattern && wildmatch(quote(pattern), text) {
			t.Errorf("quoted %q matches %q", pattern, text)
		}
		if wildmatch("*", text) == strings.Contains(text, "/") {
			t.Errorf("* vs %q", text)
		}
		if !wildmatch("**", text) {
			t.Errorf("** does not match %q", text)
		}
	})
}

func FuzzParseIgnore(f *testing.F) {
	f.Add([]byte("*.o\n!keep.o\n/build/\n**/x\n\\#a \\ \n"), "a/b", "c")
	f.Fuzz(func(t *testing.T, data []byte, dir, name string) {
		rules := parseIgnore(data)
		for _, r := range rules {
			if r.pat == "" {
				t.Fatalf("empty pattern from %q", data)
			}
			if r.basename && strings.Contains(r.pat, "/") {
				t.Fatalf("basename rule with a slash: %+v", r)
			}
			// The fast kinds must agree with the general matcher.
			if r.basename && !strings.Contains(name, "/") {
				if got, want := r.match("", name, false), !r.dirOnly && wildmatch(r.pat, name); got != want {
					t.Errorf("rule %+v on %q: %v, wildmatch says %v", r, name, got, want)
				}
			}
			if !r.basename && dir != "" && !strings.Contains(name, "/") {
				if got, want := r.match(dir, name, true), wildmatch(r.pat, dir+"/"+name); got != want {
					t.Errorf("rule %+v on %q/%q: %v, wildmatch says %v", r, dir, name, got, want)
				}
			}
		}
	})
}
