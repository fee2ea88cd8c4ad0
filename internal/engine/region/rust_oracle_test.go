package region

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The Rust scanner is checked against tree-sitter-rust (positions: every
// prose or directive byte lies in one of its comments, every comment of its
// tree is prose or a directive unless it is doc markup or a doctest, every
// literal is runtime) and against rustc itself (invariance: with the text of
// every prose region replaced by junk, `rustc -Zunpretty=ast-tree` prints
// the same tree once spans and doc strings are set aside, and the code
// blocks of every item's doc, as goldmark reads them, are unchanged). The
// corpus: the golden fixtures and Rust crate sources from Debian's
// librust-*-dev packages.

const rustTreeSitterScript = `
const fs = require('fs');
const path = require('path');
const {Parser, Language} = require(path.join(process.env.NM, 'web-tree-sitter', 'tree-sitter.cjs'));
(async () => {
  await Parser.init();
  const lang = await Language.load(path.join(process.env.NM, 'tree-sitter-rust', 'tree-sitter-rust.wasm'));
  const parser = new Parser();
  parser.setLanguage(lang);
  for (const file of process.argv.slice(1)) {
    const text = fs.readFileSync(file, 'utf8');
    const off = new Int32Array(text.length + 1); // UTF-16 index -> byte offset
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      off[i] = b;
      const c = text.charCodeAt(i);
      if (c < 0x80) b += 1; else if (c < 0x800) b += 2;
      else if (c >= 0xd800 && c < 0xdc00) { off[i + 1] = b + 2; i++; b += 4; } else b += 3;
    }
    off[text.length] = b;
    const tree = parser.parse(text);
    const comments = [], literals = [];
    let error = false;
    const visit = (n) => {
      if (n.type === 'ERROR' || n.isMissing) error = true;
      if (n.type === 'line_comment' || n.type === 'block_comment') { comments.push([off[n.startIndex], off[n.endIndex]]); return; }
      if (n.type === 'string_literal' || n.type === 'raw_string_literal' || n.type === 'char_literal') literals.push([off[n.startIndex], off[n.endIndex]]);
      for (let i = 0; i < n.childCount; i++) visit(n.child(i));
    };
    visit(tree.rootNode);
    console.log(JSON.stringify({path: file, comments, literals, error, size: b}));
  }
})();
`

func rustOracleCorpus(t *testing.T, n int) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.rs.in"))
	root := testtool.Debian(t, testtool.RustPackages...)
	return append(files, testtool.Files(t, root, n, ".rs")...)
}

