//go:build linux

package holdfile

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envArgs carries a holder's arguments (JSON) to the test binary started
// again as the holder.
const envArgs = "PROSEWASH_HOLDFILE_ARGS"

// TestMain is a test package's TestMain that lets its test binary act as
// the holder: started by [Start], it runs [Main]; otherwise it runs the
// tests. It returns the exit status.
func TestMain(m *testing.M) int {
	if v := os.Getenv(envArgs); v != "" {
		var args []string
		if err := json.Unmarshal([]byte(v), &args); err != nil {
			return 2
		}
		return Main(args, os.Stdout, os.Stderr)
	}
	return m.Run()
}

// Proc is a running holder.
type Proc struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	dir  string
	done chan struct{}
	err  error
}

// Start runs this test binary (its TestMain calling [TestMain]) as a
// holder of path and returns once the hold is in place; it writes when
// [Proc.WriteNow] asks, and is killed when the test ends.
func Start(t testing.TB, mode Mode, path string) *Proc {
	t.Helper()
	p := &Proc{dir: t.TempDir(), done: make(chan struct{})}
	args := []string{"-mode", string(mode), "-ready", p.file("ready"), "-log", p.file("log"), "-step", p.file("step"), "-count", "0", path}
	b, _ := json.Marshal(args)
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), envArgs+"="+string(b))
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.done })
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(p.file("ready")); err == nil {
			return p
		}
		select {
		case <-p.done:
			t.Fatalf("holder %s of %s ended before holding it: %v\n%s", mode, path, p.err, p.out.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("holder %s of %s not ready after 30s\n%s", mode, path, p.out.String())
		}
	}
}

func (p *Proc) file(name string) string { return filepath.Join(p.dir, name) }

// PID is the holder's process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// WriteNow asks the holder for one more write, waits until it is
// made and returns how many it has made in all.
func (p *Proc) WriteNow(t testing.TB) int {
	t.Helper()
	want := p.Writes(t) + 1
	if err := os.WriteFile(p.file("step"), []byte(strconv.Itoa(want)), 0o600); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(30 * time.Second); p.Writes(t) < want; time.Sleep(2 * time.Millisecond) {
		select {
		case <-p.done:
			t.Fatalf("holder ended before write %d: %v\n%s", want, p.err, p.out.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("holder did not make write %d within 30s\n%s", want, p.out.String())
		}
	}
	return want
}

// Writes is how many writes the holder has finished so far.
func (p *Proc) Writes(t testing.TB) int {
	t.Helper()
	b, err := os.ReadFile(p.file("log"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}
