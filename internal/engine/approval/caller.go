package approval

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Caller is what an approval may look at about who asks for it: the
// environment of the process and its ancestry. RealCaller reads both from
// the system; tests inject them. Nothing switches the check off: no
// variable, flag or configuration key (an agent could set any of them).
type Caller struct {
	Environ []string // KEY=VALUE, as os.Environ
	// Ancestors lists the parent of this process, its parent, and so on
	// towards init; ErrNoAncestry means the platform cannot tell (see
	// RealCaller), nil looks at none.
	Ancestors func() ([]Process, error)
	// Surroundings lists the signs that an agent can type into this
	// process's terminal without being its ancestor: under the same tmux
	// or screen server, in the same session, feeding the program that
	// holds the terminal (see surround.go). nil looks at none.
	Surroundings func() []Signal
}

// Process is one ancestor.
type Process struct {
	PID  int
	Name string   // the process name (comm)
	Exe  string   // the executable's path, when readable
	Argv []string // its command line, when readable
	// Environ is the environment it started with, when readable (Linux,
	// the user's own processes): it shows an agent's markers even after a
	// child cleared its own environment (env -i).
	Environ []string
}

// Signal is one sign that an agent CLI is asking.
type Signal struct {
	Agent string // e.g. "Claude Code"
	What  string // the evidence, e.g. "CLAUDECODE in the environment"
}

func (s Signal) String() string { return s.Agent + ": " + s.What }

// maxAncestors bounds the walk up the parent chain (a loop in a corrupted
// table, a very deep tree).
const maxAncestors = 128

// ErrNoAncestry is what Ancestors returns where the platform cannot show
// the processes that started this one (Windows and every platform but
// Linux and macOS, without cgo). The ancestry is what tells an agent that
// started approve through a pty from a person, so CheckPerson refuses
// there rather than guess from the environment alone; nothing else asks
// (the hooks never do, and run as before).
var ErrNoAncestry = errors.New("this platform cannot show which processes started prosewash")

// RealCaller is the process itself. The ancestry is read from /proc on
// Linux and from sysctl (kern.proc.pid, kern.procargs2) on macOS; on
// other platforms it is ErrNoAncestry.
func RealCaller() Caller {
	return Caller{Environ: os.Environ(), Ancestors: func() ([]Process, error) { return ancestors(os.Getppid()) }, Surroundings: realSurroundings}
}

// envMarker is an environment variable an agent CLI sets for the commands
// it runs: set to anything (value ""), or to value; with also, only
// together with that other variable and value. Verified: Claude Code
// 2.1.197 (CLAUDECODE=1 in every shell it spawns, CLAUDE_CODE_ENTRYPOINT
// inherited), Codex 0.169.0 (CODEX_THREAD_ID, CODEX_CI, CODEX_TOOL_CALL_ID
// seen in an exec_command's environment; CODEX_SANDBOX* under its
// sandboxes), Gemini CLI 0.61.0 (GEMINI_CLI=1 in its shell tool's
// environment, from its bundle), Copilot CLI 1.0.102 (COPILOT_CLI=1 and
// COPILOT_AGENT_SESSION_ID seen in a shell command's environment),
// opencode 1.18.33 (OPENCODE=1, OPENCODE_PID and AGENT=1 seen in its bash
// tool's environment; AGENT=1 is matched as a vendor-neutral marker). The
// others come from third-party detectors (@vercel/detect-agent,
// ascorbic/am-i-vibing at 39a2d13) and are not verified here: Cursor's
// CURSOR_AGENT and CURSOR_CLI (its CLI agent) and CURSOR_TRACE_ID (every
// Cursor terminal, the person's too), OpenCode, Antigravity, Amp, Auggie,
// Qwen Code, Crush, Warp's agent, pi, Windsurf's editor (every terminal of
// it), Zed's and VS Code's agents (their terminals with the pager their
// agent sets), Replit (every shell there). AI_AGENT is a vendor-neutral
// proposal that Claude Code sets for its subagents.
type envMarker struct {
	name, value, agent string
	also               [2]string // another variable and value that must be set with it
}

