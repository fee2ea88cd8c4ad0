package provider

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A binary starts from the descriptor that was hashed: replacing the path
// after the check (here: with a program that fails) does not change what
// runs.
func TestPinExecutesTheHeldBinary(t *testing.T) {
	trueBin, falseBin := lookPath(t, "true"), lookPath(t, "false")
	dir := t.TempDir()
	prog := filepath.Join(dir, "provider")
	copyProgram(t, trueBin, prog)
	b := Bind(&Definition{ID: "custom/p", Version: "1", Command: []string{prog}}, nil, dir, "1")
	l, err := pin(b, []string{prog}, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	copyProgram(t, falseBin, prog)
	if !strings.HasPrefix(l.path, "/proc/self/fd/") {
		t.Fatalf("executed by %q, not through its descriptor", l.path)
	}
	cmd := exec.Command(l.path)
	cmd.Args[0] = prog
	cmd.ExtraFiles = l.extra
	if err := cmd.Run(); err != nil {
		t.Fatalf("the program swapped in ran instead of the one hashed: %v", err)
	}
	if err := exec.Command(prog).Run(); err == nil {
		t.Fatal("the swap did not happen: the test proves nothing")
	}
}
