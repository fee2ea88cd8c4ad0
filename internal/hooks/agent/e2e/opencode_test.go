package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// These tests drive the real opencode (pinned, from npm) headless ('opencode
// run') and offline against a loopback mock of an OpenAI-compatible chat
// API, with the plugin "prosewash install --opencode" wrote in
// .opencode/plugins/ and, first on PATH, a prosewash that logs each
// payload the plugin hands it before running the real one.

type opencodeE2E struct {
	*hooktest.E2E
	opencode string
	home     string
	mock     *agentharness.Mock
	logs     string
	wrapper  string // the directory of the logging prosewash
}

// opencodeCall is one step of the mock's script in opencode's tool ids and
// arguments (1.18.33): write a file whole, edit it, or run a shell command.
func opencodeCall(proj, step, target, content string) agentharness.Call {
	path := filepath.Join(proj, target)
	switch step {
	case "write":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "write", Args: map[string]any{"filePath": path, "content": content}}}}
	case "edit":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "edit", Args: map[string]any{"filePath": path, "oldString": "# Notes", "newString": "# Notes\u200b edited"}}}}
	case "shell":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "bash", Args: map[string]any{"command": shellCommand, "description": "write shell.md"}}}}
	}
	panic("no such step: " + step)
}

func newOpencodeE2E(t *testing.T, m string, script func(proj string) []agentharness.Call) *opencodeE2E {
	t.Helper()
	x := &opencodeE2E{E2E: hooktest.NewE2E(t)}
	x.opencode = agentharness.Opencode(t)
	var calls []agentharness.Call
	if script != nil {
		calls = script(x.Proj)
	}
	var err error
	if x.mock, err = agentharness.NewChatMock(calls...); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.mock.Close() })
	x.home = agentharness.OpencodeHome(t, x.mock.URL())
	x.Prosewash("install", "--opencode", "--mode", "manual")
	if m != "manual" {
		x.Approve(m)
	}
	x.logs = t.TempDir()
	x.wrapper = t.TempDir()
	// Each payload is logged under opencode's name for the event, as the
	// dispatcher's table and testdata/ name it.
	wrap := "#!/bin/sh\ncase $3 in session-start) n=session.created;; tool-before) n=tool.execute.before;; " +
		"tool-after) n=tool.execute.after;; idle) n=session.idle;; *) n=$3;; esac\n" +
		"f='" + x.logs + "'/$n.$(date +%s%N).$$.json\ncat > \"$f\"\nexec '" + x.Bin + "' \"$@\" < \"$f\"\n"
	if err := os.WriteFile(filepath.Join(x.wrapper, "prosewash"), []byte(wrap), 0o755); err != nil {
		t.Fatal(err)
	}
	return x
}

func (x *opencodeE2E) session(trace bool, prompt string, args ...string) *agentharness.Session {
	x.T.Helper()
	s := agentharness.RunOpencode(x.T, x.opencode, x.home, prompt,
		agentharness.Options{Dir: x.Proj, Env: x.Env, Trace: trace, Args: args, ExtraPath: []string{x.wrapper}})
	x.T.Logf("opencode session took %s", s.Duration)
	if s.ExitCode != 0 {
		x.T.Fatalf("opencode failed: %s", s.Summary())
	}
	return s
}

// opencodeSession is the session id of the first session start the plugin
// handed prosewash.
func (x *opencodeE2E) opencodeSession() string {
	x.T.Helper()
	ps := logged(x.logs, "session.created")
	if len(ps) == 0 {
		x.T.Fatalf("no session.created payload was logged")
	}
	id, _ := ps[0]["session_id"].(string)
	return id
}

func TestE2EOpencodeManualRecordsAndLeaves(t *testing.T) {
	x := newOpencodeE2E(t, "manual", func(proj string) []agentharness.Call {
		return []agentharness.Call{opencodeCall(proj, "write", hooktest.E2EFile, hooktest.E2EContent)}
	})
	s := x.session(true, "Write hello.py.")
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("manual mode: %q, want the agent's bytes", got)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("manual mode continued the turn: %d continuations", n)
	}
	if id, files := recordedFiles(x.E2E); id == "" || id != x.opencodeSession() || strings.Join(files, ",") != hooktest.E2EFile {
		t.Errorf("recorded %v under %q, opencode's session is %q", files, id, x.opencodeSession())
	}
	checkLoopbackOnly(t, s)
}

