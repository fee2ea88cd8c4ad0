package region

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// The scanner must never be bolder than the goldmark oracle: every byte it
// calls prose is prose for the oracle too. These tests check that on the
// CommonMark spec examples, the fixtures, the Markdown shipped with Go and
// Debian, and fuzzed input, and measure how much of the oracle's prose the
// scanner keeps.

// neverBolder classifies src both ways and returns a description of the
// first byte the scanner calls prose and the oracle does not, or "".
func neverBolder(t testing.TB, src []byte) (msg string, proseNew, proseOld int) {
	t.Helper()
	m, err := classifyMarkdown(src)
	if err != nil {
		t.Fatalf("classifyMarkdown: %v", err)
	}
	if err := m.Check(); err != nil {
		t.Fatalf("scanner map: %v", err)
	}
	o, err := classifyMarkdownGoldmark(src)
	if err != nil {
		t.Fatalf("classifyMarkdownGoldmark: %v", err)
	}
	kinds := make([]Kind, len(src))
	for _, r := range o.Regions {
		for k := r.Start; k < r.End; k++ {
			kinds[k] = r.Kind
			if r.Kind == Prose {
				proseOld++
			}
		}
	}
	for _, r := range m.Regions {
		if r.Kind != Prose {
			continue
		}
		proseNew += r.Len()
		for k := r.Start; k < r.End; k++ {
			if kinds[k] != Prose && msg == "" {
				lo, hi := max(0, k-40), min(len(src), k+40)
				msg = fmt.Sprintf("byte %d (%q in region %d-%d %q) is prose for the scanner, %s %q for goldmark; context %q",
					k, src[k], r.Start, r.End, r.Why, kinds[k], o.At(k).Why, src[lo:hi])
			}
		}
	}
	return msg, proseNew, proseOld
}

// goldmarkSpecJSON returns the CommonMark spec examples upstream goldmark
// ships in _test/spec.json. prosewash builds against a patched copy without
// tests (third_party/goldmark, through go.mod's replace), so the file is read
// from upstream's module of the version go.mod requires, downloaded through
// the module proxy outside this module (its go.sum is neither read nor
// changed).
func goldmarkSpecJSON(t testing.TB) []byte {
	t.Helper()
	v, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		testtool.Missing(t, "go", fmt.Sprintf("go list cannot name goldmark's version: %v", err))
	}
	cmd := exec.Command("go", "mod", "download", "-json", "github.com/yuin/goldmark@"+strings.TrimSpace(string(v)))
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	var mod struct{ Dir string }
	if err != nil || json.Unmarshal(out, &mod) != nil || mod.Dir == "" {
		testtool.Missing(t, "go-module-proxy", fmt.Sprintf("goldmark %s could not be downloaded: %v %s", strings.TrimSpace(string(v)), err, out))
	}
	data, err := os.ReadFile(filepath.Join(mod.Dir, "_test", "spec.json"))
	if err != nil {
		testtool.Missing(t, "go-module-proxy", fmt.Sprintf("goldmark's CommonMark spec examples are not in its module: %v", err))
	}
	return data
}

