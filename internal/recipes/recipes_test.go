package recipes

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/prosewash/prosewash/internal/testkit/hooktest"
	"github.com/prosewash/prosewash/internal/testtool"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// recipePage is where the recipes are documented, relative to the repository root.
const recipePage = "docs/ci.md"

// docBlock returns the fenced block of docs/ci.md whose first line is the
// comment marker, without that line.
func docBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), filepath.FromSlash(recipePage)))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)```[a-z]*\n" + regexp.QuoteMeta(marker) + "[^\n]*\n(.*?)```")
	m := re.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no code block starting with %q", recipePage, marker)
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

// The documented lefthook recipe, verbatim: the staged file is cleaned,
// re-staged by stage_fixed, and the commit holds the cleaned file; a
// refused file is committed as it was, the refusal shown.
func TestLefthookRecipe(t *testing.T) {
	prefix := testtool.NPM(t, "lefthook@2.2.1")
	r := newRepo(t, filepath.Join(prefix, "node_modules", ".bin"))
	r.write("lefthook.yml", docBlock(t, "# lefthook.yml"))
	r.run("lefthook", "install")
	r.run("git", "add", "notes.md", "lefthook.yml")
	out := r.run("git", "commit", "-q", "-m", "notes")
	if !strings.Contains(out, "prosewash") {
		t.Fatalf("the commit ran no prosewash job:\n%s", out)
	}
	r.committed()
	r.refusalDoesNotBlock()
}

// refused is a Markdown file prosewash refuses to clean (a NUL byte).
const refused = "# T\x00itle\n\nhello\u200bworld\n"

// refusalDoesNotBlock commits a file prosewash refuses: the commit goes on,
// as with prosewash's own git hook, the file is committed as it was, and
// the refusal is in the commit's output.
func (r *repo) refusalDoesNotBlock() {
	r.t.Helper()
	r.write("bad.md", refused)
	r.run("git", "add", "bad.md")
	out, err := r.try("git", "commit", "-q", "-m", "bad")
	if err != nil {
		r.t.Fatalf("a refused file blocked the commit: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`refused \S*bad\.md: contains a NUL byte`).MatchString(out) {
		r.t.Fatalf("the commit succeeded but hid the refusal:\n%s", out)
	}
	if got := r.run("git", "show", "HEAD:bad.md"); got != refused {
		r.t.Fatalf("committed bad.md = %q, want it as it was", got)
	}
}

// The documented husky + lint-staged recipe, verbatim: lint-staged runs
// prosewash clean on the staged files and, because it exits 0 after
// cleaning, re-adds them and lets the commit go on; a refused file is
// committed as it was, the refusal shown (lint-staged --verbose).
func TestHuskyLintStagedRecipe(t *testing.T) {
	prefix := testtool.NPM(t, "husky@9.1.7", "lint-staged@17.6.1")
	r := newRepo(t)
	// The project's node_modules, as npm install would leave it.
	if err := os.Symlink(filepath.Join(prefix, "node_modules"), filepath.Join(r.dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	r.write(".gitignore", "node_modules\n")
	block := docBlock(t, "// package.json")
	r.write("package.json", "{\"name\": \"recipe\", \"private\": true,\n"+strings.TrimSpace(block)+"\n}\n")
	r.run("node", filepath.Join(prefix, "node_modules", "husky", "bin.js"))
	r.write(".husky/pre-commit", docBlock(t, "# .husky/pre-commit"))
	r.run("git", "add", "notes.md", "package.json", ".gitignore", ".husky/pre-commit")
	out, err := r.try("git", "commit", "-q", "-m", "notes")
	if err != nil {
		t.Fatalf("commit failed under lint-staged: %v\n%s", err, out)
	}
	r.committed()
	r.refusalDoesNotBlock()
}

// The documented GitHub Actions workflow, verbatim: actionlint accepts it
// (with shellcheck reading its scripts), and its run steps, executed as a
// runner executes them (bash -eo pipefail), leave a SARIF log whether the
// tree has carriers (check exits 1) or not. Only the install step is left
// out: the binary under test is on PATH instead.
func TestGitHubActionsRecipe(t *testing.T) {
	actionlint := testtool.GoTool(t, "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	shellcheck := testtool.LookPath(t, "shellcheck", "apt-get install shellcheck")
	bash := testtool.LookPath(t, "bash", "apt-get install bash")
	block := docBlock(t, "# .github/workflows/prosewash.yml")
	r := newRepo(t)
	const wfPath = ".github/workflows/prosewash.yml"
	lint := func(workflow string) (string, error) {
		r.write(wfPath, workflow)
		return r.try(actionlint, "-no-color", "-oneline", "-shellcheck", shellcheck, wfPath)
	}
	if !strings.Contains(block, "uses: github/codeql-action/upload-sarif@v4\n") {
		t.Errorf("the documented workflow does not upload with upload-sarif@v4 (v3 is deprecated)")
	}
	if out, err := lint(block); err != nil {
		t.Fatalf("actionlint rejects the documented workflow: %v\n%s", err, out)
	}
	// The linter is awake: the same workflow without runs-on is refused.
	if out, err := lint(strings.Replace(block, "runs-on:", "run-on:", 1)); err == nil {
		t.Fatalf("actionlint accepted a workflow without runs-on:\n%s", out)
	}
	r.write(wfPath, block)

	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("the documented workflow is not YAML: %v", err)
	}
	var steps []string
	installs := 0
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case s.Run == "":
			case strings.HasPrefix(s.Run, "go install github.com/prosewash/prosewash/cmd/prosewash@"):
				installs++
			default:
				steps = append(steps, s.Run)
			}
		}
	}
	if installs != 1 || len(steps) == 0 {
		t.Fatalf("the workflow should install prosewash once and run it; install steps %d, other run steps %q", installs, steps)
	}

	// results runs the steps and returns how many results the SARIF log holds.
	results := func() int {
		t.Helper()
		_ = os.Remove(filepath.Join(r.dir, "prosewash.sarif"))
		for _, s := range steps {
			if out, err := r.try(bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", s); err != nil {
				t.Fatalf("step %q failed: %v\n%s", s, err, out)
			}
		}
		b, err := os.ReadFile(filepath.Join(r.dir, "prosewash.sarif"))
		if err != nil {
			t.Fatalf("the steps left no SARIF log: %v", err)
		}
		var log struct {
			Version string `json:"version"`
			Runs    []struct {
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 {
			t.Fatalf("prosewash.sarif is not a one-run SARIF 2.1.0 log (%v):\n%s", err, b)
		}
		return len(log.Runs[0].Results)
	}
	if n := results(); n < 2 {
		t.Fatalf("SARIF holds %d results for notes.md's two carriers", n)
	}
	r.write("notes.md", "# Notes\n\nNothing hidden here.\n")
	if n := results(); n != 0 {
		t.Fatalf("SARIF holds %d results for a tree without carriers", n)
	}
}
