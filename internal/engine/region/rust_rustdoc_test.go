package region

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/testtool"
)

// rustdoc itself is the oracle for how doc comments and #[doc] attributes
// join into one Markdown document: every doc comment group that holds a
// #[doc] attribute (hand-written cases and the groups of real crates from
// Debian) becomes an item of one crate; a zero-width space goes into the
// middle of every region the scanner calls doc prose, and rustdoc renders
// the crate with and without them, under two cfg sets. Every inserted
// carrier must come out as text (not inside <pre>, <code> or a tag), and
// with the carriers deleted the rendered docs must be byte-identical: the
// Markdown reading did not change.

// rustDocAttrPackages are Debian crates whose sources use #[doc = "..."],
// #[cfg_attr(..., doc = "...")] and #![doc = include_str!(...)].
var rustDocAttrPackages = []string{"librust-clap-dev", "librust-serde-dev", "librust-syn-dev", "librust-bitflags-dev"}

// rustDocAttrCases are doc groups without their item.
var rustDocAttrCases = []string{
	"/// a\n#[doc = \"```\"]\n/// b\n#[doc = \"```\"]\n/// c\n",
	"/// ```\n/// code\n#[doc = \"```\"]\n/// after\n",
	"/// a\n#[doc = r#\"```\"#]\n/// b\n/// ```\n/// c\n",
	"/// a\n#[doc = \"\\x60\\x60\\x60\"]\n/// b\n/// ```\n/// c\n",
	"/// a\n#[doc = \"  b\\n\\n    code?\"]\n///     c\n/// d\n",
	"/// a\n#[doc = \"b\"]\n///\n///     c\n///\n/// d\n",
	"/// a\n#[doc = \"\"]\n///     c\n",
	"///   a\n#[doc = \"b\"]\n///       c\n///\n///       d\n",
	"/// a\n#[doc = \"<div>\"]\n/// b\n///\n/// c\n",
	"/// a\n#[doc = \"<!--\"]\n/// b\n#[doc = \"-->\"]\n/// c\n",
	"/// Use `x\n#[doc = \"y` z\"]\n/// after\n",
	"/// a\n#[doc = \"* item\"]\n///   continued\n///\n///       code?\n",
	"/// a\n#[doc = \"> quote\"]\n/// lazy\n",
	"/// a\n#[doc = \"\\tb\"]\n///\tc\n",
	"/// a\n#[cfg_attr(docsrs, doc = \"```\")]\n/// b\n/// c\n",
	"/// a\n#[cfg_attr(not(docsrs), doc = \" ```ignore\")]\n#[cfg_attr(docsrs, doc = \" ```\")]\n/// b\n/// ```\n/// c\n",
	"/// a\n#[cfg_attr(docsrs, doc = \"x\")]\n/// b\n",
	"/// a\n///\n#[doc = include_str!(\"INCLUDED\")]\n/// b\n",
	"/// Use `x\n#[doc = include_str!(\"INCLUDED\")]\n/// b\n",
	"#[doc = \"# Title\"]\n/// Text [link](http://example.com/a) and <b>bold</b>.\n",
}

// rustDocGroups extracts, line by line, the doc groups of a Rust file that
// hold a #[doc = ...] attribute on one line, each with its item: doc
// comments and doc attributes kept, other attributes and comments dropped
// (they end no group), include_str! paths made absolute. Groups it cannot
// carry over whole (a multi-line attribute, a macro metavariable, a file
// that is not there) are left out.
func rustDocGroups(src, dir string) []string {
	var groups []string
	var cur []string
	inner, outer, attr, bad := false, false, false, false
	flush := func() {
		if attr && !bad && inner != outer && len(cur) > 0 {
			groups = append(groups, strings.Join(cur, "\n")+"\n")
		}
		cur, inner, outer, attr, bad = nil, false, false, false, false
	}
	for line := range strings.SplitSeq(src, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "////"):
			flush()
		case strings.HasPrefix(l, "///"), strings.HasPrefix(l, "//!"):
			inner, outer = inner || l[2] == '!', outer || l[2] == '/'
			cur = append(cur, strings.TrimLeft(line, " \t"))
		case l == "", strings.HasPrefix(l, "//"):
		case strings.HasPrefix(l, "#[") || strings.HasPrefix(l, "#!["):
			if !rustDocAttrRE.MatchString(l) {
				bad = bad || !strings.HasSuffix(l, "]")
				continue
			}
			attr = true
			inner, outer = inner || l[1] == '!', outer || l[1] == '['
			l, ok := absIncludes(l, dir)
			bad = bad || !ok || !strings.HasSuffix(l, "]") || strings.Contains(l, "$") || strings.Count(l, "\"")%2 != 0
			cur = append(cur, l)
		default:
			flush()
		}
	}
	flush()
	return groups
}

