package cli

import (
	"errors"
	"flag"
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

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/testkit/archivetest"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
	"github.com/prosewash/prosewash/internal/testkit/holdfile"
	"github.com/prosewash/prosewash/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite testscript golden files (cmp) from actual output")

// TestMain lets the test binary act as the real prosewash command inside
// scripts: "exec prosewash ..." runs Main in a fresh process, exactly as
// users and hooks do.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"prosewash": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// A real process holding a file the ways a swap can lose a write through.
		"holdfile": func() { os.Exit(holdfile.Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs every testdata/script/*.txtar against the real binary with
// real git. Scripts that need a tool declare it with [exec:tool] conditions,
// which skip with the tool's name.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(testtool.RepoRoot(t), "testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// A private state dir, config and home per script, outside
			// the project ($WORK): no test ever sees the developer's
			// real state or config, and state never lives in a repo.
			outside, err := os.MkdirTemp("", "prosewash-script-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(outside) })
			env.Setenv("OUTSIDE", outside)
			env.Setenv("PROSEWASH_STATE_DIR", filepath.Join(outside, "state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(outside, "config"))
			env.Setenv("HOME", filepath.Join(outside, "home"))
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@example.invalid")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@example.invalid")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// Where Claude Code keeps the auto memory of a project rooted at $WORK/proj, so
			// wash scripts can put a MEMORY.md there.
			work, err := filepath.EvalSymlinks(env.WorkDir)
			if err != nil {
				return err
			}
			env.Setenv("CLAUDE_MEMORY", discover.MemoryDir(discover.Options{Home: filepath.Join(outside, "home"), ProjectRoot: filepath.Join(work, "proj")}))
			return os.MkdirAll(filepath.Join(outside, "home"), 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":          cmdExits,
			"unescape":       cmdUnescape,
			"envsubst":       cmdEnvsubst,
			"fakeollama":     cmdFakeOllama,
			"waitfile":       cmdWaitFile,
			"gentranscripts": cmdGenTranscripts,
			"nest":           cmdNest,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "unix":
				return runtime.GOOS != "windows", nil
			case "root":
				return os.Geteuid() == 0, nil
			case "agent":
				// The tests themselves run under an agent CLI (a developer
				// running them from one): approve refuses by design there.
				return len(approval.RealCaller().AgentSignals()) > 0, nil
			}
			if name, ok := cutPrefix(cond, "tool:"); ok {
				_, err := exec.LookPath(name)
				if err != nil && testtool.Required(name) {
					// A script would skip; PROSEWASH_REQUIRE_TOOLS says it must run.
					return false, fmt.Errorf("%s is required (PROSEWASH_REQUIRE_TOOLS) but not found: %v", name, err)
				}
				return err == nil, nil
			}
			return false, nil
		},
	})
}

// cmdGenTranscripts generates a Claude Code transcript store for the project $WORK/proj under
// $HOME/.claude (internal/testkit/archivetest): SESSIONS sessions of about BYTES in all,
// ages spread over 200 days, one recent. It sets OLD_SESSION to a session old enough to be
// archived and STORE to the store's directory.
//
//	gentranscripts 30 400000
func cmdGenTranscripts(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gentranscripts SESSIONS BYTES")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	b, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	work, err := filepath.EvalSymlinks(ts.Getenv("WORK"))
	ts.Check(err)
	now := time.Now()
	st, err := archivetest.Generate(filepath.Join(ts.Getenv("HOME"), ".claude"), filepath.Join(work, "proj"),
		archivetest.Options{Sessions: n, Bytes: b, Seed: 7, Now: now, Recent: 1})
	ts.Check(err)
	for _, s := range st.Sessions {
		if now.Sub(s.Newest) > 30*24*time.Hour {
			ts.Setenv("OLD_SESSION", s.ID)
			break
		}
	}
	ts.Setenv("STORE", st.Dir)
}

// cmdNest writes a file nested N levels deep: HEAD, OPEN N times, BODY,
// CLOSE N times, TAIL (each taken literally, with \n for a line break), so
// a script can feed a crash-sized input without carrying it:
//
//	nest deep.sh 200000 '' '(' 'echo a' ')' '\n'
func cmdNest(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 7 {
		ts.Fatalf("usage: nest FILE N HEAD OPEN BODY CLOSE TAIL")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	lit := func(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }
	var b strings.Builder
	b.WriteString(lit(args[2]))
	b.WriteString(strings.Repeat(lit(args[3]), n))
	b.WriteString(lit(args[4]))
	b.WriteString(strings.Repeat(lit(args[5]), n))
	b.WriteString(lit(args[6]))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// cmdExits runs a program and asserts its exit status:
//
//	exits 3 prosewash clean a.md
//
// Its stdout and stderr are checked with the usual stdout/stderr commands.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// cmdUnescape rewrites files in place, turning \uXXXX and \UXXXXXXXX
// escapes into the characters they name, so scripts can carry invisible
// carriers while staying readable ASCII:
//
//	unescape notes.md
func cmdUnescape(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: unescape FILE...")
	}
	for _, name := range args {
		p := ts.MkAbs(name)
		b, err := os.ReadFile(p)
		ts.Check(err)
		out := unescapeRE.ReplaceAllStringFunc(string(b), func(m string) string {
			n, err := strconv.ParseUint(m[2:], 16, 32)
			if err != nil {
				ts.Fatalf("unescape %s: bad escape %s", name, m)
			}
			if m[1] == 'x' {
				return string([]byte{byte(n)}) // \xHH is one raw byte, valid UTF-8 or not
			}
			return string(rune(n))
		})
		ts.Check(os.WriteFile(p, []byte(out), 0o644))
	}
}

// cmdEnvsubst replaces ${NAME} in files with the script's environment, so a
// config file can name a port chosen at run time.
func cmdEnvsubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: envsubst FILE...")
	}
	for _, name := range args {
		p := ts.MkAbs(name)
		b, err := os.ReadFile(p)
		ts.Check(err)
		out := envRE.ReplaceAllStringFunc(string(b), func(m string) string { return ts.Getenv(m[2 : len(m)-1]) })
		ts.Check(os.WriteFile(p, []byte(out), 0o644))
	}
}

var envRE = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

// cmdFakeOllama starts the fake Ollama server (real HTTP on 127.0.0.1) for
// the rest of the script and sets $OLLAMA_URL:
//
//	fakeollama paraphrase
func cmdFakeOllama(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fakeollama MODE")
	}
	srv, err := fakeollama.New(fakeollama.Options{Mode: fakeollama.Mode(args[0]), Delay: 3 * time.Second})
	ts.Check(err)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("OLLAMA_URL", srv.URL)
}

var unescapeRE = regexp.MustCompile(`\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2}`)

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}

// cmdWaitFile waits until a file exists (a background command reached a
// known point), failing after a minute:
//
//	waitfile $WORK/started
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfile: %s did not appear within a minute", args[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
