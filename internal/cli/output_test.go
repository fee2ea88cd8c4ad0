package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// A crafted file name cannot forge a finding for another file: names with
// control characters are quoted the way git quotes paths, in check's
// findings and in clean's messages, while --format json keeps them exact.
func TestFileNamesCannotForgeOutputLines(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file names cannot hold newlines on windows")
	}
	dir := t.TempDir()
	forged := "a.md\nother.md:1:1 U+200B ZERO WIDTH SPACE prose remove\nz.md"
	if err := os.WriteFile(filepath.Join(dir, forged), []byte("Stray\u200b space.\n"), 0o644); err != nil {
		t.Skipf("this file system refuses newlines in names: %v", err)
	}
	t.Chdir(dir)
	t.Setenv("PROSEWASH_STATE_DIR", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errb bytes.Buffer
	if code := Main([]string{"check", "."}, strings.NewReader(""), &out, &errb); code != exitFindings {
		t.Fatalf("check exit %d, want %d; stderr:\n%s", code, exitFindings, errb.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], `"a.md\nother.md:1:1 U+200B ZERO WIDTH SPACE prose remove\nz.md":1:6 U+200B`) {
		t.Fatalf("check printed %d lines, want one quoted finding:\n%s", len(lines), out.String())
	}

	out.Reset()
	errb.Reset()
	if code := Main([]string{"check", "--format", "json", "."}, strings.NewReader(""), &out, &errb); code != exitFindings {
		t.Fatalf("check --format json exit %d; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"path": "a.md\nother.md:1:1 U+200B ZERO WIDTH SPACE prose remove\nz.md"`) {
		t.Fatalf("JSON output does not hold the exact name:\n%s", out.String())
	}

	out.Reset()
	errb.Reset()
	Main([]string{"clean", forged}, strings.NewReader(""), &out, &errb)
	for _, l := range strings.Split(errb.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "prosewash: ") {
			t.Fatalf("clean printed a line without the prefix, forged by the file name: %q\n%s", l, errb.String())
		}
	}
}

func TestVersionNamesTheBuild(t *testing.T) {
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, release},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "4f1c2ab3d9e0aa77"}, {Key: "vcs.modified", Value: "false"}}, release + "+4f1c2ab3d9e0"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "4f1c2ab3d9e0aa77"}, {Key: "vcs.modified", Value: "true"}}, release + "+4f1c2ab3d9e0.dirty"},
	} {
		if got := versionFrom(tc.settings); got != tc.want {
			t.Errorf("versionFrom(%v) = %q, want %q", tc.settings, got, tc.want)
		}
	}
}

// A bug that panics becomes one error line and its own exit status, never
// a stack trace and never the usage status.
func TestPanicIsAnInternalError(t *testing.T) {
	cmds := append(commands(), command{name: "boom", run: func(*env, []string) error { panic("index out of range") }})
	var out, errb bytes.Buffer
	code := mainWith(cmds, []string{"boom"}, strings.NewReader(""), &out, &errb)
	if code != exitInternal {
		t.Fatalf("exit %d, want %d", code, exitInternal)
	}
	if !strings.Contains(errb.String(), "prosewash: error: internal error in boom: index out of range") || strings.Contains(errb.String(), "goroutine") {
		t.Fatalf("stderr:\n%s", errb.String())
	}
	if out.Len() != 0 {
		t.Fatalf("stdout holds %q", out.String())
	}
}

// Colour is the exact SGR fatih/color wrote before the ui's own styles
// replaced it, and nothing at all when off or when stderr is not a terminal.
func TestColourModes(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct{ mode, want string }{
		{"always", "prosewash: \x1b[31merror:\x1b[0m no\nprosewash: \x1b[33mwarning:\x1b[0m so\nprosewash: \x1b[36mhint:\x1b[0m try\nprosewash: plain\n\x1b[32mok\x1b[0m \x1b[1mid\x1b[22m"},
		{"never", "prosewash: error: no\nprosewash: warning: so\nprosewash: hint: try\nprosewash: plain\nok id"},
		{"auto", "prosewash: error: no\nprosewash: warning: so\nprosewash: hint: try\nprosewash: plain\nok id"},
	} {
		var out, errb bytes.Buffer
		u := newUI(&out, &errb, c.mode)
		u.errorf("no")
		u.warnf("so")
		u.hintf("try")
		u.infof("plain")
		errb.WriteString(u.green.Sprint("ok") + " " + u.bold.Sprint("id"))
		if errb.String() != c.want || out.Len() != 0 {
			t.Errorf("--color=%s wrote %q (stdout %q), want %q", c.mode, errb.String(), out.String(), c.want)
		}
	}
}