var (
	rustDocAttrRE = regexp.MustCompile(`\bdoc\s*=`)
	includeRE     = regexp.MustCompile(`include_str!\("([^"]*)"\)`)
)

// absIncludes rewrites include_str!("rel") to the absolute path; false when
// the file is not there.
func absIncludes(l, dir string) (string, bool) {
	ok := true
	l = includeRE.ReplaceAllStringFunc(l, func(m string) string {
		p := filepath.Join(dir, includeRE.FindStringSubmatch(m)[1])
		if _, err := os.Stat(p); err != nil {
			ok = false
		}
		return fmt.Sprintf("include_str!(%q)", p)
	})
	return l, ok && !strings.Contains(l, "include_str!(concat")
}

// rustDocCrate wraps groups into a crate: an outer group documents a
// function, an inner one a module.
func rustDocCrate(groups []string) string {
	var sb strings.Builder
	for k, g := range groups {
		if strings.HasPrefix(strings.TrimSpace(g), "//!") || strings.HasPrefix(strings.TrimSpace(g), "#!") {
			fmt.Fprintf(&sb, "pub mod m%d {\n%s}\n", k, g)
		} else {
			fmt.Fprintf(&sb, "%spub fn f%d() {}\n", g, k)
		}
	}
	return sb.String()
}

// insertDocCarriers puts a zero-width space in the middle of every doc
// prose region (past the line's doc marker) and returns the count.
func insertDocCarriers(src []byte, m *Map) ([]byte, int) {
	const zwsp = "\u200b"
	var out []byte
	n, last := 0, 0
	for _, r := range m.Regions {
		if r.Kind != Prose || r.Why != "doc comment" {
			continue
		}
		lineStart := bytes.LastIndexByte(src[:r.Start], '\n') + 1
		// Past the marker and the indentation: a carrier there would change
		// the common indentation rustdoc cuts.
		marker := lineStart + bytes.Index(src[lineStart:], []byte("//")) + 3
		for marker < len(src) && (src[marker] == ' ' || src[marker] == '\t') {
			marker++
		}
		p := max((r.Start+r.End)/2, marker)
		for p < r.End && !utf8.RuneStart(src[p]) {
			p++
		}
		if p >= r.End {
			continue
		}
		out = append(out, src[last:p]...)
		out = append(out, zwsp...)
		last = p
		n++
	}
	return append(out, src[last:]...), n
}

var (
	docblockRE = regexp.MustCompile(`(?s)<div class="docblock">(.*?)</div></details>`)
	anchorRE   = regexp.MustCompile(` (id|href)="[^"]*"`)
)

// rustdocBlocks renders the crate at path and returns its doc blocks, item
// page by item page, heading anchors (derived from the heading's text)
// removed.
func rustdocBlocks(t *testing.T, rustdoc, path string, cfgs []string) string {
	out := filepath.Join(filepath.Dir(path), "doc-"+strings.TrimSuffix(filepath.Base(path), ".rs"))
	args := []string{"--edition", "2021", "--crate-type", "lib", "--crate-name", "c", "--document-private-items", "-o", out}
	for _, c := range cfgs {
		args = append(args, "--cfg", c)
	}
	cmd := exec.CommandContext(t.Context(), rustdoc, append(args, path)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rustdoc %s: %v\n%s", path, err, b)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "c", "*", "index.html"))
	more, _ := filepath.Glob(filepath.Join(out, "c", "fn.*.html"))
	var sb strings.Builder
	for _, p := range append(pages, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range docblockRE.FindAllSubmatch(b, -1) {
			fmt.Fprintf(&sb, "== %s\n%s\n", filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), anchorRE.ReplaceAll(m[1], nil))
		}
	}
	return sb.String()
}

