package region

import (
	"encoding/json"
	"strings"
	"testing"
)

// mdKinds returns the kinds of the bytes of needle's first occurrence.
func mdKinds(t *testing.T, src, needle string) map[Kind]bool {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("%q not in %q", needle, src)
	}
	m, err := classifyMarkdown([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]bool{}
	for k := i; k < i+len(needle); k++ {
		kinds[m.At(k).Kind] = true
	}
	return kinds
}

type markdownRegionCase struct {
	src     string
	prose   []string // every byte prose
	runtime []string // every byte runtime
}

// markdownCases returns the sources of markdownRegionCases.
func markdownCases() []string {
	var out []string
	for _, c := range markdownRegionCases() {
		out = append(out, c.src)
	}
	return out
}

func markdownRegionCases() []markdownRegionCase {
	return []markdownRegionCase{
		{"# Title\n", []string{"Title"}, []string{"# "}},
		{"Para *em* **st** _u_.\n", []string{"Para ", "em", "st", "u"}, []string{"\n"}},
		{"a [text](https://x.y/z \"T\") b\n", []string{"text", "a ", " b"}, []string{"](https://x.y/z \"T\")"}},
		{"![alt](p.png 'T')\n", []string{"alt"}, []string{"(p.png 'T')"}},
		{"see <https://x.y> and <a@b.c>\n", []string{"see "}, []string{"<https://x.y>", "<a@b.c>"}},
		{"bare https://x.y/p and www.x.y here\n", []string{"bare", "here"}, []string{"https://x.y/p", "www.x.y"}},
		// A shortcut reference's text is its label: whether a carrier
		// stays decides whether the link forms (found on nanoid's README).
		{"IE [with Ba\u200bbel] x [other] y\n\n[With  babel]: https://x.y\n", []string{"IE ", "other", " y"}, []string{"with Ba\u200bbel"}},
		{"[a\u200b][] and [b][a]\n\n[A]: /u\n", []string{" and ", "b"}, []string{"a\u200b", "[a]"}},
		// GFM's extended email autolinks, whole or broken by a carrier (Prometheus's MAINTAINERS.md).
		{"Julien (roide\u200blapluie@prometheus.io / @roidelapluie) and a.b+c@d.e.\n", []string{"Julien (", " / @roidelapluie) and "}, []string{"roide\u200blapluie@prometheus.io", "a.b+c@d.e"}},
		// An exotic space or carrier before a bare address or URL decides whether GFM links it.
		{"Julius (<juliu\u00a0s.volz@x.com> and\u00a0www.x.y z\n", []string{"Julius (", "and", " z"}, []string{"juliu\u00a0s.volz@x.com", "\u00a0www.x.y"}},
		// Text in inline <code> and <pre> is code shown as code (Prometheus's generated docs).
		{"a <code class=\"x\">--max-time</code> b <CODE>c</CODE> <codex>dd</codex>\n", []string{"a ", " b ", "dd"}, []string{"--max-time", ">c<"}},
		// Character references render as the character they name (three's README).
		{"a &mdash; b &#x2014; c &#8212; d &amp e\n", []string{"a ", " b ", " c ", " d &amp e"}, []string{"&mdash;", "&#x2014;", "&#8212;"}},
		{"a `code` b ``x ` y`` c\n", []string{"a ", " b ", " c"}, []string{"`code`", "``x ` y``"}},
		{"a `multi\nline` b\n", []string{"a ", " b"}, []string{"`multi\nline`"}},
		{"```\ncode\n```\n", nil, []string{"```\ncode\n```\n"}},
		{"~~~\ncode\n", nil, []string{"~~~\ncode\n"}},
		{"    code\n", nil, []string{"    code\n"}},
		{"\tcode\n", nil, []string{"\tcode\n"}},
		{"- item\n\n\t\tcode\n", []string{"item"}, []string{"\t\tcode"}},
		{"> quote\n", []string{"quote"}, []string{"> "}},
		{"| a | b |\n|---|---|\n| c | d |\n", []string{"a", "b", "c", "d"}, []string{"|---|---|"}},
		{"<!-- hidden -->\n", []string{" hidden "}, []string{"<!--", "-->\n"}},
		{"x <!-- in\nline --> y\n", []string{" in", "line ", "x ", " y"}, []string{"<!--", "-->", "\n"}},
		{"<div title=\"t\">\nblock\n</div>\n", nil, []string{"<div title=\"t\">\nblock\n</div>\n"}},
		{"a <b title=\"t\">bold</b> c\n", []string{"bold"}, []string{"<b title=\"t\">", "</b>"}},
		{"[r]: https://x.y 'T'\n", nil, []string{"[r]: https://x.y 'T'"}},
		{"---\na: b\n---\ntext\n", []string{"text"}, []string{"---\na: b\n---\n"}},
		{"+++\na = 1\n+++\ntext\n", []string{"text"}, []string{"+++\na = 1\n+++\n"}},
		{"---\na: b\n", nil, []string{"---\na: b\n"}},
		{"--- \nnot front matter: only a line\n", nil, []string{"--- \nnot front matter: only a line\n"}},
		{"---\n", nil, []string{"---\n"}},
		{"text\n---\nmore\n", []string{"text"}, []string{"\n---\n"}},
		{"one\rtwo\r", []string{"one", "two"}, []string{"\r"}},
		{"one\r\ntwo\r\n", []string{"one", "two"}, []string{"\r\n"}},
		{"hard  \nbreak\\\nx\n", []string{"hard", "break"}, []string{"  \n", "\\\n"}},
		// A carrier at the start of a line is prose like the rest of the
		// line; the engine decides whether removing it is safe.
		{"\u200b    code?\n", []string{"\u200b    code?"}, nil},
		{"1.\u200b item\n", []string{"1.\u200b item"}, nil},
		{"|a|\n|\u200b-|\n", []string{"a"}, []string{"|\u200b"}},
		{"Hello\u200bworld\n", []string{"Hello\u200bworld"}, nil},
		// Removing the carrier would end the comment early: the engine keeps it.
		{"<!-- a -\u200b-> b -->\n", []string{" a -\u200b-> b "}, []string{"<!--", "-->"}},
		{"<!-->x\n", nil, []string{"<!-->x\n"}},
		{"a <!--> b\n", []string{"a ", " b"}, []string{"<!-->"}},
	}
}

