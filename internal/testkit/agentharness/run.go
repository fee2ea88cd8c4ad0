package agentharness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testkit/ccharness"
	"github.com/prosewash/prosewash/internal/testtool"
)

// Pinned versions, installed from npm into the testtool cache.
const (
	CodexPackage  = "@openai/codex@0.169.0"
	GeminiPackage = "@google/gemini-cli@0.61.0"
	// CopilotPackage's launcher picks a native binary from an optional
	// dependency (@github/copilot-linux-x64 here).
	CopilotPackage = "@github/copilot@1.0.102"
	QwenPackage    = "@qwen-code/qwen-code@0.24.4"
	// OpencodePackage's launcher picks a native binary from an optional
	// dependency (opencode-linux-x64 here); the binary is run directly.
	OpencodePackage = "opencode-ai@1.18.33"
)

// Codex returns the Codex CLI binary, installing the pinned package once:
// the native binary itself (it runs without node), else the npm launcher.
func Codex(t testing.TB) string {
	t.Helper()
	prefix := testtool.NPM(t, CodexPackage)
	native := filepath.Join(prefix, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	if fi, err := os.Stat(native); err == nil && fi.Mode()&0o111 != 0 {
		return native
	}
	return filepath.Join(prefix, "node_modules", ".bin", "codex")
}

// Gemini returns the Gemini CLI launcher, installing the pinned package once.
func Gemini(t testing.TB) string {
	t.Helper()
	return filepath.Join(testtool.NPM(t, GeminiPackage), "node_modules", ".bin", "gemini")
}

// Copilot returns the Copilot CLI binary, installing the pinned package
// once: the platform's native binary, else the npm launcher.
func Copilot(t testing.TB) string {
	t.Helper()
	prefix := testtool.NPM(t, CopilotPackage)
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64" // npm's name for it
	}
	native := filepath.Join(prefix, "node_modules", "@github", "copilot-"+runtime.GOOS+"-"+arch, "copilot")
	if fi, err := os.Stat(native); err == nil && fi.Mode()&0o111 != 0 {
		return native
	}
	return filepath.Join(prefix, "node_modules", ".bin", "copilot")
}

// Qwen returns the Qwen Code launcher, installing the pinned package once.
// It runs on node: 0.24.4 declares node 22 and runs on 20 (checked), not on
// older ones.
func Qwen(t testing.TB) string {
	t.Helper()
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	out, err := exec.Command(node, "-p", "process.versions.node.split('.')[0]").Output()
	if major, _ := strconv.Atoi(strings.TrimSpace(string(out))); err != nil || major < 20 {
		testtool.Missing(t, "node", fmt.Sprintf("Qwen Code needs node 20 or later; %s is %s", node, strings.TrimSpace(string(out))))
	}
	return filepath.Join(testtool.NPM(t, QwenPackage), "node_modules", ".bin", "qwen")
}

// Opencode returns opencode's native binary, installing the pinned package
// once (its launcher's postinstall, which npm is not allowed to run here,
// only links that binary).
func Opencode(t testing.TB) string {
	t.Helper()
	prefix := testtool.NPM(t, OpencodePackage)
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	native := filepath.Join(prefix, "node_modules", "opencode-"+runtime.GOOS+"-"+arch, "bin", "opencode")
	if fi, err := os.Stat(native); err != nil || fi.Mode()&0o111 == 0 {
		testtool.Missing(t, "npm", fmt.Sprintf("%s installed no native binary at %s", OpencodePackage, native))
	}
	return native
}

// Session is one CLI run.
type Session struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	Duration time.Duration
	// Connects lists the inet addresses the CLI and its children connected
	// to, when the run was traced.
	Connects []string
}

// Summary describes the run for failure messages.
func (s *Session) Summary() string {
	e := s.Stderr
	if len(e) > 3000 {
		e = e[len(e)-3000:]
	}
	return fmt.Sprintf("exit=%d duration=%s\nstdout: %s\nstderr: %s", s.ExitCode, s.Duration.Round(time.Millisecond), s.Stdout, e)
}

// Options for one run.
type Options struct {
	Dir  string   // the project (the session's cwd)
	Env  []string // KEY=VALUE entries, on top of PATH
	Args []string
	// ExtraPath directories are put in front of PATH, for the CLI and its
	// hooks (the directory holding the prosewash the hooks run).
	ExtraPath []string
	// Trace records the run's connect(2) calls with strace.
	Trace bool
	// Timeout bounds the run; 0 is five minutes.
	Timeout time.Duration
	// Linger is how long the processes the CLI left running when it
	// exited (hooks it started and does not wait for) may go on before
	// they are killed, as a user's shell would let them; 0 kills them at
	// once.
	Linger time.Duration
}

