package lane

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
)

// fixture is a project, a home with a Claude memory dir and a private state dir, with a
// fake clock.
type fixture struct {
	t     *testing.T
	root  string
	home  string
	state string
	mem   string
	env   map[string]string
	clock time.Time
	lane  *Lane
	proj  *project.Project
}

var t0 = time.Date(2030, 3, 1, 9, 0, 0, 0, time.UTC)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: filepath.Join(base, "proj"), home: filepath.Join(base, "home"), state: filepath.Join(base, "state"), clock: t0}
	for _, d := range []string{f.root, f.home, f.state, filepath.Join(f.root, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	f.env = map[string]string{"PROSEWASH_STATE_DIR": f.state, "HOME": f.home, "XDG_CONFIG_HOME": filepath.Join(base, "xdg")}
	f.mem = discover.MemoryDir(discover.Options{Home: f.home, ProjectRoot: f.root})
	if err := os.MkdirAll(f.mem, 0o700); err != nil {
		t.Fatal(err)
	}
	f.reopen()
	return f
}

func (f *fixture) getenv(k string) string { return f.env[k] }

// reopen builds a fresh project and lane (the configuration is read once per project).
func (f *fixture) reopen() {
	f.t.Helper()
	p, err := project.Find(project.Options{Root: f.root, Dir: f.root, Getenv: f.getenv, Home: f.home})
	if err != nil {
		f.t.Fatal(err)
	}
	f.proj = p
	f.lane = New(p, Options{Home: f.home, Getenv: f.getenv, Now: func() time.Time { return f.clock }})
}

func (f *fixture) write(path, content string) string {
	f.t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(f.root, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return path
}

func (f *fixture) memFile(name, content string) string {
	return f.write(filepath.Join(f.mem, name), content)
}

func (f *fixture) read(path string) string {
	f.t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(f.root, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) config(toml string) {
	f.write(".prosewash.toml", toml)
	f.reopen()
}

// fatMemory is a memory index with duplicates (each in a later list than its first copy: a
// line repeated inside one list is a step and stays), blank runs, a dead entry that carries
// nothing but its link and title, and trailing blanks.
const fatMemory = `# Memory

- [Deploy notes](deploy.md): release 2.4.1 shipped on 2030-02-11
- The staging database runs on port 5433 behind pgbouncer

Notes from the last review:

- The staging database runs on port 5433 behind pgbouncer



- Retry the flaky upload test 3 times before filing a bug

Later:

- Retry the flaky upload test 3 times before filing a bug
- [Gone](missing-note.md)
`

const projectClaude = `# Project rules

- Use ` + "`go test ./...`" + ` before every commit.
- Never push to main directly; open a pull request.

Reviews:

- Never push to main directly; open a pull request.
`

func (f *fixture) fatWorld() {
	f.memFile("MEMORY.md", fatMemory)
	f.memFile("deploy.md", "---\nname: deploy\n---\nDeploys go through the release pipeline, version 2.4.1.\n")
	f.write("CLAUDE.md", projectClaude)
}

// stateDir is the project's private state dir (under PROSEWASH_STATE_DIR).
func (f *fixture) stateDir() string {
	f.t.Helper()
	d, err := f.proj.StateDir()
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}