func envMarkers() []envMarker {
	return []envMarker{
		{name: "CLAUDECODE", agent: "Claude Code"},
		{name: "CLAUDE_CODE_ENTRYPOINT", agent: "Claude Code"},
		{name: "CLAUDE_CODE_SESSION_ID", agent: "Claude Code"},
		{name: "CODEX_THREAD_ID", agent: "Codex"},
		{name: "CODEX_CI", agent: "Codex"},
		{name: "CODEX_TOOL_CALL_ID", agent: "Codex"},
		{name: "CODEX_SANDBOX", agent: "Codex"},
		{name: "CODEX_SANDBOX_NETWORK_DISABLED", agent: "Codex"},
		{name: "GEMINI_CLI", agent: "Gemini CLI"},
		{name: "COPILOT_CLI", agent: "Copilot CLI"},
		{name: "COPILOT_AGENT_SESSION_ID", agent: "Copilot CLI"},
		{name: "CURSOR_AGENT", agent: "Cursor"},
		{name: "CURSOR_CLI", agent: "Cursor"},
		{name: "CURSOR_TRACE_ID", agent: "Cursor"},
		{name: "OPENCODE", agent: "OpenCode"},
		{name: "OPENCODE_BIN_PATH", agent: "OpenCode"},
		{name: "OPENCODE_SERVER", agent: "OpenCode"},
		{name: "OPENCODE_PID", agent: "OpenCode"},
		{name: "ANTIGRAVITY_AGENT", agent: "Antigravity"},
		{name: "AMP_CURRENT_THREAD_ID", agent: "Amp"},
		{name: "AGENT", value: "amp", agent: "Amp"},
		{name: "AUGMENT_AGENT", agent: "Auggie"},
		{name: "QWEN_CODE", agent: "Qwen Code"},
		{name: "CRUSH", value: "1", agent: "Crush"},
		{name: "AGENT", value: "crush", agent: "Crush"},
		{name: "OZ_RUN_ID", agent: "Warp's agent"},
		{name: "PI_CODING_AGENT", agent: "pi"},
		{name: "CODEIUM_EDITOR_APP_ROOT", agent: "Windsurf"},
		{name: "TERM_PROGRAM", value: "zed", agent: "Zed's agent", also: [2]string{"PAGER", "cat"}},
		{name: "TERM_PROGRAM", value: "vscode", agent: "Copilot in VS Code", also: [2]string{"GIT_PAGER", "cat"}},
		{name: "REPL_ID", agent: "Replit"},
		{name: "AI_AGENT", agent: "an agent (AI_AGENT)"},
		{name: "AGENT", value: "1", agent: "an agent (AGENT=1)"},
	}
}

// String names the marker as it is matched.
func (m envMarker) String() string {
	s := m.name
	if m.value != "" {
		s += "=" + m.value
	}
	if m.also[0] != "" {
		s += " with " + m.also[0] + "=" + m.also[1]
	}
	return s
}

// agentPrograms names the agent CLIs by their executable, and by a path
// (an npm package, an install directory) a Node-run one shows in its
// command line. Cursor's CLI is installed as "agent" and "cursor-agent".
func agentPrograms() []struct{ name, pkg, agent string } {
	return []struct{ name, pkg, agent string }{
		{"claude", "@anthropic-ai/claude-code", "Claude Code"},
		{"codex", "@openai/codex", "Codex"},
		{"gemini", "@google/gemini-cli", "Gemini CLI"},
		{"copilot", "@github/copilot", "Copilot CLI"},
		{"cursor-agent", "cursor-agent", "Cursor"},
		{"agent", "", "Cursor"},
		{"cursor", "", "Cursor"},
		{"opencode", "opencode-ai", "OpenCode"},
		{"amp", "@sourcegraph/amp", "Amp"},
		{"auggie", "@augmentcode/auggie", "Auggie"},
		{"qwen", "@qwen-code/qwen-code", "Qwen Code"},
		{"crush", "", "Crush"},
		{"aider", "", "Aider"},
		{"devin", "", "Devin"},
		{"droid", "", "Factory Droid"},
	}
}

// markersIn returns the markers set in env.
func markersIn(env []string) []envMarker {
	set := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			set[k] = v
		}
	}
	var out []envMarker
	for _, m := range envMarkers() {
		v, ok := set[m.name]
		if !ok || m.value != "" && v != m.value {
			continue
		}
		if m.also[0] != "" && set[m.also[0]] != m.also[1] {
			continue
		}
		out = append(out, m)
	}
	return out
}

