package hooktest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/testtool"
)

// Version is the prosewash version the fixtures' runners report.
const Version = "0.0.0-test"

// EnvBin names where Main put a freshly built prosewash.
const EnvBin = "PROSEWASH_TEST_BIN"

// Main builds prosewash for the package's tests (the end of a turn runs
// the built-in provider as a subprocess of it; end-to-end tests hand it to
// the real CLIs) and runs them. Use it from TestMain.
func Main(m *testing.M) int {
	if _, err := exec.LookPath("go"); err == nil {
		dir, err := os.MkdirTemp("", "prosewash-hooktest-")
		if err == nil {
			defer os.RemoveAll(dir)
			bin := filepath.Join(dir, "prosewash")
			cmd := exec.Command("go", "build", "-o", bin, "github.com/prosewash/prosewash/cmd/prosewash")
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "build prosewash: %v\n%s", err, out)
				return 1
			}
			os.Setenv(EnvBin, bin)
		}
	}
	return m.Run()
}

// Bin returns the built prosewash, or ends the test through a skip naming
// the missing go toolchain.
func Bin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv(EnvBin)
	if bin == "" {
		testtool.Missing(t, "go", "go toolchain not found: cannot build the prosewash binary this test runs")
	}
	return bin
}

// Fixture is a project (marked by .prosewash.toml, no repository needed)
// with private state and home directories.
type Fixture struct {
	T     testing.TB
	Root  string
	Base  string // PROSEWASH_STATE_DIR
	Home  string
	Vars  map[string]string
	State string // the project's state dir
}

// New creates a fixture.
func New(t testing.TB) *Fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &Fixture{T: t, Root: root, Base: t.TempDir(), Home: t.TempDir()}
	f.Write(".prosewash.toml", "")
	f.Vars = map[string]string{"PROSEWASH_STATE_DIR": f.Base, "HOME": f.Home}
	if f.State, err = state.Dir(root, f.Getenv); err != nil {
		t.Fatal(err)
	}
	return f
}

// Getenv reads the fixture's environment.
func (f *Fixture) Getenv(k string) string { return f.Vars[k] }

// Path is rel's absolute path in the project.
func (f *Fixture) Path(rel string) string { return filepath.Join(f.Root, filepath.FromSlash(rel)) }

// Write creates rel with content and returns its path.
func (f *Fixture) Write(rel, content string) string {
	f.T.Helper()
	p := f.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.T.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.T.Fatal(err)
	}
	return p
}

// Read returns rel's content.
func (f *Fixture) Read(rel string) string {
	f.T.Helper()
	b, err := os.ReadFile(f.Path(rel))
	if err != nil {
		f.T.Fatal(err)
	}
	return string(b)
}

// Env is the adapters' environment for this fixture; self is the prosewash
// binary the end of a turn runs providers with.
func (f *Fixture) Env(self string) session.Env {
	return session.Env{Getenv: f.Getenv, Home: f.Home, Self: self, Version: Version,
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()}
}

// Entries are the session's record entries.
func (f *Fixture) Entries(session string) []scope.Entry {
	f.T.Helper()
	rec, err := scope.Open(f.State, session)
	if err != nil {
		f.T.Fatal(err)
	}
	es, err := rec.Entries()
	if err != nil {
		f.T.Fatal(err)
	}
	return es
}

// Recorded lists the project-relative paths recorded for session.
func (f *Fixture) Recorded(session string) []string {
	var out []string
	for _, e := range f.Entries(session) {
		rel, err := filepath.Rel(f.Root, e.Path)
		if err != nil {
			rel = e.Path
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// NoSessions reports whether no session record was ever written.
func (f *Fixture) NoSessions() bool {
	_, err := os.Stat(filepath.Join(f.State, "sessions"))
	return err != nil
}

// Mode configures [clean] mode and, for automatic or confirm, stores the
// approval for the project's current fingerprint, as "prosewash approve"
// does after the user said yes.
func (f *Fixture) Mode(self, m string) {
	f.T.Helper()
	f.Write(".prosewash.toml", fmt.Sprintf("[clean]\nmode = %q\n", m))
	if m == approval.Manual {
		return
	}
	p, err := project.Find(project.Options{Root: f.Root, Getenv: f.Getenv, Home: f.Home, ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		f.T.Fatal(err)
	}
	s, err := approval.ProjectSubject(p, self, Version, m)
	if err != nil {
		f.T.Fatal(err)
	}
	if _, err := approval.Grant(f.State, approval.Caller{}, s); err != nil {
		f.T.Fatal(err)
	}
}

// Samples reads testdata/<dir>/<event>.jsonl (payloads captured from a
// real CLI, one per line) with $RUN replaced by run.
func Samples(t testing.TB, dir, event, run string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", dir, event+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, []byte(strings.ReplaceAll(l, "$RUN", run)))
		}
	}
	return out
}

// Dirty is a Markdown file with a carrier in its prose and one in code;
// Cleaned is what automatic mode leaves of it.
const (
	Dirty   = "# Notes\n\nhello\u200bworld, see `co\u200bde`.\n"
	Cleaned = "# Notes\n\nhelloworld, see `co\u200bde`.\n"
)

// MoveTo moves the project to dir (which must not exist), as captured
// payloads name their own project directory.
func (f *Fixture) MoveTo(dir string) {
	f.T.Helper()
	if err := os.Rename(f.Root, dir); err != nil {
		f.T.Fatal(err)
	}
	f.Root = dir
	var err error
	if f.State, err = state.Dir(dir, f.Getenv); err != nil {
		f.T.Fatal(err)
	}
}

// Fixture reads testdata/name with $PROJ replaced by the project root.
func (f *Fixture) Fixture(name string) []byte {
	f.T.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.T.Fatal(err)
	}
	return bytes.ReplaceAll(b, []byte("$PROJ"), []byte(f.Root))
}
