package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/prosewash/prosewash/internal/testtool"
)

// readmeLimit is the README's size budget: a newcomer reads it in five
// minutes; everything else belongs on a page under docs/.
const readmeLimit = 10 * 1024

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > readmeLimit {
		t.Errorf("README.md is %d bytes, over the %d-byte budget: move the detail to a page under docs/", len(b), readmeLimit)
	}
}

// markdownFiles returns README.md and every Markdown file under docs/.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	linkRE     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpanRE = regexp.MustCompile("`[^`]*`")
)

// links returns the link targets of a Markdown text with their line numbers,
// outside fenced code blocks and code spans.
func links(text string) (targets []string, lines []int) {
	fence := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(l, ""), -1) {
			targets = append(targets, m[1])
			lines = append(lines, i+1)
		}
	}
	return targets, lines
}

// anchors returns the anchors GitHub gives the headings of a Markdown text:
// lower case, punctuation other than '-' and '_' dropped, spaces as '-'.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

func TestLinksResolve(t *testing.T) {
	root := testtool.RepoRoot(t)
	n := 0
	for _, f := range markdownFiles(t, root) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		targets, lines := links(string(b))
		for i, target := range targets {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s:%d: link %s: %s does not exist", rel, lines[i], target, path)
				continue
			}
			if anchor == "" {
				continue
			}
			db, err := os.ReadFile(dest)
			if err != nil {
				t.Errorf("%s:%d: link %s: %v", rel, lines[i], target, err)
				continue
			}
			if !anchors(string(db))[anchor] {
				t.Errorf("%s:%d: link %s: no heading with anchor #%s", rel, lines[i], target, anchor)
			}
		}
	}
	if n < 20 {
		t.Fatalf("found only %d local links: the link reader is broken", n)
	}
}

func TestLinkReader(t *testing.T) {
	text := "see [a](x.md) and `[b](code.md)`\n```\n[c](fenced.md)\n```\n[d](y.md#some-part)\n"
	got, _ := links(text)
	if strings.Join(got, " ") != "x.md y.md#some-part" {
		t.Errorf("links = %q", got)
	}
	if a := anchors("# Modes and approval\n## The memory lane: `prosewash wash`\n"); !a["modes-and-approval"] || !a["the-memory-lane-prosewash-wash"] {
		t.Errorf("anchors = %v", a)
	}
}