func TestRustAgainstTreeSitter(t *testing.T) {
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	prefix := testtool.NPM(t, "web-tree-sitter@0.25.10", "tree-sitter-rust@0.24.0")
	files := rustOracleCorpus(t, 0)
	out := runJSONLines(t, exec.Command(node, "-e", rustTreeSitterScript), files, "NM="+filepath.Join(prefix, "node_modules"))
	compared, comments := 0, 0
	for _, path := range files {
		var r struct {
			Comments, Literals [][2]int
			Error              bool
			Size               int
		}
		if err := json.Unmarshal(out[path], &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := classifyRust(path, src)
		if err != nil {
			if !r.Error {
				t.Errorf("%s: refused (%v) but tree-sitter parses it", path, err)
			}
			continue
		}
		if r.Size != len(src) {
			t.Fatalf("%s: tree-sitter read %d bytes of %d", path, r.Size, len(src))
		}
		inComment := make([]bool, len(src))
		for _, c := range r.Comments {
			// tree-sitter ends a doc line comment after its line break.
			for c[1] > c[0] && (src[c[1]-1] == '\n' || src[c[1]-1] == '\r') {
				c[1]--
			}
			for k := c[0]; k < c[1]; k++ {
				inComment[k] = true
			}
			if r.Error {
				continue
			}
			comments++
			doc := rustDoc(src[c[0]:c[1]]) != 0
			for k := c[0]; k < c[1]; {
				reg := m.At(k)
				ok := reg.Kind != Runtime || src[k] == '\r' || strings.Contains(reg.Why, "could") ||
					(doc && (strings.HasPrefix(reg.Why, "doctest") || strings.Contains(reg.Why, "doc comment")))
				if !ok {
					t.Errorf("%s: tree-sitter comment [%d,%d) %q holds runtime %q at %d", path, c[0], c[1], src[c[0]:c[1]], reg.Why, k)
					break
				}
				k = reg.End
			}
		}
		for _, reg := range m.Regions {
			if reg.Kind == Runtime || reg.Why == "directive: shebang" {
				continue
			}
			for k := reg.Start; k < reg.End; k++ {
				if !inComment[k] {
					t.Errorf("%s: %s region %d-%d %q is outside every tree-sitter comment", path, reg.Kind, reg.Start, reg.End, src[reg.Start:reg.End])
					break
				}
			}
		}
		for _, l := range r.Literals {
			for k := l[0]; k < l[1]; k++ {
				if m.At(k).Kind != Runtime {
					t.Errorf("%s: literal [%d,%d) byte %d is %s", path, l[0], l[1], k, m.At(k).Kind)
					break
				}
			}
		}
		if !r.Error {
			compared++
		}
	}
	t.Logf("compared %d of %d files (%d comments) with tree-sitter-rust", compared, len(files), comments)
	if compared < len(files)*8/10 {
		t.Errorf("compared only %d of %d files", compared, len(files))
	}
}

// junkRustProse replaces the inside of every prose region with junk,
// keeping comment markers so every comment stays a comment of its kind.
func junkRustProse(src []byte, m *Map, doc bool) []byte {
	// No bidi control: rustc denies those in comments, which is why a
	// clean matters (see TestRustBidiCleanCompiles in cli).
	const junk = "x\u200b\u00a0\"'{}:x\u2028"
	var out []byte
	for _, r := range m.Regions {
		s := src[r.Start:r.End]
		if r.Kind != Prose || (r.Why == "doc comment") != doc {
			out = append(out, s...)
			continue
		}
		head, tail := 0, 0
		switch {
		case rustDoc(s) != 0:
			head = 3
		case bytes.HasPrefix(s, []byte("//")), bytes.HasPrefix(s, []byte("/*")):
			head = 2
		}
		if bytes.HasPrefix(s, []byte("/*")) && bytes.HasSuffix(s, []byte("*/")) && len(s) >= head+2 {
			tail = 2
		}
		out = append(out, s[:head]...)
		out = append(out, junk...)
		out = append(out, s[len(s)-tail:]...)
	}
	return out
}

var (
	rustSpanRE   = regexp.MustCompile(`(?m)^\s*span: .*$|\S+\.rs:\d+:\d+: \d+:\d+ \(#\d+\)`)
	rustIDRE     = regexp.MustCompile(`(?m)^\s*id: (AttrId|NodeId)\(\d+\),?$`)
	rustAttrsRE  = regexp.MustCompile(`(?m)^(\s*)attrs: \[$`)
	rustStringRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	rustDocStrRE = regexp.MustCompile(`(?m)^(\s*)kind: DocComment\(\n\s*(Line|Block),\n\s*(".*"),\n`)
)

// rustAST returns rustc's AST dump of the file with spans and ids removed,
// each doc string replaced by DOC, and the code blocks of each attribute
// list's joined doc text, as goldmark reads them.
func rustAST(t *testing.T, rustc, path string) (string, []string, error) {
	cmd := exec.CommandContext(t.Context(), rustc, "-Zunpretty=ast-tree", "--edition", "2021", path)
	cmd.Env = append(os.Environ(), "RUSTC_BOOTSTRAP=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
	}
	dump := string(out)
	var blocks []string
	// Each "attrs: [" list holds one item's attributes: join its doc strings.
	for _, loc := range rustAttrsRE.FindAllStringSubmatchIndex(dump, -1) {
		indent := dump[loc[2]:loc[3]]
		end := strings.Index(dump[loc[1]:], "\n"+indent+"],")
		if end < 0 {
			continue
		}
		var doc []string
		for _, m := range rustDocStrRE.FindAllStringSubmatch(dump[loc[1]:loc[1]+end], -1) {
			s, err := strconv.Unquote(rustStringToGo(m[3]))
			if err != nil {
				return "", nil, fmt.Errorf("doc string %s: %v", m[3], err)
			}
			doc = append(doc, s)
		}
		blocks = append(blocks, markdownCode(strings.Join(doc, "\n")))
	}
	dump = rustDocStrRE.ReplaceAllString(dump, "${1}kind: DocComment($2, DOC),\n")
	dump = rustSpanRE.ReplaceAllString(dump, "")
	dump = rustIDRE.ReplaceAllString(dump, "")
	return dump, blocks, nil
}

// rustStringToGo rewrites Rust's Debug escapes (\u{XXXX}) into Go's.
func rustStringToGo(s string) string {
	return regexp.MustCompile(`\\u\{([0-9a-fA-F]+)\}`).ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[3:len(m)-1], 16, 32)
		return fmt.Sprintf(`\U%08x`, n)
	})
}

