package walk

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// repoTree exercises every ignore source: nested .gitignore files that
// ignore, anchor and re-include, a directory pattern, "**", .git/info/exclude
// and the global excludes file.
var repoTree = map[string]string{
	".gitignore":             "*.log\n/build/\n!important.log\ndocs/**/*.tmp\n# comment\nspace\\ \n",
	"a.log":                  "",
	"important.log":          "",
	"b.go":                   "",
	"build/out.o":            "",
	"build/x.txt":            "",
	"sub/build/y.txt":        "", // /build/ is anchored to the root
	"docs/a/b.tmp":           "",
	"docs/a/b.md":            "",
	"docs/x.tmp":             "",
	"sub/.gitignore":         "*.txt\n!keep.txt\n/local\n",
	"sub/a.txt":              "",
	"sub/keep.txt":           "",
	"sub/local":              "",
	"sub/x/local":            "",
	"sub/deep/.gitignore":    "!*.txt\n",
	"sub/deep/c.txt":         "",
	"sub/deep/d.go":          "",
	"vendor/.gitignore":      "*\n!.gitignore\n!*/\n!*.go\n",
	"vendor/m/x.go":          "",
	"vendor/m/x.c":           "",
	"vendor/README":          "",
	"secret.key":             "",
	"sub/secret2":            "",
	"e.swp":                  "",
	"sub/f.swp":              "",
	"space ":                 "",
	"ü.md":                   "",
	"emptydir/":              "",
	"onlyignored/z.log":      "",
	"dot/.hidden":            "",
	"dot/.gitignore":         "!/.x\n.x/y\n",
	"dot/.x/y":               "",
	"dot/.x/z":               "",
	"negdir/.gitignore":      "d/\n!d/keep\n", // cannot re-include below an ignored dir
	"negdir/d/keep":          "",
	"negdir/e/d/f":           "",
	"star/.gitignore":        "/*\n!/keep/\n",
	"star/keep/f":            "",
	"star/drop/f":            "",
	"star/top":               "",
	"escape/.gitignore":      "\\#hash\n\\!bang\n[[]br\n",
	"escape/#hash":           "",
	"escape/!bang":           "",
	"escape/[br":             "",
	"escape/plain":           "",
	"crlf/.gitignore":        "a\r\nb \r\n",
	"crlf/a":                 "",
	"crlf/b":                 "",
	"crlf/c":                 "",
	"exact/.gitignore":       "x/y/z\n/q\n",
	"exact/x/y/z":            "",
	"exact/x/y/w":            "",
	"exact/q":                "",
	"exact/r/q":              "",
	"tracked-later/file.txt": "",
	"fake/.git":              "not a gitdir pointer\n", // not a repository: the root's rules go on
	"fake/x.log":             "",
	"fake/y.md":              "",
}

