package ccharness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// DefaultPrompt is the prompt Run sends when Options.Prompt is empty.
const DefaultPrompt = "write the file"

// DefaultTimeout bounds one CLI session when Options.Timeout is zero. A
// session takes about a second on an idle machine; the margin is for loaded
// CI hosts.
const DefaultTimeout = 2 * time.Minute

// Options configures one CLI session.
type Options struct {
	// Bin is the claude binary; empty means RequireClaude (skip when absent).
	Bin string
	// ProjectDir is the session's working directory; empty means a fresh
	// NewProject. Pass your own to prepare it first (e.g. run
	// `prosewash install --claude` in it).
	ProjectDir string
	// Settings, when non-nil, is written to ProjectDir/.claude/settings.json,
	// replacing any there; nil leaves the project's own settings alone.
	Settings []byte
	// Scenario is what the mock model does.
	Scenario Scenario
	// Prompt is the -p prompt; empty means DefaultPrompt.
	Prompt string
	// ExtraPath directories are put in front of PATH, for the CLI and its
	// hooks (e.g. the directory holding a freshly built prosewash).
	ExtraPath []string
	// Env holds extra KEY=VALUE entries; they override the harness's own.
	Env []string
	// Args are extra CLI arguments, appended after the harness's flags.
	Args []string
	// Timeout bounds the session; zero means DefaultTimeout.
	Timeout time.Duration
	// ConfigFiles are written into the session's CLAUDE_CONFIG_DIR before it
	// starts, by path relative to it (user memory "CLAUDE.md", auto memory
	// "projects/"+Slug(dir)+"/memory/MEMORY.md", old transcripts).
	ConfigFiles map[string][]byte
}

// Outcome is the result object `claude -p --output-format json` prints.
type Outcome struct {
	Type              string            `json:"type"`
	Subtype           string            `json:"subtype"`
	IsError           bool              `json:"is_error"`
	Result            string            `json:"result"`
	NumTurns          int               `json:"num_turns"`
	SessionID         string            `json:"session_id"`
	StopReason        string            `json:"stop_reason"`
	PermissionDenials []json.RawMessage `json:"permission_denials"`
}

// Result is everything one session left behind.
type Result struct {
	ExitCode   int    // -1 when the process did not exit normally
	TimedOut   bool   // the session hit Options.Timeout and was killed
	Err        error  // start or wait failure other than a non-zero exit
	Stdout     []byte // the result JSON
	Stderr     []byte
	Outcome    *Outcome // parsed Stdout; nil when it is not a result object
	OutcomeErr error    // why Outcome is nil
	Requests   []Request
	Duration   time.Duration // wall time of the CLI process

	Bin        string
	ProjectDir string // realpath of the session's working directory
	Home       string // HOME of the session
	ConfigDir  string // CLAUDE_CONFIG_DIR of the session
	MockURL    string
}

// RequestsOf returns the logged requests of the given kind.
func (r *Result) RequestsOf(k Kind) []Request {
	var out []Request
	for _, q := range r.Requests {
		if q.Kind == k {
			out = append(out, q)
		}
	}
	return out
}

// Summary describes the session for failure messages: exit, outcome,
// request kinds and the head of stderr. It never includes file contents.
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit=%d timed_out=%v duration=%s", r.ExitCode, r.TimedOut, r.Duration.Round(time.Millisecond))
	if r.Err != nil {
		fmt.Fprintf(&b, " err=%v", r.Err)
	}
	if r.Outcome != nil {
		fmt.Fprintf(&b, " subtype=%s is_error=%v num_turns=%d denials=%d", r.Outcome.Subtype, r.Outcome.IsError, r.Outcome.NumTurns, len(r.Outcome.PermissionDenials))
	} else {
		fmt.Fprintf(&b, " outcome: %v", r.OutcomeErr)
	}
	b.WriteString(" requests=[")
	for i, q := range r.Requests {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(string(q.Kind))
		if q.Kind == KindToolUse {
			fmt.Fprintf(&b, "#%d", q.Step)
		}
	}
	b.WriteString("]")
	if len(r.Stderr) > 0 {
		s := r.Stderr
		if len(s) > 2000 {
			s = s[:2000]
		}
		fmt.Fprintf(&b, "\nstderr: %s", s)
	}
	return b.String()
}

// quietEnv stops every non-API connection the CLI would otherwise attempt
// (telemetry, error reporting, autoupdate, feedback).
func quietEnv() []string {
	return []string{
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}

// NewProject creates an empty git repository under tb.TempDir() and returns
// its realpath. It skips the test when git is not installed.
func NewProject(tb testing.TB) string {
	tb.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		tb.Skipf("git not found: ccharness needs it to create the project repository: %v", err)
	}
	base := tb.TempDir()
	dir := filepath.Join(base, "proj")
	if err := os.Mkdir(dir, 0o700); err != nil {
		tb.Fatalf("create project: %v", err)
	}
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		tb.Fatalf("resolve project: %v", err)
	}
	home := filepath.Join(base, "githome")
	if err := os.Mkdir(home, 0o700); err != nil {
		tb.Fatalf("create git home: %v", err)
	}
	cmd := exec.Command(git, "init", "-q", dir)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git init %s: %v: %s", dir, err, out)
	}
	return dir
}

