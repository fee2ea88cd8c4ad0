package recipes

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/hooktest"
	"github.com/prosewash/prosewash/internal/testtool"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// readmeBlock returns the fenced block of the README whose first line is
// the comment marker, without that line.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)```[a-z]*\n" + regexp.QuoteMeta(marker) + "[^\n]*\n(.*?)```")
	m := re.FindSubmatch(b)
	if m == nil {
		t.Fatalf("README.md has no code block starting with %q", marker)
	}
	return string(m[1])
}

// repo makes a git repository whose PATH finds prosewash (and extra dirs)
// and a notes.md with a zero-width space in its prose and one in code.
type repo struct {
	t   *testing.T
	dir string
	env []string
}

const dirty = "# Notes\n\nStray\u200b space in prose.\n\n```sh\necho \"keep\u200bme\"\n```\n"
const cleaned = "# Notes\n\nStray space in prose.\n\n```sh\necho \"keep\u200bme\"\n```\n"

func newRepo(t *testing.T, path ...string) *repo {
	t.Helper()
	git := testtool.LookPath(t, "git", "apt-get install git")
	bin := hooktest.Bin(t)
	dir := t.TempDir()
	home := t.TempDir()
	pathDirs := append([]string{filepath.Dir(bin), filepath.Dir(git)}, path...)
	pathDirs = append(pathDirs, filepath.SplitList(os.Getenv("PATH"))...)
	r := &repo{t: t, dir: dir, env: append(os.Environ(),
		"PATH="+strings.Join(pathDirs, string(os.PathListSeparator)),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"PROSEWASH_STATE_DIR="+t.TempDir(), "NO_COLOR=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1",
		"CI=true", "LEFTHOOK_VERBOSE=1",
	)}
	r.run("git", "init", "-q", "-b", "main")
	r.write("notes.md", dirty)
	return r
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) run(name string, args ...string) string {
	r.t.Helper()
	out, err := r.try(name, args...)
	if err != nil {
		r.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func (r *repo) try(name string, args ...string) (string, error) {
	// Look the program up on the repository's PATH, not the test's.
	for _, e := range r.env {
		if dirs, ok := strings.CutPrefix(e, "PATH="); ok {
			for _, d := range filepath.SplitList(dirs) {
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
					name = filepath.Join(d, name)
					break
				}
			}
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// committed checks what the commit holds: the prose is clean, the code
// keeps its carrier, and nothing is left unstaged.
func (r *repo) committed() {
	r.t.Helper()
	if got := r.run("git", "show", "HEAD:notes.md"); got != cleaned {
		r.t.Fatalf("committed notes.md = %q, want %q", got, cleaned)
	}
	if st := r.run("git", "status", "--porcelain", "--", "notes.md"); st != "" {
		r.t.Fatalf("notes.md left changed after the commit: %q", st)
	}
}

// The README's lefthook recipe, verbatim: the staged file is cleaned,
// re-staged by stage_fixed, and the commit holds the cleaned file.
func TestLefthookRecipe(t *testing.T) {
	prefix := testtool.NPM(t, "lefthook@2.2.1")
	r := newRepo(t, filepath.Join(prefix, "node_modules", ".bin"))
	r.write("lefthook.yml", readmeBlock(t, "# lefthook.yml"))
	r.run("lefthook", "install")
	r.run("git", "add", "notes.md", "lefthook.yml")
	out := r.run("git", "commit", "-q", "-m", "notes")
	if !strings.Contains(out, "prosewash") {
		t.Fatalf("the commit ran no prosewash job:\n%s", out)
	}
	r.committed()
}

// The README's husky + lint-staged recipe, verbatim: lint-staged runs
// prosewash clean on the staged files and, because it exits 0 after
// cleaning, re-adds them and lets the commit go on.
func TestHuskyLintStagedRecipe(t *testing.T) {
	prefix := testtool.NPM(t, "husky@9.1.7", "lint-staged@17.6.1")
	r := newRepo(t)
	// The project's node_modules, as npm install would leave it.
	if err := os.Symlink(filepath.Join(prefix, "node_modules"), filepath.Join(r.dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	r.write(".gitignore", "node_modules\n")
	block := readmeBlock(t, "// package.json")
	r.write("package.json", "{\"name\": \"recipe\", \"private\": true,\n"+strings.TrimSpace(block)+"\n}\n")
	r.run("node", filepath.Join(prefix, "node_modules", "husky", "bin.js"))
	r.write(".husky/pre-commit", "npx lint-staged\n")
	r.run("git", "add", "notes.md", "package.json", ".gitignore", ".husky/pre-commit")
	out, err := r.try("git", "commit", "-q", "-m", "notes")
	if err != nil {
		t.Fatalf("commit failed under lint-staged: %v\n%s", err, out)
	}
	r.committed()
}
