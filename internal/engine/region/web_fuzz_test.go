package region

import (
	"bytes"
	"errors"
	"testing"
)

// classifyOrRefuse classifies src as path. A RefusedError (refused input) is
// an acceptable outcome, checked for determinism and for naming the file;
// anything else must pass classifyChecked.
func classifyOrRefuse(t *testing.T, path string, src []byte) *Map {
	t.Helper()
	_, err := Classify(path, src)
	var se *RefusedError
	if errors.As(err, &se) {
		_, again := Classify(path, src)
		if again == nil || again.Error() != err.Error() {
			t.Fatalf("refusal is not deterministic: %v, then %v", err, again)
		}
		if se.Path != path || se.Pos == "" {
			t.Fatalf("refusal without a position: %v", err)
		}
		return nil
	}
	return classifyChecked(t, path, src)
}

// checkWebProse checks the shape of every prose or directive region of a
// web language: it starts with a comment opener, or right after a line
// break inside a comment.
func checkWebProse(t *testing.T, src []byte, m *Map, openers ...string) {
	t.Helper()
	for _, r := range m.Regions {
		if r.Kind == Runtime {
			continue
		}
		ok := r.Start > 0 && (src[r.Start-1] == '\n' || src[r.Start-1] == '\r')
		for _, o := range openers {
			ok = ok || bytes.HasPrefix(src[r.Start:], []byte(o))
		}
		if !ok {
			t.Fatalf("%s region %d-%d %q (%s) does not start a comment", r.Kind, r.Start, r.End, src[r.Start:r.End], r.Why)
		}
	}
}

func FuzzClassifyHTML(f *testing.F) {
	addFixtureSeeds(f, ".html")
	for _, s := range htmlQuirks {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"", "<", "<!", "<!-", "<!--", "<!-- a -\u200b->", "<svg><style><!--</style>-->", "<noscript><a b='</noscript>",
		"<script><!--<script>", "<![CDATA[", "<style>/*\u200b*/</style>", "<!--\u200b-->", "<title>x</title><!-- \u200b -->",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := classifyOrRefuse(t, "f.html", src)
		if m == nil {
			return
		}
		xnetCheck(t, "fuzz", src, m)
		checkRemovalStable(t, "f.html", src, m)
	})
}

func fuzzCSS(f *testing.F, ext string, seeds []string) {
	addFixtureSeeds(f, ext)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	openers := []string{"/*"}
	if ext != ".css" {
		openers = append(openers, "//")
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := classifyOrRefuse(t, "f"+ext, src)
		if m == nil {
			return
		}
		checkWebProse(t, src, m, openers...)
		checkRemovalStable(t, "f"+ext, src, m)
	})
}

var cssSeeds = []string{
	"", "/", "/*", "/**/", "/* a *\u200b/ b */", "a{b:url(/*x*/)}", "a{content:\"/*\"}/* c */", "\"a\\\nb\"",
	"--x:/* a */;/* b */", "u\\72l(/*x*/)", "#url(/* c */)", "a{b:c}/*\u200b!*/", "@media/* c */{}",
}

func FuzzClassifyCSS(f *testing.F) { fuzzCSS(f, ".css", cssSeeds) }

func FuzzClassifySCSS(f *testing.F) {
	fuzzCSS(f, ".scss", append(cssSeeds,
		"// a\n", "a//b\n", "#{a // }\n}", "\"#{\"}\"}\"/* c */", "/* #{\"*/\"} */", "url(a(b)//c)\n", "$x: 1; // c\fd",
		"/// @param {x} $y\n", "url(http://x)//c\n"))
}

func FuzzClassifyLess(f *testing.F) {
	fuzzCSS(f, ".less", append(cssSeeds,
		"// a\r b\n/* c */", "`x`//c\n", "@{a}//c\n", "~\"//\"//c\n", "a { b: c // d\n}"))
}