func TestMarkdownRegions(t *testing.T) {
	for _, c := range markdownRegionCases() {
		for _, p := range c.prose {
			if k := mdKinds(t, c.src, p); len(k) != 1 || !k[Prose] {
				t.Errorf("%q: %q should be prose, has %v", c.src, p, k)
			}
		}
		for _, r := range c.runtime {
			if k := mdKinds(t, c.src, r); len(k) != 1 || !k[Runtime] {
				t.Errorf("%q: %q should be runtime, has %v", c.src, r, k)
			}
		}
	}
}

// TestMarkdownSpecCorpus runs the CommonMark spec examples shipped with
// goldmark through the classifier: no panic, a valid partition, no line
// break in prose, and no prose inside what the spec renders as code.
func TestMarkdownSpecCorpus(t *testing.T) {
	data := goldmarkSpecJSON(t)
	var examples []struct {
		Markdown string `json:"markdown"`
		HTML     string `json:"html"`
		Section  string `json:"section"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 500 {
		t.Fatalf("only %d spec examples", len(examples))
	}
	for i, ex := range examples {
		src := []byte(ex.Markdown)
		m, err := classifyMarkdown(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Check(); err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		for _, r := range m.Regions {
			if r.Kind == Runtime {
				continue
			}
			if strings.ContainsAny(string(src[r.Start:r.End]), "\r\n") {
				t.Errorf("example %d: prose region %d-%d holds a line break", i+1, r.Start, r.End)
			}
		}
		if ex.Section == "Fenced code blocks" || ex.Section == "Indented code blocks" {
			// Every line of a code block's content renders inside <pre><code>;
			// none of a code-only example's letters may be prose.
			if !strings.HasPrefix(ex.HTML, "<pre><code") || strings.Count(ex.HTML, "<pre>") != 1 || strings.Contains(ex.HTML, "<p>") || strings.Contains(ex.HTML, "<li>") || strings.Contains(ex.HTML, "<blockquote>") || strings.Contains(ex.HTML, "<h") {
				continue
			}
			for _, r := range m.Regions {
				if r.Kind == Prose {
					t.Errorf("example %d (%s): prose %q in a code-only document", i+1, ex.Section, src[r.Start:r.End])
				}
			}
		}
	}
}

// HTML comments that a tool reads are directives, also when they would
// only become one once their carriers were removed; other comments are prose.
func TestMarkdownCommentDirectives(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Kind
	}{
		{"<!-- markdownlint-disable\u200b -->\n", Directive},
		{"<!-- markdownlint-disable-next-line MD013 -->\n", Directive},
		{"<!-- prettier-ignore\u200b -->\n", Directive},
		{"<!-- prettier-ignore-start -->\n", Directive},
		{"<!-- textlint-disable -->\n", Directive},
		{"<!--lint disable no-html-->\n", Directive},
		{"<!-- cspell:ignore foo -->\n", Directive},
		{"<!-- vale off -->\n", Directive},
		{"<!-- toc -->\n", Directive},
		{"<!-- tocstop -->\n", Directive},
		{"<!-- TOC -->\n", Directive},
		{"<!-- BEGIN_TF_DOCS -->\n", Directive},
		{"<!-- END mdsh -->\n", Directive},
		{"<!-- START doctoc generated TOC please keep comment here -->\n", Directive},
		{"<!-- ALL-CONTRIBUTORS-LIST:START -->\n", Directive},
		{"<!-- include: other.md -->\n", Directive},
		{"<!-- more -->\n", Directive},
		{"<!-- mark\u200bdownlint-disable -->\n", Directive},
		{"text <!-- prettier-ignore --> more\n", Directive},
		{"<!-- Note: keep this section short -->\n", Prose},
		{"<!-- a hidden remark -->\n", Prose},
		{"<!-- tocsin is not a marker -->\n", Prose},
		{"<!-- endless summer -->\n", Prose},
	} {
		m, err := classifyMarkdown([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(tc.src, "<!--") + 5
		if got := m.At(i); got.Kind != tc.want {
			t.Errorf("%q: comment text is %s (%s), want %s", tc.src, got.Kind, got.Why, tc.want)
		}
	}
}

// bareURLs errs long against GFM: every scheme GFM links, after any byte
// that is not an ASCII letter or digit, through closing parentheses,
// quotes and semicolons.
func TestBareURLs(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"see https://a.b/c.", "https://a.b/c"},
		{"get ftp://f.g/h now", "ftp://f.g/h"},
		{"at http://x.y/(a)", "http://x.y/(a)"},
		{"(www.p.q)", "www.p.q)"},
		{"_www.u.v_", "www.u.v"},
		{"\"http://x.y/\"q\"\" x", "http://x.y/\"q\"\""},
		{"a.www.b.c", "www.b.c"},
		{"awww.b.c", ""},
		{"https://a.b<c>", "https://a.b"},
		{"a;https://a.b/c \x1b]8;;http://d.e\x07", ""},
	} {
		var got []string
		for _, sp := range bareURLs([]byte(tc.line), 0, len(tc.line)) {
			got = append(got, tc.line[sp[0]:sp[1]])
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("bareURLs(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
