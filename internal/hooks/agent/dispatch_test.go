package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// recorded names the payloads captured from each real CLI (testdata/*/,
// one JSON per line, files named by the platform's event name), and what
// the recorded session wrote: the oracle is the session the harness ran,
// not the decoder.
var recorded = []struct {
	platform, dir string
	wrote         []string // project-relative, as the record lists them
	unhooked      []string // events the CLI sent that prosewash does not hook
}{
	{"claude", "claude-code-2.1.197", []string{"notes.md"}, nil},
	{"codex", "codex-0.169.0", []string{"hello.py"}, []string{"SessionEnd"}},
	{"codex", "codex-0.169.0-shell", []string{"hello.py"}, nil},
	{"gemini", "gemini-0.61.0", []string{"hello.py"}, []string{"SessionEnd"}},
	// create and edit write notes.md, the shell's redirect shell.md.
	{"copilot", "copilot-1.0.102", []string{"notes.md", "shell.md"}, []string{"sessionEnd", "userPromptSubmitted"}},
	// The same in confirm mode: the second agentStop has stop_hook_active.
	{"copilot", "copilot-1.0.102-confirm", []string{"notes.md", "shell.md"}, nil},
	// write_file and edit write notes.md, run_shell_command's redirect shell.md.
	{"qwen", "qwen-0.24.4", []string{"notes.md", "shell.md"}, []string{"InstructionsLoaded"}},
	// The plugin's payloads: write and edit write notes.md, bash's redirect shell.md.
	{"opencode", "opencode-1.18.33", []string{"notes.md", "shell.md"}, nil},
}

