package mdline

import (
	"strings"
	"testing"
)

func kinds(src string) string {
	d := Parse([]byte(src))
	var out []string
	for _, l := range d.Lines {
		out = append(out, l.Kind.String())
	}
	return strings.Join(out, ",")
}

func TestClassify(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"front matter", "---\na: 1\n---\ntext\n", "front-matter,front-matter,front-matter,text"},
		{"front matter of comments only", "---\n# a: 1\n---\ntext\n", "front-matter,front-matter,front-matter,text"},
		{"two rules around prose are no front matter", "---\n\n## Build\n\n```sh\nmake\n```\n\nRun it.\n\n---\n", "thematic-break,blank,heading,blank,fence,fenced,fence,blank,text,blank,thematic-break"},
		{"fence", "```go\nx\n\n```\nafter\n", "fence,fenced,fenced,fence,text"},
		{"tilde fence longer close", "~~~\n```\n~~~~\n", "fence,fenced,fence"},
		{"unclosed fence", "```\na\nb\n", "fence,fenced,fenced"},
		{"indented after blank", "para\n\n    code\n\n    more\n\nafter\n", "text,blank,indented,indented,indented,blank,text"},
		{"indented continuation is prose", "para\n    still para\n", "text,text"},
		{"list continuation not code", "- item\n\n    continued\n", "text,blank,text"},
		{"code inside list item", "- item\n\n      code\n", "text,blank,indented"},
		{"atx and setext", "# H1\nTitle\n=====\nSub\n---\n", "heading,heading,setext-underline,heading,setext-underline"},
		{"thematic break", "a\n\n---\n\n* * *\n", "text,blank,thematic-break,blank,thematic-break"},
		{"table", "| a | b |\n|---|:-:|\n| 1 | 2 |\nafter\n", "table-row,table-sep,table-row,text"},
		{"fence in list", "- step\n  ```\n  x\n  ```\n", "text,fence,fenced,fence"},
		// CommonMark: a code block inside a list item ends with the item, closed or not.
		{"unclosed fence ends with its list item", "- step\n  ```svelte\n  <br />\n\nNext\n", "text,fence,fenced,fenced,text"},
		{"unclosed fence in list, continued item", "- step\n  ```\n  a\n\n  b\n", "text,fence,fenced,fenced,fenced"},
		{"crlf", "a\r\n\r\n", "text,blank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kinds(tt.src); got != tt.want {
				t.Errorf("kinds = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestStrayFences(t *testing.T) {
	tests := []struct {
		name, src string
		want      []Stray
	}{
		{"balanced", "```go\nx\n```\ntext\n", nil},
		{"unclosed to the end", "a\n```\nb\nc\n", []Stray{{Line: 2, End: 4}}},
		{"unclosed last line", "a\n```", []Stray{{Line: 2, End: 2}}},
		// mission-control CLAUDE.md: a surplus closing fence turns the prose after it into
		// code until the author's next opener ("```bash") is taken for its closer.
		{"swallows the next opener", "```\ntree\n```\n```\n## Rules\n- x\n```bash\nnpm run dev\n```\n",
			[]Stray{{Line: 4, End: 8, Inner: 7}}},
		{"longer outer fence nests legitimately", "````md\n```bash\nx\n```\n````\n", nil},
		{"tilde inner is content", "```\n~~~py\n```\n", nil},
		{"list item ends the block", "- a\n  ```\n  x\nB\n", []Stray{{Line: 2, End: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse([]byte(tt.src)).StrayFences()
			if len(got) != len(tt.want) {
				t.Fatalf("stray = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("stray = %+v, want %+v", got, tt.want)
				}
			}
			line := 0
			if len(tt.want) > 0 {
				line = tt.want[0].Line
			}
			if StrayFence([]byte(tt.src)) != line {
				t.Errorf("StrayFence = %d, want %d", StrayFence([]byte(tt.src)), line)
			}
		})
	}
}

func TestSplitTerminators(t *testing.T) {
	src := []byte("a\r\nb\rc\nd")
	ls := Split(src)
	if len(ls) != 3 || ls[0].TermLen != 2 || string(ls[1].Text(src)) != "b\rc" || ls[2].TermLen != 0 {
		t.Fatalf("split = %+v", ls)
	}
}

func TestOrdinalPrefix(t *testing.T) {
	tests := map[string]int{"1. a": 2, "10) b": 3, "## 2.1 Setup": 6, "## 2024 Plans": 0, "## 3) Deploy": 5, "## 4. Test": 5, "# Title": 0, "3.14 is pi": 0, "2024. year": 5, "- x": 0}
	for in, want := range tests {
		if got := OrdinalPrefix([]byte(in)); got != want {
			t.Errorf("OrdinalPrefix(%q) = %d, want %d", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\na: 1\n---\n```\nx\n```\n    y\n| a |\n|---|\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Parse(b)
		n := 0
		for _, l := range d.Lines {
			if l.Start != n || l.End < l.Start || l.End > len(b) {
				t.Fatalf("bad line %+v at %d", l, n)
			}
			n = l.End + l.TermLen
		}
		if n != len(b) {
			t.Fatalf("lines cover %d of %d bytes", n, len(b))
		}
		prev := 0
		for _, s := range d.StrayFences() {
			if s.Line <= prev || s.Line > s.End && s.End != s.Line-1 || s.End > len(d.Lines) || d.Lines[s.Line-1].Kind != Fence ||
				s.Inner != 0 && (s.Inner <= s.Line || s.Inner > s.End) {
				t.Fatalf("bad stray fence %+v in %d lines", s, len(d.Lines))
			}
			prev = s.Line
		}
	})
}
