package walk

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// ignoredPath applies git's whole-path rule with a fixed set of levels: a
// path is ignored when it or any of its ancestor directories is.
func ignoredPath(top *level, rel string, isDir bool) bool {
	parts := strings.Split(rel, "/")
	dir := ""
	for i, name := range parts {
		last := i == len(parts)-1
		if ignored(top, dir, name, isDir || !last) {
			return true
		}
		if dir == "" {
			dir = name
		} else {
			dir += "/" + name
		}
	}
	return false
}

func TestParseIgnore(t *testing.T) {
	in := "\ufeff# comment\n\n  \n\\#hash\n!neg\n\\!bang\ndir/\n/anch\nmid/dle\n**/deep\ntrail  \nesc\\ \\ \ncrlf\r\n*.o\nfoo*\n!\n/\n"
	got := parseIgnore([]byte(in))
	want := []rule{
		{pat: `\#hash`, kind: kindGlob, basename: true, literal: 0},
		{pat: "neg", negate: true, kind: kindExact, basename: true, literal: 3},
		{pat: `\!bang`, kind: kindGlob, basename: true, literal: 0},
		{pat: "dir", dirOnly: true, kind: kindExact, basename: true, literal: 3},
		{pat: "anch", kind: kindExact, literal: 4},
		{pat: "mid/dle", kind: kindExact, literal: 7},
		{pat: "deep", kind: kindExact, basename: true, literal: 4},
		{pat: "trail", kind: kindExact, basename: true, literal: 5},
		{pat: `esc\ \ `, kind: kindGlob, basename: true, literal: 3},
		{pat: "crlf", kind: kindExact, basename: true, literal: 4},
		{pat: "*.o", kind: kindSuffix, basename: true, literal: 0},
		{pat: "foo*", kind: kindGlob, basename: true, literal: 3},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rules %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rule %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestIgnoredTable(t *testing.T) {
	tests := []struct {
		rules string
		path  string
		isDir bool
		want  bool
	}{
		{"a", "a", false, true},
		{"a", "x/a", false, true},
		{"/a", "x/a", false, false},
		{"a/", "a", false, false},
		{"a/", "a", true, true},
		{"a/", "a/f", false, true}, // via the ignored parent
		{"a/b", "x/a/b", false, false},
		{"a/b", "a/b", false, true},
		{"*.o", "x/y.o", false, true},
		{"*.o\n!keep.o", "keep.o", false, false},
		{"*\n!*/\n!*.txt", "d/e.txt", false, false},
		{"*\n!*/\n!*.txt", "d/e.go", false, true},
		{"d/\n!d/e.txt", "d/e.txt", false, true}, // cannot re-include below an ignored dir
		{"**/x", "a/b/x", false, true},
		{"a/**", "a/b/c", false, true},
		{"a/**", "a", true, false},
		{"a/**/c", "a/c", false, true},
		{"a/**/c", "a/b/b/c", false, true},
		{"a/*/c", "a/b/b/c", false, false},
		{"a?c", "a/c", false, false},
		{"[a-c]x", "bx", false, true},
		{"[!a-c]x", "bx", false, false},
		{`\*x`, "*x", false, true},
		{`\*x`, "ax", false, false},
	}
	for _, tt := range tests {
		top := &level{rules: parseIgnore([]byte(tt.rules))}
		if got := ignoredPath(top, tt.path, tt.isDir); got != tt.want {
			t.Errorf("rules %q path %q dir=%v: ignored=%v, want %v", tt.rules, tt.path, tt.isDir, got, tt.want)
		}
	}
}

// sandbox isolates git, and our loader, from the user's and the system's
// configuration: a fresh HOME and XDG_CONFIG_HOME, no system config, no
// inherited GIT_* variables.
type sandbox struct {
	env []string
	xdg string // XDG_CONFIG_HOME
}

func newSandbox(t *testing.T) *sandbox {
	home := t.TempDir()
	s := &sandbox{xdg: filepath.Join(home, ".config")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		s.env = append(s.env, kv)
	}
	s.env = append(s.env, "HOME="+home, "XDG_CONFIG_HOME="+s.xdg, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	return s
}

// getenv is the sandbox's environment as the walker sees it.
func (s *sandbox) getenv(key string) string {
	for i := len(s.env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(s.env[i], "="); k == key {
			return v
		}
	}
	return ""
}

func needGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		testtool.Missing(t, "git", "git not found: needed to compare ignore rules with git itself")
	}
	return git
}

func runGit(t *testing.T, env []string, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(needGit(t), args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// check-ignore exits 1 when nothing is ignored.
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && args[0] == "check-ignore" {
			return out
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// candidateTree is what every pattern is tried against: names that probe
// anchoring, depth, dot files, brackets, escapes and multi-byte text.
var candidateDirs = []string{"a", "b", "a/b", "x", "x/y", "x/y/z", "c"}
var candidateFiles = []string{
	"a/a", "a/b/a", "a/b/c.txt", "a/ab", "a/.x", "b/a", "b/b", "b/a.b",
	"x/y/z/a", "x/a", "x/y/b.txt", "c/c", "ab", "ba", "a.b", ".a", "a.txt",
	"[a]", "a]b", "a-b", "a*b", "a b", "ż", "#a", "!a", "A",
}

// handPatterns cover every feature of the syntax at least once; each entry
// is one .gitignore file.
var handPatterns = []string{
	"a", "/a", "a/", "/a/", "a/b", "a/b/", "b", "*.b", "*.txt", ".*", "*", "!a", "a*", "*a",
	"?", "??", "[ab]", "[!a]", "[^a]", "[a-c]", "[]a]", "[a-]", `\[a]`, `a\*b`, "**", "**/a",
	"**/b/a", "a/**", "a/**/a", "x/**/a", "**/z/a", "x/**/z/**", "a/*", "*/a", "*/*/a", "x/*/z",
	"[[:alpha:]]", "[[:digit:]]*", "[[:punct:]]*", "[[:foo:]]", "[[:alpha:]", "[[:]]", "a.b ", `a\ `, `a\ b`,
	`\!a`, `\#a`, "#a", " a", "a/b/c.txt", "/x/y", "x/y", "y", "y/", "z/a", "**/y/", "a**b",
	"***", "a/***", "[a", "a]b", "[a]", `\a`, `a\`, "ż", "*ż", "?ż", "??", "[ż]", "x/**", "x/**/",
	"**/", "/**/a", "a/**b", "**a", "*/", "*/*", "/*", "/*/", "x/y/", "[A-Z]", "[a-zA-Z]", "[--a]",
	"a/b/**/c.txt", "**/c.txt", "*.[tb]*", "[.]a", "\\.a",
	"*\n!*.txt", "*\n!*/\n!*.txt", "a/\n!a/b", "/*\n!/a", "*.b\n!a.b", "x/\n!x/y/", "**/a\n!x/a",
	"a/*\n!a/b", "!a\na", "a\n!a", "*\n!a\n!a/*\n!a/b/", "x/y/*\n!x/y/z", "a b\n\\ a",
}

// randomPattern draws from the glob alphabet so that odd combinations
// (stars next to slashes, unclosed brackets, escapes) get exercised.
func randomPattern(r *rand.Rand) string {
	atoms := []string{"a", "b", "*", "**", "?", "/", "[ab]", "[!a]", "[", "]", `\`, ".", "x", "y", "z", "c", "-", "!", "[a-c]", "txt", "[[:alpha:]]"}
	n := 1 + r.IntN(6)
	var sb strings.Builder
	for range n {
		sb.WriteString(atoms[r.IntN(len(atoms))])
	}
	return sb.String()
}

// TestIgnoreMatchesGit runs every pattern through git check-ignore and
// through our matcher on the same tree and requires the same answer for
// every file and directory.
func TestIgnoreMatchesGit(t *testing.T) {
	needGit(t)
	env := newSandbox(t).env
	root := t.TempDir()
	runGit(t, env, root, nil, "init", "-q", ".")
	patterns := append([]string{}, handPatterns...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		p := randomPattern(r)
		if r.IntN(4) == 0 {
			p += "\n" + randomPattern(r)
		}
		patterns = append(patterns, p)
	}
	var stdin bytes.Buffer
	type probe struct {
		dir, rel string
		isDir    bool
		pattern  string
	}
	var probes []probe
	for i, pat := range patterns {
		pdir := fmt.Sprintf("p%03d", i)
		for _, d := range candidateDirs {
			if err := os.MkdirAll(filepath.Join(root, pdir, d), 0o755); err != nil {
				t.Fatal(err)
			}
			probes = append(probes, probe{pdir, d, true, pat})
		}
		for _, f := range candidateFiles {
			if err := os.WriteFile(filepath.Join(root, pdir, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			probes = append(probes, probe{pdir, f, false, pat})
		}
		if err := os.WriteFile(filepath.Join(root, pdir, ".gitignore"), []byte(pat+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range probes {
		stdin.WriteString(p.dir + "/" + p.rel + "\x00")
	}
	out := runGit(t, env, root, stdin.Bytes(), "check-ignore", "-z", "--stdin")
	gitIgnored := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			gitIgnored[p] = true
		}
	}
	levels := map[string]*level{}
	failures := 0
	for _, p := range probes {
		top, ok := levels[p.dir]
		if !ok {
			top = &level{rules: parseIgnore([]byte(p.pattern + "\n"))}
			levels[p.dir] = top
		}
		want := gitIgnored[p.dir+"/"+p.rel]
		if got := ignoredPath(top, p.rel, p.isDir); got != want {
			failures++
			if failures <= 30 {
				t.Errorf("pattern %q path %q (dir=%v): ours ignored=%v, git ignored=%v", p.pattern, p.rel, p.isDir, got, want)
			}
		}
	}
	if len(gitIgnored) == 0 {
		t.Fatal("git ignored nothing: the comparison proves nothing")
	}
}