// setupRepo creates repoTree in a fresh repository, adds what is not
// ignored so that both tracked and untracked files are compared, and
// returns the root.
func setupRepo(t *testing.T, sb *sandbox) string {
	t.Helper()
	root := t.TempDir()
	runGit(t, sb.env, root, nil, "init", "-q", ".")
	writeTree(t, root, repoTree)
	writeTree(t, root, map[string]string{".git/info/exclude": "secret*\n"})
	writeTree(t, sb.xdg, map[string]string{"git/ignore": "*.swp\n"})
	if err := os.Symlink("b.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	runGit(t, sb.env, root, nil, "add", "-A", "sub", "b.go", "docs")
	return root
}

// gitFiles lists what git considers part of the work tree and not ignored.
func gitFiles(t *testing.T, sb *sandbox, dir string) []string {
	out := runGit(t, sb.env, dir, nil, "ls-files", "-z", "-c", "-o", "--exclude-standard")
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return slices.Compact(files)
}

// walkFiles lists what Walk visits (symlinks count: git lists them too).
func walkFiles(t *testing.T, arg string, opt Options) []string {
	var files []string
	for _, e := range collect(t, []string{arg}, opt) {
		if e.skip != "" && e.skip != SkipSymlink {
			t.Errorf("unexpected skip %v", e)
		}
		files = append(files, filepath.ToSlash(e.path))
	}
	sort.Strings(files)
	return files
}

func TestWalkMatchesGitLsFiles(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := setupRepo(t, sb)
	for _, portable := range []bool{false, true} {
		opt := Options{getenv: sb.getenv, portable: portable}
		t.Run("root", func(t *testing.T) {
			t.Chdir(root)
			want := gitFiles(t, sb, root)
			if got := walkFiles(t, ".", opt); !slices.Equal(got, want) {
				t.Errorf("walk differs from git ls-files\n%s", diffLists(got, want))
			}
		})
		// From a subdirectory, the root's .gitignore still applies.
		for _, sub := range []string{"sub", "sub/deep", "vendor/m", "dot"} {
			t.Run(sub, func(t *testing.T) {
				dir := filepath.Join(root, sub)
				t.Chdir(dir)
				want := gitFiles(t, sb, dir)
				if got := walkFiles(t, ".", opt); !slices.Equal(got, want) {
					t.Errorf("walk differs from git ls-files\n%s", diffLists(got, want))
				}
			})
		}
	}
}

// TestExcludesFileFromConfig points core.excludesFile at a file of our own
// in the repository config; it replaces the XDG default.
func TestExcludesFileFromConfig(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := setupRepo(t, sb)
	custom := filepath.Join(t.TempDir(), "custom-ignore")
	// Untracked files only: git lists tracked files even when ignored.
	if err := os.WriteFile(custom, []byte("*.hidden\nplain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, sb.env, root, nil, "config", "core.excludesFile", custom)
	t.Chdir(root)
	want := gitFiles(t, sb, root)
	got := walkFiles(t, ".", Options{getenv: sb.getenv})
	if !slices.Equal(got, want) {
		t.Errorf("walk differs from git ls-files\n%s", diffLists(got, want))
	}
	if !slices.Contains(got, "e.swp") || slices.Contains(got, "escape/plain") {
		t.Errorf("core.excludesFile not applied in place of the default: %q", got)
	}
}

func TestNoIgnore(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := setupRepo(t, sb)
	got := walkFiles(t, root, Options{getenv: sb.getenv, NoIgnore: true})
	var want []string
	for _, p := range walkDirOrder(t, root) {
		want = append(want, filepath.ToSlash(p))
	}
	want = append(want, filepath.ToSlash(filepath.Join(root, "link.go")))
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("NoIgnore should visit everything but .git\n%s", diffLists(got, want))
	}
}

// TestNestedRepository checks that a repository inside another one follows
// its own rules, not its parent's.
func TestNestedRepository(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := t.TempDir()
	runGit(t, sb.env, root, nil, "init", "-q", ".")
	writeTree(t, root, map[string]string{
		".gitignore":            "*.txt\n",
		"a.txt":                 "",
		"a.md":                  "",
		"inner/b.txt":           "",
		"inner/b.md":            "",
		"inner/.gitignore":      "*.md\n",
		"inner/deeper/c.md":     "",
		"inner/deeper/c.txt":    "",
		"inner/.git/info/dummy": "",
	})
	inner := filepath.Join(root, "inner")
	runGit(t, sb.env, inner, nil, "init", "-q", ".")
	t.Chdir(root)
	got := walkFiles(t, ".", Options{getenv: sb.getenv})
	var want []string
	for _, f := range gitFiles(t, sb, root) {
		if f != "inner/" {
			want = append(want, f)
		}
	}
	for _, f := range gitFiles(t, sb, inner) {
		want = append(want, "inner/"+f)
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk differs from git ls-files in each repository\n%s", diffLists(got, want))
	}
}

// TestLinkedWorktree: in a work tree made by git worktree add, .git is a
// file; info/exclude and the config live in the main repository's git dir.
func TestLinkedWorktree(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := setupRepo(t, sb)
	runGit(t, sb.env, root, nil, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	wt := filepath.Join(t.TempDir(), "linked")
	runGit(t, sb.env, root, nil, "worktree", "add", "-q", wt)
	writeTree(t, wt, map[string]string{"secret.extra": "", "plain.extra": "", "e.swp": ""})
	t.Chdir(wt)
	want := gitFiles(t, sb, wt)
	got := walkFiles(t, ".", Options{getenv: sb.getenv})
	if !slices.Equal(got, want) {
		t.Errorf("walk differs from git ls-files in a linked work tree\n%s", diffLists(got, want))
	}
	if slices.Contains(got, "secret.extra") || !slices.Contains(got, "plain.extra") {
		t.Errorf("info/exclude of the main repository not applied: %q", got)
	}
}

// TestExplicitIgnoredFile: a file named on the command line is visited even
// though git ignores it; an ignored directory named explicitly is walked.
func TestExplicitIgnoredFile(t *testing.T) {
	needGit(t)
	sb := newSandbox(t)
	root := setupRepo(t, sb)
	t.Chdir(root)
	got := walkFiles(t, "a.log", Options{getenv: sb.getenv})
	if !slices.Equal(got, []string{"a.log"}) {
		t.Errorf("explicit ignored file: got %q", got)
	}
	got = walkFiles(t, "build", Options{getenv: sb.getenv})
	if want := []string{"build/out.o", "build/x.txt"}; !slices.Equal(got, want) {
		t.Errorf("explicit ignored directory: got %q, want %q", got, want)
	}
}

// TestOutsideRepository: without a work tree no ignore file applies, like
// git and ripgrep.
func TestOutsideRepository(t *testing.T) {
	sb := newSandbox(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".gitignore": "*\n", "a": "", "b/c": ""})
	got := walkFiles(t, dir, Options{getenv: sb.getenv})
	want := []string{filepath.ToSlash(filepath.Join(dir, ".gitignore")), filepath.ToSlash(filepath.Join(dir, "a")), filepath.ToSlash(filepath.Join(dir, "b", "c"))}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func diffLists(got, want []string) string {
	var sb strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			sb.WriteString("  only walk: " + g + "\n")
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			sb.WriteString("  only git:  " + w + "\n")
		}
	}
	return sb.String()
}