// agentProgram tells whether a process is one of the agent CLIs: by its
// executable name, by its argv[0] or script argument, or by an npm package
// path in its command line (Node runs them as "node .../cli.js").
func agentProgram(p Process) (string, bool) {
	names := []string{p.Name, p.Exe}
	for i, a := range p.Argv {
		if i < 2 {
			names = append(names, a)
		}
	}
	for _, prog := range agentPrograms() {
		for _, n := range names {
			if n == "" {
				continue
			}
			base := strings.TrimSuffix(strings.ToLower(filepath.Base(n)), ".exe")
			base = strings.TrimSuffix(base, ".js")
			if base == prog.name {
				return prog.agent, true
			}
		}
		if prog.pkg == "" {
			continue
		}
		for _, a := range p.Argv {
			if strings.Contains(filepath.ToSlash(a), prog.pkg+"/") {
				return prog.agent, true
			}
		}
	}
	return "", false
}

// AgentSignals lists every sign that an agent CLI is asking: markers in the
// environment, an ancestor that is an agent CLI (a script, pty or shell in
// between does not hide it), markers in an ancestor's environment, and an
// agent that can type into the terminal from outside the ancestry (see
// Surroundings). An ancestry that cannot be read is not a signal (the
// environment still is).
func (c Caller) AgentSignals() []Signal {
	s, _ := c.signals()
	return s
}

// signals is AgentSignals and, when the platform cannot show the ancestry
// at all, ErrNoAncestry.
func (c Caller) signals() ([]Signal, error) {
	var out []Signal
	var blind error
	for _, m := range markersIn(c.Environ) {
		out = append(out, Signal{Agent: m.agent, What: m.String() + " is set in the environment"})
	}
	if c.Ancestors != nil {
		procs, err := c.Ancestors()
		if errors.Is(err, ErrNoAncestry) {
			blind = err
		}
		for _, p := range procs {
			if agent, ok := agentProgram(p); ok {
				out = append(out, Signal{Agent: agent, What: fmt.Sprintf("ancestor process %d is %s", p.PID, describe(p))})
			}
			for _, m := range markersIn(p.Environ) {
				out = append(out, Signal{Agent: m.agent, What: fmt.Sprintf("ancestor process %d (%s) has %s in its environment", p.PID, p.Name, m)})
			}
		}
	}
	if c.Surroundings != nil {
		out = append(out, c.Surroundings()...)
	}
	return out, blind
}

func describe(p Process) string {
	if len(p.Argv) == 0 {
		return p.Name
	}
	s := strings.Join(p.Argv, " ")
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Sprintf("%s (%s)", p.Name, s)
}

// AgentError refuses an approval asked for by (or through) an agent CLI.
type AgentError struct{ Signals []Signal }

func (e *AgentError) Error() string {
	return fmt.Sprintf("approving needs a person, and this runs under an agent CLI (%s): an agent cannot approve itself", e.Signals[0])
}

// UnknownCallerError refuses an approval where the platform cannot show
// who asks for it (ErrNoAncestry): fail closed, never a guess.
type UnknownCallerError struct{ Err error }

func (e *UnknownCallerError) Error() string {
	return fmt.Sprintf("approving needs a person, and %v: an agent that started this cannot be ruled out, so nothing is approved here", e.Err)
}

func (e *UnknownCallerError) Unwrap() error { return e.Err }

// CheckPerson returns an *AgentError when any agent signal is present, and
// an *UnknownCallerError when the platform cannot show the ancestry.
func (c Caller) CheckPerson() error {
	s, blind := c.signals()
	if len(s) > 0 {
		return &AgentError{Signals: s}
	}
	if blind != nil {
		return &UnknownCallerError{Err: blind}
	}
	return nil
}

// parseProcArgs splits kern.procargs2: argc (int32), the executable path,
// NUL padding, argc arguments, then the environment, all NUL-terminated.
func parseProcArgs(b []byte) (exe string, argv, env []string) {
	if len(b) < 4 {
		return "", nil, nil
	}
	argc := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	next := func() (string, bool) {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return "", false
		}
		s := string(b[:i])
		b = b[i+1:]
		return s, true
	}
	exe, _ = next()
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	for i := 0; i < argc; i++ {
		s, ok := next()
		if !ok {
			return exe, argv, nil
		}
		argv = append(argv, s)
	}
	for {
		s, ok := next()
		if !ok || s == "" {
			return exe, argv, env
		}
		env = append(env, s)
	}
}