// Run executes one `claude -p` session against a fresh mock and returns what
// it left behind. It fails the test only for harness faults; the CLI's exit
// status and output are returned for the caller to assert on.
func Run(tb testing.TB, o Options) *Result {
	tb.Helper()
	bin := o.Bin
	if bin == "" {
		bin = RequireClaude(tb)
	}
	proj := o.ProjectDir
	if proj == "" {
		proj = NewProject(tb)
	}
	proj, err := filepath.Abs(proj)
	if err == nil {
		proj, err = filepath.EvalSymlinks(proj)
	}
	if err != nil {
		tb.Fatalf("project dir: %v", err)
	}
	scratch := tb.TempDir()
	home := filepath.Join(scratch, "home")
	config := filepath.Join(scratch, "config")
	for _, d := range []string{home, config} {
		if err := os.Mkdir(d, 0o700); err != nil {
			tb.Fatalf("create %s: %v", d, err)
		}
	}
	for rel, b := range o.ConfigFiles {
		p := filepath.Join(config, filepath.FromSlash(rel))
		if !filepath.IsLocal(rel) {
			tb.Fatalf("config file %q is not a local path", rel)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			tb.Fatalf("create config dir: %v", err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			tb.Fatalf("write config file: %v", err)
		}
	}
	if o.Settings != nil {
		if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o700); err != nil {
			tb.Fatalf("create .claude: %v", err)
		}
		if err := os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), o.Settings, 0o600); err != nil {
			tb.Fatalf("write settings: %v", err)
		}
	}
	mock, err := NewMock(absolutize(o.Scenario, proj))
	if err != nil {
		tb.Fatalf("start mock: %v", err)
	}
	defer func() {
		if err := mock.Close(); err != nil {
			tb.Errorf("%v", err)
		}
	}()

	prompt := o.Prompt
	if prompt == "" {
		prompt = DefaultPrompt
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	args := append([]string{"-p", prompt, "--output-format", "json",
		// acceptEdits and the allow-list work as root, where
		// --dangerously-skip-permissions is refused.
		"--permission-mode", "acceptEdits", "--allowedTools", "Write,Edit"}, o.Args...)
	path := os.Getenv("PATH")
	if len(o.ExtraPath) > 0 {
		path = strings.Join(append(append([]string(nil), o.ExtraPath...), path), string(os.PathListSeparator))
	}
	env := append([]string{
		"PATH=" + path,
		"HOME=" + home,
		"CLAUDE_CONFIG_DIR=" + config,
		"ANTHROPIC_BASE_URL=" + mock.URL(),
		"ANTHROPIC_API_KEY=sk-ant-dummy",
	}, quietEnv()...)
	env = append(env, o.Env...) // exec keeps the last value of a duplicated key

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = proj
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// Hooks are grandchildren; own a process group so a timeout ends them
	// too, and do not wait forever for one that keeps a pipe open.
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second

	res := &Result{ExitCode: -1, Bin: bin, ProjectDir: proj, Home: home, ConfigDir: config, MockURL: mock.URL()}
	start := time.Now()
	err = cmd.Run()
	res.Duration = time.Since(start)
	killProcessGroup(cmd)
	res.TimedOut = err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		res.Err = fmt.Errorf("run claude: %w", err)
	}
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	res.Outcome, res.OutcomeErr = parseOutcome(res.Stdout)
	res.Requests = mock.Requests()
	return res
}

// absolutize resolves relative file paths in tool inputs against the project,
// since the real tools require absolute paths and the project dir is only
// known at run time.
func absolutize(sc Scenario, proj string) Scenario {
	out := Scenario{Steps: make([]ToolCall, len(sc.Steps))}
	for i, st := range sc.Steps {
		in := make(map[string]any, len(st.Input))
		for k, v := range st.Input {
			if s, ok := v.(string); ok && (k == "file_path" || k == "notebook_path") && s != "" && !filepath.IsAbs(s) {
				v = filepath.Join(proj, s)
			}
			in[k] = v
		}
		out.Steps[i] = ToolCall{Name: st.Name, Input: in}
	}
	return out
}

func parseOutcome(stdout []byte) (*Outcome, error) {
	b := bytes.TrimSpace(stdout)
	if len(b) == 0 {
		return nil, errors.New("empty stdout")
	}
	var o Outcome
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("stdout is not JSON: %w", err)
	}
	if o.Type != "result" {
		return nil, fmt.Errorf("stdout JSON has type %q, want result", o.Type)
	}
	return &o, nil
}

// Contain makes cmd lead a process group that a timeout ends whole, the
// hooks the CLI spawned included (other harnesses driving agent CLIs use
// it too); call Reap after the command ends.
func Contain(cmd *exec.Cmd) { setProcessGroup(cmd) }

// Settle lets what cmd left running in its process group after it exited
// (hooks it started and did not wait for) finish, for at most d.
func Settle(cmd *exec.Cmd, d time.Duration) { settleProcessGroup(cmd, d) }

// Reap ends whatever is left in cmd's process group after it exited.
func Reap(cmd *exec.Cmd) { killProcessGroup(cmd) }
