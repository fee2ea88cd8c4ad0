//go:build unix

package provider

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func copyProgram(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	if err := os.WriteFile(to+".tmp", b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(to+".tmp", to); err != nil {
		t.Fatal(err)
	}
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testtool.Missing(t, name, name+" not found")
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// pin refuses a program or script that no longer hashes as bound, edited
// in place or replaced by a rename, and a binding that names nothing.
func TestPinRefusesWhatChanged(t *testing.T) {
	trueBin, falseBin := lookPath(t, "true"), lookPath(t, "false")
	dir := t.TempDir()
	prog := filepath.Join(dir, "bin", "provider")
	copyProgram(t, trueBin, prog)
	def := &Definition{ID: "custom/p", Version: "1", Command: []string{prog}}
	b := Bind(def, nil, t.TempDir(), "1")
	if b.Kind != BoundBinary || b.File != prog {
		t.Fatalf("binding %+v", b)
	}
	l, err := pin(b, []string{prog}, dir)
	if err != nil {
		t.Fatalf("unchanged program refused: %v", err)
	}
	l.close()
	copyProgram(t, falseBin, prog)
	var ce *ChangedError
	if _, err := pin(b, []string{prog}, dir); !errors.As(err, &ce) || !strings.Contains(err.Error(), "changed before it started") {
		t.Fatalf("replaced program: %v, want a ChangedError", err)
	}
	if _, err := pin(Binding{}, []string{prog}, dir); !errors.Is(err, errNoBinding) {
		t.Fatalf("no binding: %v", err)
	}

	sh := lookPath(t, "sh")
	script := filepath.Join(dir, "providers", "run.sh")
	os.MkdirAll(filepath.Dir(script), 0o755)
	os.WriteFile(script, []byte("cat\n"), 0o644)
	sdef := &Definition{ID: "custom/s", Version: "1", Command: []string{sh, script}}
	sb := Bind(sdef, nil, t.TempDir(), "1")
	if sb.Kind != BoundScript || sb.Interpreter == nil || sb.ScriptArg != 1 {
		t.Fatalf("script binding %+v", sb)
	}
	for name, change := range map[string]func(){
		"edited in place": func() { os.WriteFile(script, []byte("cat; echo more\n"), 0o644) },
		"renamed over":    func() { os.WriteFile(script+".new", []byte("cat #\n"), 0o644); os.Rename(script+".new", script) },
		"linked elsewhere": func() {
			other := filepath.Join(dir, "other.sh")
			os.WriteFile(other, []byte("cat\n"), 0o644)
			os.Remove(script)
			os.Symlink(other, script)
		},
	} {
		os.Remove(script)
		os.WriteFile(script, []byte("cat\n"), 0o644)
		if l, err := pin(sb, []string{sh, script}, dir); err != nil {
			t.Fatalf("%s: unchanged script refused: %v", name, err)
		} else {
			l.close()
		}
		change()
		if _, err := pin(sb, []string{sh, script}, dir); !errors.As(err, &ce) {
			t.Errorf("script %s: %v, want a ChangedError", name, err)
		}
	}
}

// A provider that changes its own script while it runs is not believed:
// its reply is refused, whatever it says.
func TestRunRefusesAScriptChangedWhileItRan(t *testing.T) {
	c := fakeProvider(t, "stdio", 30)
	dir := t.TempDir()
	script := filepath.Join(dir, "fake.py")
	src, err := os.ReadFile("testdata/fake.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(script, src, 0o644)
	c.Def.Command = []string{c.Def.Command[0], script}
	c.Bind = Bind(c.Def, nil, c.Dir, "1")
	if _, err := Run(context.Background(), c, request("upper")); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	_, err = Run(context.Background(), c, request("selfedit"))
	var ce *ChangedError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "changed while it ran") {
		t.Fatalf("a script that edited itself: %v, want refused", err)
	}
}