var connectRE = regexp.MustCompile(`connect\(\d+, \{sa_family=(AF_INET6?), sin6?_port=htons\((\d+)\), (?:sin_addr=inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"[^}]*)`)

func run(t testing.TB, bin string, o Options) *Session {
	t.Helper()
	// Five minutes by default: a real CLI session here takes 20-120 s, its
	// exit after the last reply up to a minute more on a loaded 2-core
	// machine.
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	argv := append([]string{bin}, o.Args...)
	var trace string
	if o.Trace {
		st := testtool.LookPath(t, "strace", "apt-get install strace")
		trace = filepath.Join(t.TempDir(), "connect.trace")
		argv = append([]string{st, "-f", "-qq", "-e", "trace=connect", "-o", trace}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = o.Dir
	path := strings.Join(append(append([]string{}, o.ExtraPath...), os.Getenv("PATH")), string(filepath.ListSeparator))
	cmd.Env = append([]string{"PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1"}, o.Env...)
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ccharness.Contain(cmd)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	s := &Session{ExitCode: -1, Duration: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	ccharness.Settle(cmd, o.Linger)
	ccharness.Reap(cmd)
	if cmd.ProcessState != nil {
		s.ExitCode = cmd.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("run %s: %v", filepath.Base(bin), err)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("%s timed out: %s", filepath.Base(bin), s.Summary())
	}
	if trace != "" {
		f, err := os.Open(trace)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := connectRE.FindStringSubmatch(sc.Text()); m != nil {
				addr := m[3] + m[4]
				s.Connects = append(s.Connects, addr+":"+m[2])
			} else if strings.Contains(sc.Text(), "AF_INET") {
				s.Connects = append(s.Connects, "unparsed: "+sc.Text())
			}
		}
	}
	return s
}

// Loopback reports the connects that left 127.0.0.1 and ::1.
func (s *Session) NonLoopback() []string {
	var out []string
	for _, c := range s.Connects {
		if !strings.HasPrefix(c, "127.0.0.1:") && !strings.HasPrefix(c, "::1:") && !strings.HasPrefix(c, "::ffff:127.0.0.1:") {
			out = append(out, c)
		}
	}
	return out
}

// CodexHome writes a CODEX_HOME whose config points Codex at the mock and
// keeps it offline (no plugins fetch, analytics, feedback or update
// check), trusting the project so its .codex/ loads. extra is appended
// (the hooks' trust, for one).
func CodexHome(t testing.TB, mockURL, proj string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "codexhome")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false

[projects.%q]
trust_level = "trusted"
`, mockURL, proj)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// RunCodex runs `codex exec` in o.Dir with codexHome; the hooks run only
// if the project's .codex/hooks.json holds trusted hooks.
func RunCodex(t testing.TB, bin, codexHome string, o Options) *Session {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	os.Mkdir(home, 0o700)
	o.Env = append([]string{"HOME=" + home, "CODEX_HOME=" + codexHome, "MOCK_API_KEY=sk-mock"}, o.Env...)
	o.Args = append([]string{"exec", "--skip-git-repo-check", "--color", "never", "--dangerously-bypass-approvals-and-sandbox",
		"-o", filepath.Join(t.TempDir(), "last.txt"), "write the file"}, o.Args...)
	return run(t, bin, o)
}

// RunGemini runs `gemini -p` in o.Dir against the mock, with a user
// settings file that keeps it offline (no update check, usage statistics
// or telemetry) and a trusted workspace, so the project's hooks load.
func RunGemini(t testing.TB, bin, mockURL string, o Options) *Session {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	settings := `{"general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
 "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
 "security": {"auth": {"selectedType": "gemini-api-key"}}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	o.Env = append([]string{"HOME=" + home, "GOOGLE_GEMINI_BASE_URL=" + mockURL, "GEMINI_API_KEY=mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}, o.Env...)
	o.Args = append([]string{"-p", "write the file", "-m", "gemini-2.5-pro", "-o", "json", "--approval-mode", "yolo"}, o.Args...)
	return run(t, bin, o)
}

// CopilotHome writes a COPILOT_HOME whose config.json (the file the CLI
// manages, JSON with comments) trusts the folders named: the CLI loads a
// project's .github/hooks only in a trusted folder (or one under it).
func CopilotHome(t testing.TB, trusted ...string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "copilothome")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	folders, _ := json.Marshal(append([]string{}, trusted...))
	cfg := "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": " + string(folders) + "\n}\n"
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// RunCopilot runs `copilot -p prompt` in o.Dir with copilotHome, offline:
// its bring-your-own-model provider is the mock (an OpenAI-compatible
// chat-completions API), COPILOT_OFFLINE keeps it from GitHub's services,
// auto-update and telemetry are off. The CLI unpacks itself into
// XDG_CACHE_HOME on first run (235 MB, seconds): that cache is kept beside
// the tool cache, so only the first session of a machine pays for it.
func RunCopilot(t testing.TB, bin, copilotHome, mockURL, prompt string, o Options) *Session {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	os.Mkdir(home, 0o700)
	cache, err := testtool.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	o.Env = append([]string{"HOME=" + home, "COPILOT_HOME=" + copilotHome, "XDG_CACHE_HOME=" + filepath.Join(cache, "copilot-xdg-cache"),
		"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + mockURL + "/v1", "COPILOT_PROVIDER_API_KEY=mock",
		"COPILOT_MODEL=gpt-4.1", "COPILOT_AUTO_UPDATE=false"}, o.Env...)
	o.Args = append([]string{"-p", prompt, "--allow-all-tools", "--disable-client-telemetry", "--no-color",
		"--log-dir", filepath.Join(t.TempDir(), "logs")}, o.Args...)
	return run(t, bin, o)
}

// QwenHome writes the HOME of a Qwen Code run: ~/.qwen/settings.json
// selects the OpenAI-compatible provider and keeps the CLI offline (no
// update check, usage statistics or telemetry). Files under ~/.qwen (a
// global QWEN.md) may be added before the run.
func QwenHome(t testing.TB) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".qwen"), 0o700); err != nil {
		t.Fatal(err)
	}
	settings := `{"security": {"auth": {"selectedType": "openai"}}, "model": {"name": "gpt-4.1"},
 "general": {"enableAutoUpdate": false}, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}`
	if err := os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// RunQwen runs Qwen Code headless (a positional prompt, -o json, yolo
// approvals) in o.Dir with home as HOME, against the mock as its
// OpenAI-compatible provider; o.Args come first (-c continues the
// project's last session).
func RunQwen(t testing.TB, bin, home, mockURL, prompt string, o Options) *Session {
	t.Helper()
	o.Env = append([]string{"HOME=" + home, "OPENAI_API_KEY=sk-mock", "OPENAI_BASE_URL=" + mockURL + "/v1", "OPENAI_MODEL=gpt-4.1",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1"}, o.Env...)
	o.Args = append(append([]string{}, o.Args...), "--approval-mode", "yolo", "-o", "json", prompt)
	return run(t, bin, o)
}

// OpencodeHome writes the HOME of an opencode run: its configuration
// (HOME/opencode.json, named by OPENCODE_CONFIG) names the mock as
// an OpenAI-compatible provider and its one model, with sharing, updates
// and the models.dev fetch off, and every tool allowed (a headless run
// cannot answer a permission prompt).
func OpencodeHome(t testing.TB, mockURL string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"model":       "mock/gpt-4.1",
		"small_model": "mock/gpt-4.1",
		"autoupdate":  false,
		"share":       "disabled",
		"permission":  map[string]any{"edit": "allow", "bash": "allow", "webfetch": "deny"},
		"provider": map[string]any{"mock": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Mock",
			"options": map[string]any{"baseURL": mockURL + "/v1", "apiKey": "sk-mock"},
			"models":  map[string]any{"gpt-4.1": map[string]any{"name": "gpt-4.1", "tool_call": true}},
		}},
	}
	b, err := json.Marshal(cfg)
	if err == nil {
		err = os.WriteFile(filepath.Join(home, "opencode.json"), b, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	return home
}

// RunOpencode runs 'opencode run' (headless) in o.Dir with home as HOME,
// its data, cache and state under it and its configuration OpencodeHome's;
// o.Args come before the prompt (-c continues the project's last session).
// opencode starts slowly (its server, a snapshot repository, the plugins):
// a run may take minutes on a loaded machine.
func RunOpencode(t testing.TB, bin, home, prompt string, o Options) *Session {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 6 * time.Minute
	}
	// opencode calls a plugin's event handler without awaiting it, and
	// 'opencode run' exits at the first session.idle: the idle hook the
	// plugin started then finishes after opencode is gone.
	if o.Linger == 0 {
		o.Linger = time.Minute
	}
	o.Env = append([]string{"HOME=" + home, "OPENCODE_CONFIG=" + filepath.Join(home, "opencode.json"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		// opencode installs @opencode-ai/plugin into every .opencode/ it
		// loads, in the background, a failure being only a warning; the
		// prosewash plugin needs none of it, and the run stays offline
		// with the registry a closed loopback port.
		"npm_config_registry=http://127.0.0.1:9/"}, o.Env...)
	o.Args = append(append([]string{"run"}, o.Args...), prompt)
	return run(t, bin, o)
}