// TestRecordedPayloads feeds every payload a real CLI sent, event by event
// in the order the CLI sent them, through the dispatcher in manual mode:
// each is read without a fail-open, what the session wrote is recorded and
// nothing else, and every answer keeps the platform's stdout contract.
// Events the platform sends that prosewash does not hook must be absent
// from its table.
func TestRecordedPayloads(t *testing.T) {
	for _, rc := range recorded {
		t.Run(rc.dir, func(t *testing.T) {
			p, _ := Lookup(rc.platform)
			f := hooktest.New(t)
			run := filepath.Dir(f.Root)
			f.MoveTo(filepath.Join(run, "proj"))
			sessions := map[string]bool{}
			fed := 0
			for _, ev := range p.Events {
				payloads := samplesIf(t, rc.dir, ev.Name, run)
				for i, raw := range payloads {
					for _, w := range rc.wrote {
						if _, err := os.Stat(f.Path(w)); err != nil {
							f.Write(w, "# written\u200b by the session\n")
						}
					}
					r := p.Run(context.Background(), ptr(f.Env("prosewash")), ev.Arg, bytes.NewReader(raw))
					if s := failure(r); s != "" {
						t.Errorf("%s #%d failed open: %s", ev.Name, i+1, s)
					}
					checkContract(t, p, ev.Arg, r)
					var id struct {
						A string `json:"session_id"`
						B string `json:"sessionId"`
					}
					json.Unmarshal(raw, &id)
					sessions[id.A+id.B] = true
					fed++
				}
			}
			if fed == 0 {
				t.Fatalf("no recorded payload of %s's events in testdata/%s", rc.platform, rc.dir)
			}
			var got []string
			for s := range sessions {
				got = append(got, f.Recorded(s)...)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, rc.wrote) {
				t.Errorf("recorded %v, the session wrote %v", got, rc.wrote)
			}
			// Every recorded event file is one the platform hooks, or one
			// it deliberately does not.
			names, _ := filepath.Glob(filepath.Join("testdata", rc.dir, "*.jsonl"))
			for _, n := range names {
				name := strings.TrimSuffix(filepath.Base(n), ".jsonl")
				if _, ok := p.eventNamed(name); !ok && !slices.Contains(rc.unhooked, name) {
					t.Errorf("testdata/%s has %s, which %s's table does not hook", rc.dir, name, rc.platform)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func (p Platform) eventNamed(name string) (Event, bool) {
	for _, e := range p.Events {
		if e.Name == name {
			return e, true
		}
	}
	return Event{}, false
}

// samplesIf reads testdata/dir/event.jsonl, or nothing when the CLI sent
// no such event in the recorded session.
func samplesIf(t *testing.T, dir, event, run string) [][]byte {
	t.Helper()
	if _, err := os.Stat(filepath.Join("testdata", dir, event+".jsonl")); err != nil {
		return nil
	}
	return hooktest.Samples(t, dir, event, run)
}

// failure is the fail-open line of a reply, or "".
func failure(r Reply) string {
	var b, e bytes.Buffer
	writeAny(&b, &e, r)
	s := b.String() + e.String()
	if strings.Contains(s, " hook skipped: ") {
		return s
	}
	return ""
}

func writeAny(stdout, stderr *bytes.Buffer, r Reply) {
	if r.JSON != nil {
		WriteJSON(stdout, r.JSON)
	}
	if r.Stderr != "" {
		stderr.WriteString(r.Stderr + "\n")
	}
}

// checkContract asserts what every hook's output must be, whatever
// happened: on stdout nothing or exactly one JSON object on one line, the
// platform's no-opinion answer when there is nothing to say; on stderr at
// most one line.
func checkContract(t *testing.T, p Platform, arg string, r Reply) {
	t.Helper()
	var out, errb bytes.Buffer
	p.Write(&out, &errb, r)
	s := out.String()
	switch {
	case r.JSON == nil && s != map[bool]string{true: "", false: p.NoOpinion + "\n"}[p.NoOpinion == ""]:
		t.Errorf("%s %s: no answer printed %q, want the no-opinion answer %q", p.Name, arg, s, p.NoOpinion)
	case s != "":
		var obj map[string]any
		if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") || json.Unmarshal([]byte(s), &obj) != nil {
			t.Errorf("%s %s: stdout %q is not one JSON object on one line", p.Name, arg, s)
		}
	}
	if e := errb.String(); strings.Count(e, "\n") > 1 {
		t.Errorf("%s %s: stderr %q has more than one line", p.Name, arg, e)
	}
	if p.Name != "copilot" && errb.Len() > 0 {
		t.Errorf("%s %s: stderr %q; only Copilot CLI speaks there", p.Name, arg, errb.String())
	}
}

// unionPayload passes every platform's decoder for every event kind, so a
// test reaches past decoding: every session id field, a cwd and workspace
// root, a write in every tool shape.
func unionPayload(dir string) string {
	x := filepath.Join(dir, "x.md")
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "sessionId": "s1", "conversation_id": "s1", "cwd": dir, "workspace_roots": []string{dir},
		"tool_name": "apply_patch", "toolName": "create", "toolArgs": map[string]any{"path": x},
		"tool_input": map[string]any{"command": "*** Begin Patch\n*** Add File: x.md\n+x\n*** End Patch\n", "file_path": x},
		"file_path":  x, "status": "completed",
	})
	return string(b)
}

// A bug anywhere below the dispatcher (here: a panic where the
// environment is read) comes back as the platform's fail-open answer for
// every event of every platform: one line naming the internal error,
// never a block, never a crash.
func TestEveryEventFailsOpenOnAPanic(t *testing.T) {
	env := session.Env{Getenv: func(string) string { panic("boom") }, Home: t.TempDir()}
	dir := t.TempDir()
	for _, p := range Platforms() {
		for _, ev := range p.Events {
			r := p.Run(context.Background(), &env, ev.Arg, strings.NewReader(unionPayload(dir)))
			if s := failure(r); !strings.Contains(s, "internal error: boom") {
				t.Errorf("%s %s: %+v, want the fail-open line naming the panic", p.Name, ev.Arg, r)
			}
			if blocks(r) {
				t.Errorf("%s %s: a failing hook blocked: %+v", p.Name, ev.Arg, r)
			}
			checkContract(t, p, ev.Arg, r)
		}
	}
}

// blocks reports whether a reply keeps the agent going or stops it.
func blocks(r Reply) bool {
	b, _ := json.Marshal(r.JSON)
	var o map[string]any
	json.Unmarshal(b, &o)
	return o["decision"] != nil || o["followup_message"] != nil || o["continue"] != nil
}

// An encoder that panics still leaves the no-opinion answer and the
// failure on standard error; an answer that cannot be encoded prints the
// no-opinion answer, never half a document.
func TestBrokenEncoderStillKeepsTheContract(t *testing.T) {
	for _, p := range Platforms() {
		p.Encode = func(Event, Answer) Reply { panic("encoder") }
		r := p.FailOpen("stop", os.ErrClosed)
		if r.JSON != nil || !strings.Contains(r.Stderr, "internal error: encoder") {
			t.Errorf("%s: %+v", p.Name, r)
		}
		checkContractAnyStderr(t, p, r)
		var out bytes.Buffer
		p.Write(&out, nil, Reply{JSON: map[string]any{"x": make(chan int)}})
		if want := map[bool]string{true: "", false: p.NoOpinion + "\n"}[p.NoOpinion == ""]; out.String() != want {
			t.Errorf("%s: an unencodable answer printed %q, want %q", p.Name, out.String(), want)
		}
	}
}

func checkContractAnyStderr(t *testing.T, p Platform, r Reply) {
	t.Helper()
	var out, errb bytes.Buffer
	p.Write(&out, &errb, r)
	if want := map[bool]string{true: "", false: p.NoOpinion + "\n"}[p.NoOpinion == ""]; out.String() != want {
		t.Errorf("%s: stdout %q, want %q", p.Name, out.String(), want)
	}
	if strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("%s: stderr %q, want one line", p.Name, errb.String())
	}
}

// Hostile and malformed payloads of every event of every platform fail
// open inside the contract and write no record.
func TestMalformedPayloadsKeepTheContract(t *testing.T) {
	f := hooktest.New(t)
	inputs := []string{"", " \n", "{", "[1,2]", `"x"`, "null", "{}", `{"session_id":5}`,
		`{"session_id":"s","sessionId":"s","conversation_id":"s","cwd":"rel","workspace_roots":["rel"]}`,
		`{"session_id":"s","sessionId":"s","conversation_id":"s","cwd":"/","tool_input":[],"toolArgs":7,"file_path":"x"}`,
		strings.Repeat("[", 100000)}
	for _, p := range Platforms() {
		for _, ev := range append(p.Events, Event{Arg: "no-such-event"}) {
			for _, in := range inputs {
				r := p.Run(context.Background(), ptr(f.Env("prosewash")), ev.Arg, strings.NewReader(in))
				if blocks(r) {
					t.Errorf("%s %s %.20q: blocked: %+v", p.Name, ev.Arg, in, r)
				}
				checkContract(t, p, ev.Arg, r)
			}
		}
	}
	if !f.NoSessions() {
		t.Errorf("malformed input wrote a session record")
	}
}

// A payload that starts with a byte order mark is read past it, on every
// platform.
func TestPayloadByteOrderMark(t *testing.T) {
	for _, p := range Platforms() {
		in, err := p.Decode([]byte("\xef\xbb\xbf"+unionPayload("/tmp")), SessionStart, func(string) string { return "" })
		if err != nil || in.Session == "" {
			t.Errorf("%s: %+v, %v", p.Name, in, err)
		}
	}
}

// The table itself: every platform names its events uniquely, gives each
// a kind and a configuration entry, ends turns and records writes, and
// its no-opinion answer is JSON or nothing. Only the write kinds may
// repeat: a platform with an event per tool (Cursor's afterFileEdit and
// afterShellExecution) records from each.
func TestPlatformTable(t *testing.T) {
	names := map[string]bool{}
	for _, p := range Platforms() {
		if p.Name == "" || p.Title == "" || p.Memory == "" || p.Decode == nil || p.Encode == nil || names[p.Name] {
			t.Errorf("platform %+v is incomplete or named twice", p.Name)
		}
		names[p.Name] = true
		if q, ok := Lookup(p.Name); !ok || q.Name != p.Name {
			t.Errorf("Lookup(%q) = %v", p.Name, ok)
		}
		if p.NoOpinion != "" && !json.Valid([]byte(p.NoOpinion)) {
			t.Errorf("%s: no-opinion answer %q is not JSON", p.Name, p.NoOpinion)
		}
		c := p.Config
		// A plugin platform's file is the plugin itself: no handler, no base.
		hooked := c.Plugin == "" && (c.Handler == nil || !json.Valid([]byte(c.Base)))
		if c.File == "" || hooked || filepath.IsAbs(c.File) || strings.Contains(c.File, "..") {
			t.Errorf("%s: configuration %+v", p.Name, c)
		}
		kinds := map[Kind]bool{}
		args := map[string]bool{}
		for _, ev := range p.Events {
			repeated := kinds[ev.Kind] && ev.Kind != AfterWrite && ev.Kind != BeforeWrite
			if ev.Arg == "" || ev.Name == "" || ev.Kind == Unknown || (len(ev.Hooks) == 0 && c.Plugin == "") || args[ev.Arg] || repeated {
				t.Errorf("%s: event %+v is incomplete or repeats an argument or a kind", p.Name, ev)
			}
			args[ev.Arg], kinds[ev.Kind] = true, true
			if _, ok := p.Event(ev.Arg); !ok {
				t.Errorf("%s: Event(%q) not found", p.Name, ev.Arg)
			}
		}
		if !kinds[TurnEnd] || !kinds[AfterWrite] || !kinds[SessionStart] {
			t.Errorf("%s: a platform must start sessions, record writes and end turns", p.Name)
		}
	}
}
