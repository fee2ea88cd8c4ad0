package region

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// The expressions goldmark v1.8.7 uses (parser/html_block.go and
// parser/raw_html.go), compiled here only to check the hand-written
// matchers against them.
var (
	gmAttribute   = `(?:[\r\n \t]+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:[\r\n \t]*=[\r\n \t]*(?:[^\"'=<>` + "`" + `\x00-\x20]+|'[^']*'|"[^"]*"))?)`
	gmType1Open   = regexp.MustCompile(`(?i)^[ ]{0,3}<(script|pre|style|textarea)(?:\s.*|>.*|/>.*|)(?:\r\n|\n)?$`)
	gmType1Close  = regexp.MustCompile(`(?i)^.*</(?:script|pre|style|textarea)>.*`)
	gmType2       = regexp.MustCompile(`^[ ]{0,3}<!\-\-`)
	gmType3       = regexp.MustCompile(`^[ ]{0,3}<\?`)
	gmType4       = regexp.MustCompile(`^[ ]{0,3}<![A-Z]+.*(?:\r\n|\n)?$`)
	gmType5       = regexp.MustCompile(`^[ ]{0,3}<\!\[CDATA\[`)
	gmType6       = regexp.MustCompile(`^[ ]{0,3}<(?:/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(?:[ ].*|>.*|/>.*|)(?:\r\n|\n)?$`)
	gmType7       = regexp.MustCompile(`^[ ]{0,3}<(/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(` + gmAttribute + `*)[ ]*(?:>|/>)[ ]*(?:\r\n|\n)?$`)
	gmSpaceOrNL   = `(?:[ \t]|(?:\r\n|\n){0,1})`
	gmOpenTag     = regexp.MustCompile("^<" + `([A-Za-z][A-Za-z0-9-]*)` + gmAttribute + `*` + gmSpaceOrNL + `*/?>`)
	gmCloseTag    = regexp.MustCompile("^</" + `([A-Za-z][A-Za-z0-9-]*)` + gmSpaceOrNL + `*>`)
	gmBlockTagSet = strings.Join(htmlBlockTags[:], " ")
)

// gmHTMLBlockStart is goldmark's htmlBlockParser.Open decision.
func gmHTMLBlockStart(line []byte, lastIsParagraph bool) int {
	switch {
	case gmType1Open.Match(line):
		return 1
	case gmType2.Match(line):
		return 2
	case gmType3.Match(line):
		return 3
	case gmType4.Match(line):
		return 4
	case gmType5.Match(line):
		return 5
	}
	if m := gmType7.FindSubmatchIndex(line); m != nil {
		isClose := m[2] > -1 && string(line[m[2]:m[3]]) == "/"
		hasAttr := m[6] != m[7]
		name := strings.ToLower(string(line[m[4]:m[5]]))
		if strings.Contains(" "+gmBlockTagSet+" ", " "+name+" ") {
			return 6
		}
		if name != "script" && name != "style" && name != "pre" && !lastIsParagraph && !(isClose && hasAttr) {
			return 7
		}
	}
	if m := gmType6.FindSubmatchIndex(line); m != nil {
		if strings.Contains(" "+gmBlockTagSet+" ", " "+strings.ToLower(string(line[m[2]:m[3]]))+" ") {
			return 6
		}
	}
	return 0
}

// gmTagLen is goldmark's inline tag match over a block: the regexp reads
// runes and stops at the first that decodes to U+FFFD.
func gmTagLen(block []byte) int {
	stop := len(block)
	for i := 0; i < len(block); {
		r, size := utf8.DecodeRune(block[i:])
		if r == utf8.RuneError {
			stop = i
			break
		}
		i += size
	}
	b := block[:stop]
	var m []int
	switch {
	case len(b) > 1 && util.IsAlphaNumeric(b[1]):
		m = gmOpenTag.FindIndex(b)
	case len(b) > 2 && b[1] == '/' && util.IsAlphaNumeric(b[2]):
		m = gmCloseTag.FindIndex(b)
	default:
		return -2
	}
	if m == nil {
		return -1
	}
	return m[1]
}