func specExamples(t testing.TB) []string {
	t.Helper()
	data := goldmarkSpecJSON(t)
	var examples []struct {
		Markdown string `json:"markdown"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, ex := range examples {
		srcs = append(srcs, ex.Markdown)
	}
	return srcs
}

// markdownFiles returns up to limit Markdown files under root, at most
// maxBytes each.
func markdownFiles(root string, limit int, maxBytes int64) []string {
	var files []string
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if len(files) >= limit {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".markdown")) {
			if info, err := d.Info(); err == nil && info.Size() <= maxBytes {
				files = append(files, path)
			}
		}
		return nil
	})
	return files
}

func TestMarkdownNeverBolderSpec(t *testing.T) {
	srcs := specExamples(t)
	if len(srcs) < 500 {
		t.Fatalf("only %d spec examples", len(srcs))
	}
	for i, s := range srcs {
		if msg, _, _ := neverBolder(t, []byte(s)); msg != "" {
			t.Errorf("spec example %d %q: %s", i+1, s, msg)
		}
	}
}

func TestMarkdownNeverBolderFixtures(t *testing.T) {
	var srcs []string
	for _, ext := range []string{".md.in", ".txt.in"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"+ext))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(b))
		}
	}
	srcs = append(srcs, markdownCases()...)
	srcs = append(srcs, string(benchMarkdown(asciiText)), string(benchMarkdown(intlText)))
	var pn, po int
	for _, s := range srcs {
		msg, n, o := neverBolder(t, []byte(s))
		if msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
		pn += n
		po += o
	}
	t.Logf("fixtures: scanner keeps %d of %d prose bytes (%.2f%%)", pn, po, 100*float64(pn)/float64(max(po, 1)))
}

// TestMarkdownNeverBolderCorpora runs the Markdown files of the Go
// distribution and of /usr/share/doc and requires the scanner to keep at
// least 95% of the oracle's prose there.
func TestMarkdownNeverBolderCorpora(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		testtool.Missing(t, "go", fmt.Sprintf("go env GOROOT: %v", err))
	}
	corpora := []struct {
		name string
		root string
	}{
		{"GOROOT", strings.TrimSpace(string(out))},
		{"/usr/share/doc", "/usr/share/doc"},
	}
	for _, c := range corpora {
		files := markdownFiles(c.root, 3000, 1<<20)
		if len(files) == 0 {
			t.Logf("%s: no Markdown files", c.name)
			continue
		}
		var pn, po, size int
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			size += len(src)
			msg, n, o := neverBolder(t, src)
			if msg != "" {
				t.Errorf("%s: %s", f, msg)
			}
			pn += n
			po += o
		}
		ratio := float64(pn) / float64(max(po, 1))
		t.Logf("%s: %d files, %d bytes: scanner keeps %d of %d prose bytes (%.2f%%)", c.name, len(files), size, pn, po, 100*ratio)
		if po > 10000 && ratio < 0.95 {
			t.Errorf("%s: the scanner keeps only %.2f%% of the oracle's prose, want at least 95%%", c.name, 100*ratio)
		}
	}
}

func FuzzMarkdownNeverBolder(f *testing.F) {
	addFixtureSeeds(f, ".md")
	addFixtureSeeds(f, ".txt")
	for _, s := range markdownCases() {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"[a][b](c `d`) `e`", "[a [b](c) d](e)", "<a b='x\n> y'>z", "- a\n\n\t\tb", "> - <!--\n> -->",
		"x\\\\\\\n`a` b `c`", "[x]: <y> 'z'\n[x]", "*a _b* c_", "<div\n\nx", "1. a\n2) b\n- c",
	} {
		f.Add([]byte(s))
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 64; i++ {
		f.Add(genMarkdown(rng))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if msg, _, _ := neverBolder(t, src); msg != "" {
			t.Fatal(msg)
		}
	})
}

var (
	genBlockPrefixes = []string{
		"", "", "", "> ", ">", ">\t", "- ", "-\t", "* ", "+ ", "1. ", "2) ", "10. ", "   ", "    ", "\t", "  - ", " \t",
		"# ", "## ", "###### ", "####### ", "#", "```", "~~~", "````go ", "``` `x`", "<div>", "</div>", "<div", "<!--",
		"-->", "<?", "?>", "<!X", "<![CDATA[", "]]>", "<script>", "</script>", "<pre>", "<a href='x'>", "</ a b>",
		"<x-y z=1/>", "[a]: /u", "[a]: /u 'title'", "[b]:", "[c]: <d e> \"f\"", "===", "---", "***", "- - -", "_ _ _",
		"| a | b |", "|---|---|", "- [ ] ", "> > ", "1.\t", "-    ", "-     ", "|:-:|", "| :-- | --: |", ":--|",
	}
	genInline = []string{
		"word", "more words", " ", " ", "*", "**", "_", "__", "a_b", "`", "``", "[", "]", "](", ")", "(", "![", "<", ">",
		"<http://x.y>", "<a@b.c>", "<b>", "</b>", "<b\nc='d'>", "<!-- c -->", "<!--", "-->", "<?p ?>", "<!D x>",
		"<![CDATA[ x ]]>", "\\", "\\`", "\\[", "&amp;", "\"", "'", "https://x.y/z", "www.a.b", "\u200b", "\u00a0",
		"é", "\t", "  ", "[x][y]", "[x][]", "[x]", "[x](y \"t\")", "[x](<y z>)", "![i](j)", "`code`", "``a`b``",
		"\xff", "\ufffd", "(y 't')", "[y]", "<a b='", "'>", "-", "=", "#", "1.", "~~~", "```",
		"ftp://f.g/h", "FTP://F.G", "http://x.y.", "(www.p.q)", "_www.u.v_", "https://a.b/(c)", "www.e.f&amp;",
		"http://x.y/\"q\"", "www.r.s;", "~www.t.u",
	}
	genFrontMatter = []string{"---\nk: v\n---\n", "+++\nk = 1\n+++\n", "---\nk: v\n...\n", "---\r\nk: v\r\n---\r\n", "\ufeff---\nk: v\n---\n", "+++ \nk\n+++\t\n"}
	genEndings     = []string{"\n", "\n", "\n", "\r\n", "\r", "  \n", "\\\n", "\\\\\\\n"}
)

// genMarkdown builds a document from fragments of block and inline syntax;
// the same seed always gives the same document.
func genMarkdown(rng *rand.Rand) []byte {
	var sb strings.Builder
	if rng.Intn(8) == 0 {
		sb.WriteString(genFrontMatter[rng.Intn(len(genFrontMatter))])
	}
	lines := 1 + rng.Intn(10)
	for l := 0; l < lines; l++ {
		if rng.Intn(6) == 0 {
			sb.WriteString("\n")
			continue
		}
		for k := rng.Intn(3); k > 0; k-- {
			sb.WriteString(genBlockPrefixes[rng.Intn(len(genBlockPrefixes))])
		}
		for k := rng.Intn(7); k > 0; k-- {
			sb.WriteString(genInline[rng.Intn(len(genInline))])
		}
		if l < lines-1 || rng.Intn(2) == 0 {
			sb.WriteString(genEndings[rng.Intn(len(genEndings))])
		}
	}
	return []byte(sb.String())
}

// TestMarkdownNeverBolderGenerated runs documents assembled from Markdown
// syntax fragments, which reach constructs that byte-level fuzzing finds
// slowly (HTML block starts, nested containers, reference labels).
func TestMarkdownNeverBolderGenerated(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 4000
	}
	rng := rand.New(rand.NewSource(genSeed()))
	for i := 0; i < n; i++ {
		src := genMarkdown(rng)
		if msg, _, _ := neverBolder(t, src); msg != "" {
			t.Fatalf("document %d %q: %s", i, src, msg)
		}
	}
}