// markdownCode returns the fenced and indented code of a Markdown text.
func markdownCode(doc string) string {
	src := []byte(doc)
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	var sb strings.Builder
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			lines := n.Lines()
			sb.WriteString("<code>")
			for i := range lines.Len() {
				seg := lines.At(i)
				sb.Write(seg.Value(src))
			}
			sb.WriteString("</code>")
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestRustAgainstRustc runs two variants of each file: one with the
// ordinary comments' prose replaced by junk, whose AST must be identical
// once spans are set aside, and one with the doc comments' prose replaced,
// whose AST must be identical once string contents are set aside (doc text
// is in the AST by design) and whose doctests must be unchanged.
func TestRustAgainstRustc(t *testing.T) {
	rustc := testtool.Working(t, "rustc", "apt-get install rustc", "--version")
	var files []string
	for _, p := range rustOracleCorpus(t, 30) {
		if st, err := os.Stat(p); err == nil && st.Size() < 64<<10 {
			files = append(files, p)
		}
	}
	dir := t.TempDir()
	compared, withDocs, compiled := 0, 0, 0
	for k, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := classifyRust(path, src)
		if err != nil {
			var se *RefusedError
			if !errors.As(err, &se) {
				t.Fatal(err)
			}
			continue
		}
		write := func(name string, b []byte) string {
			p := filepath.Join(dir, fmt.Sprintf("%s%03d.rs", name, k))
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		orig := write("o", src)
		a, ablocks, err := rustAST(t, rustc, orig)
		if err != nil {
			t.Logf("%s: rustc does not parse the original: %v", path, err)
			continue
		}
		compared++
		for _, doc := range []bool{false, true} {
			junk := write(fmt.Sprint("j", doc), junkRustProse(src, m, doc))
			b, bblocks, err := rustAST(t, rustc, junk)
			if err != nil {
				t.Errorf("%s: rustc parses the original but not the file with junk prose (doc %v): %v", path, doc, err)
				continue
			}
			aa, bb := a, b
			if doc {
				aa, bb = rustStringRE.ReplaceAllString(a, `"S"`), rustStringRE.ReplaceAllString(b, `"S"`)
				if strings.Join(ablocks, "\x00") != strings.Join(bblocks, "\x00") {
					t.Errorf("%s: a doctest changed with the doc prose", path)
				}
			}
			if aa != bb {
				al, bl := strings.Split(aa, "\n"), strings.Split(bb, "\n")
				for i := 0; i < len(al) && i < len(bl); i++ {
					if al[i] != bl[i] {
						t.Errorf("%s: the AST changed with the prose (doc %v) at dump line %d:\n%.300s\n%.300s", path, doc, i+1, al[i], bl[i])
						break
					}
				}
			}
			if strings.HasSuffix(path, ".rs.in") && rustcBuilds(t, rustc, orig, dir) {
				compiled++
				if !rustcBuilds(t, rustc, junk, dir) {
					t.Errorf("%s: compiles, but not with junk prose (doc %v)", path, doc)
				}
			}
		}
		if strings.Contains(strings.Join(ablocks, ""), "<code>") {
			withDocs++
		}
	}
	t.Logf("compared %d of %d files with rustc (%d with doctests), %d fixture builds before and after", compared, len(files), withDocs, compiled)
	if compared < len(files)*8/10 || withDocs < 5 {
		t.Errorf("compared %d of %d files, %d with doctests: too few", compared, len(files), withDocs)
	}
}

func rustcBuilds(t *testing.T, rustc, path, dir string) bool {
	cmd := exec.CommandContext(t.Context(), rustc, "--edition", "2021", "--crate-type", "lib", "--emit=metadata", "-o", filepath.Join(dir, "out.rmeta"), path)
	return cmd.Run() == nil
}
