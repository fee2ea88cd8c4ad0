package approval

import (
	"bytes"
	"encoding/binary"
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
	// towards init; nil means the platform cannot tell (see RealCaller).
	Ancestors func() ([]Process, error)
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

// RealCaller is the process itself. The ancestry is read from /proc on
// Linux and from sysctl (kern.proc.pid, kern.procargs2) on macOS; on
// other platforms only the environment is looked at.
func RealCaller() Caller {
	return Caller{Environ: os.Environ(), Ancestors: func() ([]Process, error) { return ancestors(os.Getppid()) }}
}

// envMarker is an environment variable an agent CLI sets for the commands
// it runs. Verified: Claude Code 2.1.197 (CLAUDECODE=1 in every shell it
// spawns, CLAUDE_CODE_ENTRYPOINT inherited), Codex 0.169.0 (CODEX_THREAD_ID,
// CODEX_CI, CODEX_TOOL_CALL_ID seen in an exec_command's environment;
// CODEX_SANDBOX* under its sandboxes), Gemini CLI 0.61.0 (GEMINI_CLI=1 in its
// shell tool's environment, from its bundle), Copilot CLI 1.0.102
// (COPILOT_CLI=1 and COPILOT_AGENT_SESSION_ID seen in a shell command's
// environment). Cursor: CURSOR_AGENT (its CLI agent) and CURSOR_TRACE_ID
// (every Cursor terminal, the person's too), as third-party detectors
// document them; not verified here. AI_AGENT is a vendor-neutral proposal
// that Claude Code sets for its subagents.
type envMarker struct{ name, agent string }

func envMarkers() []envMarker {
	return []envMarker{
		{"CLAUDECODE", "Claude Code"},
		{"CLAUDE_CODE_ENTRYPOINT", "Claude Code"},
		{"CLAUDE_CODE_SESSION_ID", "Claude Code"},
		{"CODEX_THREAD_ID", "Codex"},
		{"CODEX_CI", "Codex"},
		{"CODEX_TOOL_CALL_ID", "Codex"},
		{"CODEX_SANDBOX", "Codex"},
		{"CODEX_SANDBOX_NETWORK_DISABLED", "Codex"},
		{"GEMINI_CLI", "Gemini CLI"},
		{"COPILOT_CLI", "Copilot CLI"},
		{"COPILOT_AGENT_SESSION_ID", "Copilot CLI"},
		{"CURSOR_AGENT", "Cursor"},
		{"CURSOR_TRACE_ID", "Cursor"},
		{"AI_AGENT", "an agent (AI_AGENT)"},
	}
}

// agentPrograms names the agent CLIs by their executable, and by the npm
// package path a Node-run one shows in its command line.
func agentPrograms() []struct{ name, pkg, agent string } {
	return []struct{ name, pkg, agent string }{
		{"claude", "@anthropic-ai/claude-code", "Claude Code"},
		{"codex", "@openai/codex", "Codex"},
		{"gemini", "@google/gemini-cli", "Gemini CLI"},
		{"copilot", "@github/copilot", "Copilot CLI"},
		{"cursor-agent", "", "Cursor"},
		{"cursor", "", "Cursor"},
	}
}

// markersIn returns the markers set (non-empty) in env.
func markersIn(env []string) []envMarker {
	set := map[string]bool{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			set[k] = true
		}
	}
	var out []envMarker
	for _, m := range envMarkers() {
		if set[m.name] {
			out = append(out, m)
		}
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
// between does not hide it), markers in an ancestor's environment. An
// ancestry that cannot be read is not a signal (the environment still is).
func (c Caller) AgentSignals() []Signal {
	var out []Signal
	for _, m := range markersIn(c.Environ) {
		out = append(out, Signal{Agent: m.agent, What: m.name + " is set in the environment"})
	}
	if c.Ancestors == nil {
		return out
	}
	procs, _ := c.Ancestors()
	for _, p := range procs {
		if agent, ok := agentProgram(p); ok {
			out = append(out, Signal{Agent: agent, What: fmt.Sprintf("ancestor process %d is %s", p.PID, describe(p))})
		}
		for _, m := range markersIn(p.Environ) {
			out = append(out, Signal{Agent: m.agent, What: fmt.Sprintf("ancestor process %d (%s) has %s in its environment", p.PID, p.Name, m.name)})
		}
	}
	return out
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

// CheckPerson returns an *AgentError when any agent signal is present.
func (c Caller) CheckPerson() error {
	if s := c.AgentSignals(); len(s) > 0 {
		return &AgentError{Signals: s}
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
