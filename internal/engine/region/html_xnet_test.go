package region

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// golang.org/x/net/html's tokenizer, run on its own (as a standalone
// tokenizer it switches to raw text after <script>, <style> and friends,
// as the classifier's first reading does), is an independent judge of
// where comments and raw text lie. Its tokens' Raw() bytes add up to the
// input, which gives exact offsets.

type xnetToken struct {
	typ        html.TokenType
	start, end int
	// raw is the lower-case name of the raw text element this text token
	// is the content of, or "".
	raw string
}

func xnetTokens(src []byte) ([]xnetToken, error) {
	z := html.NewTokenizer(bytes.NewReader(src))
	var out []xnetToken
	pos := 0
	rawNext := ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		tok := xnetToken{typ: tt, start: pos, end: pos + len(raw)}
		if tt == html.TextToken {
			tok.raw = rawNext
		}
		rawNext = ""
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			name, _ := z.TagName()
			switch n := string(name); n {
			case "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext":
				rawNext = n
			}
		}
		out = append(out, tok)
		pos += len(raw)
	}
	// A tag cut by the end of the input is dropped (eof-in-tag): the
	// tokenizer reports an error without its bytes.
	if pos < len(src) && src[pos] == '<' {
		out = append(out, xnetToken{typ: html.ErrorToken, start: pos, end: len(src)})
		pos = len(src)
	}
	if pos != len(src) {
		return out, fmt.Errorf("x/net/html tokens cover %d of %d bytes", pos, len(src))
	}
	return out, nil
}

// xnetCheck compares the HTML map m of src with x/net/html's tokens: every
// prose or directive byte lies in a "<!--" comment token or in the content
// of a <style> or <script> element, each such comment token is one classified comment
// with the same extent, and tokens that are never prose are runtime. It
// returns how many comments x/net/html found and how many the map calls
// prose or directive.
func xnetCheck(t testing.TB, name string, src []byte, m *Map) (comments, agreed int) {
	t.Helper()
	toks, err := xnetTokens(src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	allowed := make([]bool, len(src))
	inComment := make([]bool, len(src)+1)
	for _, tok := range toks {
		if tok.typ == html.CommentToken && bytes.HasPrefix(src[tok.start:tok.end], []byte("<!--")) {
			for k := tok.start; k < tok.end; k++ {
				inComment[k] = true
			}
		}
	}
	for _, tok := range toks {
		text := src[tok.start:tok.end]
		isComment := tok.typ == html.CommentToken && bytes.HasPrefix(text, []byte("<!--"))
		switch {
		case isComment:
			for k := tok.start; k < tok.end; k++ {
				allowed[k] = true
			}
			comments++
			r := m.At(tok.start)
			if r.Kind == Runtime {
				switch {
				case r.Why == "comment that could close early",
					strings.HasSuffix(r.Why, "(markup when not raw text)"),
					strings.HasPrefix(r.Why, "CDATA section"):
				default:
					t.Errorf("%s: comment %d-%d %q is runtime %q", name, tok.start, tok.end, clip(text), r.Why)
				}
				continue
			}
			agreed++
			// One classified comment with the same extent: the regions
			// over it are of one kind and reason, line breaks aside.
			for k := tok.start; k < tok.end; {
				q := m.At(k)
				if q.Why != "line break" && (q.Kind != r.Kind || q.Why != r.Why) {
					t.Errorf("%s: comment %d-%d %q has mixed regions (%s %q at %d)", name, tok.start, tok.end, clip(text), q.Kind, q.Why, k)
					break
				}
				k = q.End
			}
			// A region may run on into an adjacent comment of the
			// same kind (the map merges them), never into other bytes.
			if r.Start != tok.start && !inComment[tok.start-1] {
				t.Errorf("%s: comment at %d starts a region at %d", name, tok.start, r.Start)
			}
			if last := m.At(tok.end - 1); last.End != tok.end && !inComment[tok.end] {
				t.Errorf("%s: comment %d-%d %q ends a region at %d", name, tok.start, tok.end, clip(text), last.End)
			}
		case tok.typ == html.TextToken && (tok.raw == "style" || tok.raw == "script"):
			for k := tok.start; k < tok.end; k++ {
				allowed[k] = true
			}
		}
	}
	for _, r := range m.Regions {
		if r.Kind == Runtime {
			continue
		}
		for k := r.Start; k < r.End; k++ {
			if !allowed[k] {
				t.Errorf("%s: %s region %d-%d %q (%s) lies outside every x/net/html comment", name, r.Kind, r.Start, r.End, clip(src[r.Start:r.End]), r.Why)
				break
			}
		}
	}
	return comments, agreed
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// htmlQuirks are inputs at the edges of the tokenizer states.
var htmlQuirks = []string{
	"<!-->x<!--->y<!---->z<!----->w<!-- a --!>v<!-- b --!-->u",
	"<!-- a <!-- b --> c -->",
	"<!--a-\u200b->b-->",
	"<p a=\"-->\" b='<!--' c=<!-- d>x<!-- e -->",
	"<script><!--<script></script>--></script><!-- f -->",
	"<script><!-- <script> --></script><!-- g -->",
	"<script><!--</script><!-- h -->",
	"<style><!-- </style><!-- i -->",
	"<textarea><!-- </textarea ><!-- j -->",
	"<title></title x><!-- k -->",
	"<xmp><!--</xmp><!-- l --></xmp>",
	"<noscript><!-- m --></noscript><!-- n -->",
	"</ <!-- o -->><!-- p -->",
	"<? <!-- q --> ?><!-- r -->",
	"<!doctype x <!-- s -->><!-- t -->",
	"<a href=x/><!-- u --><br/ ><!-- v -->",
	"<a\tb\n=\r'c'/d><!-- w -->",
	"<![CDATA[ <!-- x --> ]]><!-- y -->",
	"<plaintext><!-- z -->",
	"<SCRIPT>x</SCRIPT ><!-- A -->",
	"<style>/* a */</style><style>b{}/* c </style>",
	"<!-- \r\n multi \r line \n -->",
	"<p>\u00e9\u200b<!-- \u0645\u06cc\u200c -->",
	"<svg><style><!-- B --></style></svg><style>/* C */</style>",
	"<script type=text/template><!-- D --></script><!-- E -->",
}

func TestHTMLAgainstXNet(t *testing.T) {
	fixtures := goldenInputs(t, ".html")
	total, agreed := 0, 0
	for i, s := range htmlQuirks {
		c, a := checkHTMLXNet(t, fmt.Sprintf("quirk %d", i), []byte(s))
		total, agreed = total+c, agreed+a
	}
	for _, f := range fixtures {
		c, a := checkHTMLXNet(t, f.name, f.src)
		total, agreed = total+c, agreed+a
	}
	t.Logf("x/net/html found %d comments; %d are prose or directive, the rest runtime for a stated reason", total, agreed)
}

func checkHTMLXNet(t testing.TB, name string, src []byte) (int, int) {
	t.Helper()
	m, err := Classify("x.html", src)
	if err != nil {
		var se *RefusedError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v", name, err)
		}
		return 0, 0
	}
	return xnetCheck(t, name, src, m)
}
