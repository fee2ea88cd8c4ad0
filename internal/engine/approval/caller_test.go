package approval

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func tree(ps ...Process) func() ([]Process, error) {
	return func() ([]Process, error) { return ps, nil }
}

// Every agent CLI's marker in the environment is a signal; an empty value
// and unrelated variables are not.
func TestAgentSignalsFromEnvironment(t *testing.T) {
	for _, m := range envMarkers() {
		c := Caller{Environ: append([]string{"HOME=/home/u"}, markerEnv(m)...)}
		s := c.AgentSignals()
		if len(s) != 1 || s[0].Agent != m.agent || !strings.Contains(s[0].What, m.name) {
			t.Errorf("%s: signals %v", m, s)
		}
		if err := c.CheckPerson(); err == nil {
			t.Errorf("%s: CheckPerson let it through", m)
		}
	}
	for _, env := range [][]string{nil, {"CLAUDECODE="}, {"TERM=xterm", "CLAUDE_CONFIG_DIR=/x", "CODEX_HOME=/y", "SHELL=/bin/bash"},
		{"AGENT=ssh", "CRUSH=0", "TERM_PROGRAM=vscode", "PAGER=less"}, {"TERM_PROGRAM=zed"}} {
		if s := (Caller{Environ: env}).AgentSignals(); len(s) != 0 {
			t.Errorf("%q: unexpected signals %v", env, s)
		}
	}
}

// Where the platform cannot show the ancestry (ErrNoAncestry: Windows and
// every platform but Linux and macOS) a caller without any other sign is
// refused, not taken for a person; an ancestry that only stops early (a
// parent of another user's) is no such doubt, and an agent's marker still
// says agent.
func TestCheckPersonRefusesWhereTheAncestryIsUnknown(t *testing.T) {
	blind := func() ([]Process, error) { return nil, ErrNoAncestry }
	var ue *UnknownCallerError
	if err := (Caller{Ancestors: blind}).CheckPerson(); !errors.As(err, &ue) || !strings.Contains(err.Error(), "cannot be ruled out") {
		t.Errorf("blind platform: CheckPerson = %v, want an *UnknownCallerError", err)
	}
	if s := (Caller{Ancestors: blind}).AgentSignals(); len(s) != 0 {
		t.Errorf("blind platform: signals %v (doubt is no agent's sign)", s)
	}
	unreadable := func() ([]Process, error) { return nil, fs.ErrPermission }
	if err := (Caller{Ancestors: unreadable}).CheckPerson(); err != nil {
		t.Errorf("an unreadable parent: CheckPerson = %v", err)
	}
	var ae *AgentError
	if err := (Caller{Environ: []string{"CLAUDECODE=1"}, Ancestors: blind}).CheckPerson(); !errors.As(err, &ae) {
		t.Errorf("blind platform under Claude Code: CheckPerson = %v, want an *AgentError", err)
	}
}

