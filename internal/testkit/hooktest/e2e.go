package hooktest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/ccharness"
	"github.com/prosewash/prosewash/internal/testtool"
)

// E2E is a git project driven by the built prosewash, with private state
// and configuration, for an end-to-end test with a real agent CLI.
type E2E struct {
	T    *testing.T
	Bin  string
	Proj string
	Env  []string // PROSEWASH_STATE_DIR, XDG_CONFIG_HOME, NO_COLOR
}

// NewE2E creates the project.
func NewE2E(t *testing.T) *E2E {
	t.Helper()
	return &E2E{T: t, Bin: Bin(t), Proj: ccharness.NewProject(t), Env: []string{
		"PROSEWASH_STATE_DIR=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "NO_COLOR=1",
	}}
}

// Prosewash runs the built binary in the project and fails the test when
// it fails.
func (x *E2E) Prosewash(args ...string) string {
	x.T.Helper()
	cmd := exec.Command(x.Bin, args...)
	cmd.Dir = x.Proj
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + x.T.TempDir()}, x.Env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		x.T.Fatalf("prosewash %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String() + errb.String()
}

// Approve answers "prosewash approve --mode m" on a pseudo-terminal, as a
// user in a shell would, outside any agent's environment.
func (x *E2E) Approve(m string) {
	x.T.Helper()
	script := testtool.LookPath(x.T, "script", "apt-get install bsdutils")
	cmd := exec.Command(script, "-qec", shQuote(x.Bin)+" approve --mode "+m, "/dev/null")
	cmd.Dir = x.Proj
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + x.T.TempDir(), "TERM=dumb"}, x.Env...)
	cmd.Stdin = strings.NewReader("y\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "approved for mode "+m) {
		x.T.Fatalf("prosewash approve on a terminal: %v\n%s", err, out)
	}
}

// File returns rel's content in the project.
func (x *E2E) File(rel string) string {
	x.T.Helper()
	b, err := os.ReadFile(filepath.Join(x.Proj, filepath.FromSlash(rel)))
	if err != nil {
		x.T.Fatal(err)
	}
	return string(b)
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The e2e file: a carrier in a comment (prose: cleaned in automatic mode)
// and one in a string literal (runtime: never touched).
const (
	E2EFile    = "hello.py"
	E2EContent = "# say hello\u200bworld to everyone\nprint('hi\u200bthere')\n"
	E2ECleaned = "# say helloworld to everyone\nprint('hi\u200bthere')\n"
)