// carriersOutsideText returns where a zero-width space sits inside a tag
// or inside <pre> or <code> of rendered HTML.
func carriersOutsideText(html string) []string {
	var bad []string
	inTag, code := false, 0
	for i := 0; i < len(html); {
		switch {
		case strings.HasPrefix(html[i:], "\u200b"):
			if inTag || code > 0 {
				bad = append(bad, html[max(0, i-80):i]+"<<HERE>>"+html[i+3:min(len(html), i+40)])
			}
			i += 3
			continue
		case !inTag && strings.HasPrefix(html[i:], "<!--"):
			// A comment's text is not rendered: a carrier there is prose
			// as in any Markdown file.
			e := strings.Index(html[i:], "-->")
			if e < 0 {
				e = len(html) - i
			}
			i += e
			continue
		case html[i] == '<':
			inTag = true
			for _, tag := range []string{"<pre", "<code"} {
				if strings.HasPrefix(html[i:], tag) {
					code++
				}
			}
			for _, tag := range []string{"</pre", "</code"} {
				if strings.HasPrefix(html[i:], tag) {
					code--
				}
			}
		case html[i] == '>':
			inTag = false
		}
		i++
	}
	return bad
}

func TestRustDocAgainstRustdoc(t *testing.T) {
	rustdoc := testtool.Working(t, "rustdoc", "apt-get install rustc", "--version")
	dir := t.TempDir()
	included := filepath.Join(dir, "included.md")
	if err := os.WriteFile(included, []byte("Included `code\n\n```\nfence"), 0o600); err != nil {
		t.Fatal(err)
	}
	groups := make([]string, 0, len(rustDocAttrCases))
	for _, c := range rustDocAttrCases {
		groups = append(groups, strings.ReplaceAll(c, `"INCLUDED"`, fmt.Sprintf("%q", included)))
	}
	hand := len(groups)
	root := testtool.Debian(t, rustDocAttrPackages...)
	files := 0
	for _, p := range testtool.Files(t, root, 0, ".rs") {
		b, err := os.ReadFile(p)
		if err != nil || !rustDocAttrRE.Match(b) {
			continue
		}
		g := rustDocGroups(string(b), filepath.Dir(p))
		if len(g) > 0 {
			files++
		}
		groups = append(groups, g...)
	}
	src := []byte(rustDocCrate(groups))
	m, err := classifyRust("c.rs", src)
	if err != nil {
		t.Fatal(err)
	}
	dirty, n := insertDocCarriers(src, m)
	orig, withCarriers := filepath.Join(dir, "orig.rs"), filepath.Join(dir, "dirty.rs")
	for p, b := range map[string][]byte{orig: src, withCarriers: dirty} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	features := map[string]bool{}
	for _, f := range regexp.MustCompile(`feature = "([^"]+)"`).FindAllStringSubmatch(string(src), -1) {
		features[`feature="`+f[1]+`"`] = true
	}
	all := []string{"docsrs"}
	for f := range features {
		all = append(all, f)
	}
	for _, cfgs := range [][]string{nil, all} {
		want := rustdocBlocks(t, rustdoc, orig, cfgs)
		got := rustdocBlocks(t, rustdoc, withCarriers, cfgs)
		for _, b := range carriersOutsideText(got) {
			t.Errorf("cfg %v: a carrier inserted into doc prose is rendered as code or markup: %q", cfgs, b)
		}
		if seen := strings.Count(got, "\u200b"); seen < n*9/10 {
			t.Errorf("cfg %v: %d of %d inserted carriers rendered", cfgs, seen, n)
		}
		if clean := strings.ReplaceAll(got, "\u200b", ""); clean != want {
			wl, gl := strings.Split(want, "\n"), strings.Split(clean, "\n")
			for i := 0; i < len(wl) && i < len(gl); i++ {
				if wl[i] != gl[i] {
					t.Errorf("cfg %v: the rendered docs changed with carriers in the prose at line %d:\n%.400s\n%.400s", cfgs, i+1, wl[i], gl[i])
					break
				}
			}
		}
	}
	prose, conservative := rustDocLineCounts(src, m)
	t.Logf("%d groups (%d hand-written, %d from %d real files), %d carriers inserted; doc lines: %d with prose, conservative %v", len(groups), hand, len(groups)-hand, files, n, prose, conservative)
	if files < 5 || n < 100 {
		t.Errorf("too little compared: %d real files, %d carriers", files, n)
	}
}

// rustDocLineCounts counts the doc comment lines of src that hold doc
// prose, and those kept whole for a #[doc] attribute, by reason.
func rustDocLineCounts(src []byte, m *Map) (prose int, conservative map[string]int) {
	conservative = map[string]int{}
	line := -1
	for _, r := range m.Regions {
		l := bytes.Count(src[:r.Start], []byte("\n"))
		switch {
		case l == line:
		case r.Kind == Prose && r.Why == "doc comment":
			prose++
			line = l
		case r.Kind == Runtime && strings.Contains(r.Why, "#[doc]"):
			conservative[r.Why]++
			line = l
		}
	}
	return prose, conservative
}