// An agent CLI among the ancestors is a signal whatever sits in between
// (a shell, script's pty, a Python pty); so is an agent's marker in an
// ancestor's environment, which a child's env -i cannot clear.
func TestAgentSignalsFromAncestry(t *testing.T) {
	shell := Process{PID: 40, Name: "bash", Argv: []string{"/bin/bash"}}
	scriptPty := Process{PID: 41, Name: "script", Argv: []string{"script", "-qec", "prosewash approve", "/dev/null"}}
	pyPty := Process{PID: 42, Name: "python3", Argv: []string{"python3", "-c", "import pty; pty.spawn(...)"}}
	for name, ancestry := range map[string][]Process{
		"claude binary":      {scriptPty, shell, {PID: 50, Name: "claude", Exe: "/home/u/.local/share/claude/versions/2.1.197"}},
		"claude via node":    {pyPty, shell, {PID: 51, Name: "node", Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}}},
		"codex":              {shell, {PID: 52, Name: "codex", Exe: "/opt/codex/bin/codex"}},
		"gemini via node":    {scriptPty, {PID: 53, Name: "node", Argv: []string{"/usr/bin/node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"}}},
		"gemini launcher":    {shell, {PID: 54, Name: "gemini", Argv: []string{"/usr/local/bin/gemini"}}},
		"copilot":            {shell, {PID: 55, Name: "copilot", Exe: "/home/u/.cache/copilot/copilot"}},
		"cursor agent":       {shell, {PID: 56, Name: "cursor-agent"}},
		"renamed comm":       {shell, {PID: 57, Name: "MainThread", Exe: "/usr/bin/claude"}},
		"marker in ancestor": {{PID: 58, Name: "env", Argv: []string{"env", "-i", "prosewash", "approve"}}, {PID: 59, Name: "bash", Environ: []string{"CLAUDECODE=1"}}},
		"windows executable": {{PID: 60, Name: "claude.exe"}},
	} {
		s := (Caller{Ancestors: tree(ancestry...)}).AgentSignals()
		if len(s) == 0 || !strings.Contains(s[0].What, "ancestor process") {
			t.Errorf("%s: signals %v", name, s)
		}
	}
	person := []Process{shell, {PID: 30, Name: "tmux: server"}, {PID: 20, Name: "sshd", Argv: []string{"sshd: u@pts/0"}},
		{PID: 21, Name: "code", Argv: []string{"/usr/share/code/code", "--type=zygote"}}, scriptPty, pyPty}
	if s := (Caller{Ancestors: tree(person...)}).AgentSignals(); len(s) != 0 {
		t.Errorf("a person's terminal: unexpected signals %v", s)
	}
}

// The real ancestry starts at the parent and walks up (Linux: /proc;
// macOS: sysctl). Where neither exists it is empty, by design.
func TestRealAncestry(t *testing.T) {
	ps, err := RealCaller().Ancestors()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		if ps != nil || err != nil {
			t.Fatalf("%v %v", ps, err)
		}
		return
	}
	if err != nil || len(ps) == 0 || ps[0].PID != os.Getppid() || ps[0].Name == "" {
		t.Fatalf("ancestry %+v, %v (parent %d)", ps, err, os.Getppid())
	}
}

const helperAncestry = "PROSEWASH_APPROVAL_ANCESTRY_OUT"

// TestHelperAncestry is the child of TestRealAgentAncestor.
func TestHelperAncestry(t *testing.T) {
	out := os.Getenv(helperAncestry)
	if out == "" {
		t.Skip("helper of TestRealAgentAncestor")
	}
	var lines []string
	for _, s := range RealCaller().AgentSignals() {
		lines = append(lines, s.String())
	}
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A real process tree: this test binary runs under a shell whose
// executable is named claude, with a clean environment. The child sees the
// agent among its ancestors.
func TestRealAgentAncestor(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the ancestry is read on Linux and macOS only")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		testtool.Missing(t, "sh", "sh not found")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "claude")
	b, err := os.ReadFile(sh)
	if err != nil {
		t.Skipf("cannot copy sh: %v", err)
	}
	if err := os.WriteFile(fake, b, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "signals")
	// "; true" keeps the shell alive as the parent instead of exec'ing.
	cmd := exec.Command(fake, "-c", `"$0" -test.run='^TestHelperAncestry$' -test.count=1; true`, os.Args[0])
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), helperAncestry + "=" + out}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "Claude Code: ancestor process") {
		t.Fatalf("signals seen by the child: %q", got)
	}
}

func TestParseProcArgs(t *testing.T) {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 2)
	b = append(b, "/usr/local/bin/claude\x00\x00\x00\x00claude\x00--print\x00CLAUDECODE=1\x00HOME=/u\x00\x00"...)
	exe, argv, env := parseProcArgs(b)
	if exe != "/usr/local/bin/claude" || strings.Join(argv, " ") != "claude --print" || strings.Join(env, " ") != "CLAUDECODE=1 HOME=/u" {
		t.Fatalf("%q %q %q", exe, argv, env)
	}
	if exe, argv, env := parseProcArgs([]byte{1, 0}); exe != "" || argv != nil || env != nil {
		t.Fatal("short input")
	}
}

// markerEnv is an environment the marker matches.
func markerEnv(m envMarker) []string {
	v := m.value
	if v == "" {
		v = "1"
	}
	env := []string{m.name + "=" + v}
	if m.also[0] != "" {
		env = append(env, m.also[0]+"="+m.also[1])
	}
	return env
}