// Automatic mode cleans at session.idle what write, edit and a shell
// redirect wrote.
func TestE2EOpencodeAutomaticCleansWriteEditAndShell(t *testing.T) {
	x := newOpencodeE2E(t, "automatic", func(proj string) []agentharness.Call {
		return []agentharness.Call{opencodeCall(proj, "write", "notes.md", notesMD), opencodeCall(proj, "edit", "notes.md", ""), opencodeCall(proj, "shell", "", "")}
	})
	x.session(false, "Write notes.md.")
	if got := x.File("notes.md"); got != notesCleaned {
		t.Errorf("notes.md: %q, want %q (prose cleaned, inline code kept)", got, notesCleaned)
	}
	if got := x.File("shell.md"); got != shellCleaned {
		t.Errorf("shell.md: %q, want %q", got, shellCleaned)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("automatic mode continued the turn: %d continuations", n)
	}
	if _, files := recordedFiles(x.E2E); strings.Join(files, ",") != "notes.md,shell.md" {
		t.Errorf("recorded %v, want notes.md and shell.md", files)
	}
	// OPENCODE_CAPTURE_DIR=DIR writes this session's payloads there, the
	// run directory as $RUN: how internal/hooks/agent/testdata/opencode-1.18.33
	// was made.
	if dir := os.Getenv("OPENCODE_CAPTURE_DIR"); dir != "" {
		capturePayloads(t, x.logs, dir, map[string]string{x.Proj: "$RUN/proj", x.home: "$RUN/home"},
			"session.created", "tool.execute.before", "tool.execute.after", "session.idle")
	}
}

// Confirm mode under the real CLI changes no file and hands the end of
// the turn to prosewash once. The ask itself goes to the agent as the next
// prompt (client.session.prompt), which 'opencode run' never delivers: it
// disposes of the instance at the first session.idle, as the run's log
// shows ("exiting loop", "disposing instance" right after the idle). So
// the continuation is not checked here; TestOpencodeConfirmContinuesOnce
// checks prosewash's answer, and the TUI, which keeps the session open, is
// not driven.
func TestE2EOpencodeConfirmLeavesFiles(t *testing.T) {
	x := newOpencodeE2E(t, "confirm", func(proj string) []agentharness.Call {
		return []agentharness.Call{opencodeCall(proj, "write", "notes.md", notesMD), opencodeCall(proj, "edit", "notes.md", ""), opencodeCall(proj, "shell", "", "")}
	})
	x.session(false, "Write notes.md.")
	if got := x.File("notes.md"); got != notesEdited {
		t.Errorf("confirm mode changed the file: %q", got)
	}
	if got := x.File("shell.md"); got != shellMD {
		t.Errorf("confirm mode changed shell.md: %q", got)
	}
	if _, files := recordedFiles(x.E2E); strings.Join(files, ",") != "notes.md,shell.md" {
		t.Errorf("recorded %v, want notes.md and shell.md", files)
	}
	idles := logged(x.logs, "session.idle")
	if len(idles) != 1 || idles[0]["session_id"] != x.opencodeSession() || idles[0]["stop_hook_active"] != false {
		t.Errorf("idle payloads: %v, want one for the session, unmarked", idles)
	}
}

// Without prosewash on PATH the plugin fails open: the session runs and
// writes its file as if the plugin were not there.
func TestE2EOpencodeWithoutProsewashFailsOpen(t *testing.T) {
	x := newOpencodeE2E(t, "manual", func(proj string) []agentharness.Call {
		return []agentharness.Call{opencodeCall(proj, "write", hooktest.E2EFile, hooktest.E2EContent)}
	})
	s := agentharness.RunOpencode(t, x.opencode, x.home, "Write hello.py.", agentharness.Options{Dir: x.Proj, Env: x.Env})
	if s.ExitCode != 0 {
		t.Fatalf("opencode failed without prosewash: %s", s.Summary())
	}
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("the session's file: %q", got)
	}
}