// scannerTagLen runs the scanner's inline tag matcher over block as one
// paragraph's lines.
func scannerTagLen(block []byte) int {
	if len(block) < 2 || block[0] != '<' {
		return -2
	}
	var segs []mdSeg
	for i := 0; i < len(block); {
		j := bytes.IndexByte(block[i:], '\n')
		if j < 0 {
			segs = append(segs, mdSeg{start: i, stop: len(block)})
			break
		}
		segs = append(segs, mdSeg{start: i, stop: i + j + 1})
		i += j + 1
	}
	s := &inlineScanner{p: &mdParser{}, src: block}
	s.r = newBlockReader(block, segs)
	s.badFrom, s.badAt = 1, 0
	s.quoteFrom, s.quoteTo = [2]int{-1, -1}, [2]int{-1, -1}
	s.quoteFail = [2]int{1 << 62, 1 << 62}
	s.cum = []int{0}
	for _, l := range segs {
		s.cum = append(s.cum, s.cum[len(s.cum)-1]+l.stop-l.start)
	}
	var ok bool
	switch {
	case isAlnumByte(block[1]):
		ok = s.tag(false)
	case len(block) > 2 && block[1] == '/' && isAlnumByte(block[2]):
		ok = s.tag(true)
	default:
		return -2
	}
	if !ok {
		return -1
	}
	_, pos := s.r.position()
	return pos.start
}

func checkHTMLMatchers(t *testing.T, in []byte) {
	t.Helper()
	line := in
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	for _, lastPara := range []bool{false, true} {
		if got, want := htmlBlockStart(line, lastPara), gmHTMLBlockStart(line, lastPara); got != want {
			t.Fatalf("htmlBlockStart(%q, %v) = %d, goldmark %d", line, lastPara, got, want)
		}
	}
	if got, want := htmlType1Close(line), gmType1Close.Match(line); got != want {
		t.Fatalf("htmlType1Close(%q) = %v, goldmark %v", line, got, want)
	}
	if bytes.HasPrefix(in, []byte("<")) && !bytes.Contains(in, []byte("\r")) {
		if got, want := scannerTagLen(in), gmTagLen(in); got != want {
			t.Fatalf("inline tag %q: scanner %d, goldmark %d", in, got, want)
		}
	}
	if got, want := findEmailIndex(in), util.FindEmailIndex(in); got != want {
		t.Fatalf("findEmailIndex(%q) = %d, goldmark %d", in, got, want)
	}
	if got, want := findURLIndex(in), util.FindURLIndex(in); got != want {
		t.Fatalf("findURLIndex(%q) = %d, goldmark %d", in, got, want)
	}
}

func htmlMatcherSeeds() []string {
	return []string{
		"<div>\n", "<DIV class=\"x\">\n", "  <script>", "<ſcript>\n", "<pre\tx", "</textarea>", "<!-- x", "<?php", "<!DOCTYPE html>",
		"<![CDATA[x", "<a href='x'>\n", "<a href=x/>", "</a x>", "<a\tb>", "<a b = \"c\" d>  \n", "<custom-tag>\n", "<x-1 y:z.w_-=v>",
		"</ div >", "<div2>", "<a b='>'>", "<a b='x\ny'>", "<a\n\nb>", "<a b=\"\xff\">", "<a b=\ufffd>", "<a/>", "<a / >",
		"a.b-c@d-e.f-g", "me@example.com>", "x@-a", "x@a-", "https://x.y", "a1+.-:zz", "ab:", "mailto:x@y", "x<y>z</STYLE>w",
	}
}

func TestHTMLMatchers(t *testing.T) {
	for _, s := range htmlMatcherSeeds() {
		checkHTMLMatchers(t, []byte(s))
	}
}

func FuzzHTMLMatchers(f *testing.F) {
	for _, s := range htmlMatcherSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkHTMLMatchers(t, in)
	})
}