// genSeed lets a developer explore other documents:
// PROSEWASH_MDGEN_SEED=7 go test -run Generated ./internal/engine/region.
func genSeed() int64 {
	if s, err := strconv.ParseInt(os.Getenv("PROSEWASH_MDGEN_SEED"), 10, 64); err == nil {
		return s
	}
	return 1
}

// FuzzMarkdownDeepNesting reads one unit repeated up to 400 times, then a
// tail, against goldmark: containers and inline runs nested far deeper
// than people write, where the scanner skips goldmark's thematic break
// test by what it remembers of the line.
func FuzzMarkdownDeepNesting(f *testing.F) {
	for _, s := range [][2]string{
		{"- ", "x"}, {"> ", "- - -"}, {"* ", "* * *"}, {"-\t", " - x"}, {"1. ", "x"}, {"[", "x]"},
		{"*a_ ", "x"}, {">", "___"}, {"- ", "_ _ _\n- - x"}, {"+ ", "-- -\n"}, {" - ", "***"}, {"- ", "  -\t-\r\n- _"},
	} {
		f.Add(s[0], uint16(200), s[1]+"\u200b\n")
	}
	f.Fuzz(func(t *testing.T, unit string, depth uint16, tail string) {
		if unit == "" || len(unit) > 8 || len(tail) > 64 {
			return
		}
		src := []byte(strings.Repeat(unit, int(depth%400)) + tail)
		if msg, _, _ := neverBolder(t, src); msg != "" {
			t.Fatal(msg)
		}
	})
}
