package ccharness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/testtool"
)

// conv builds a /v1/messages body offering tools and holding messages.
func conv(t *testing.T, stream bool, tools []string, msgs ...map[string]any) []byte {
	t.Helper()
	ts := make([]map[string]any, len(tools))
	for i, n := range tools {
		ts[i] = map[string]any{"name": n, "input_schema": map[string]any{"type": "object"}}
	}
	if msgs == nil {
		msgs = []map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"model": "claude-test", "stream": stream, "max_tokens": 100, "tools": ts, "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }
func asst(content any) map[string]any { return map[string]any{"role": "assistant", "content": content} }
func system(text string) map[string]any {
	return map[string]any{"role": "system", "content": text}
}
func toolUse(id, name string) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}
}
func toolResult(id string) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": "ok"}
}
func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func TestPlan(t *testing.T) {
	t.Parallel()
	sc := Scenario{Steps: []ToolCall{Write("/p/a", "x"), Edit("/p/a", "x", "y")}}
	cli := []string{"Read", "Write", "Edit"}
	tests := []struct {
		name     string
		sc       Scenario
		tools    []string
		msgs     []map[string]any
		wantKind Kind
		wantStep int
	}{
		{"side request without Write", sc, []string{"Read"}, []map[string]any{user("title?")}, KindSide, -1},
		{"side request without tools", sc, nil, []map[string]any{user("x")}, KindSide, -1},
		{"first turn", sc, cli, []map[string]any{user("write the file")}, KindToolUse, 0},
		{"first turn with system entry", sc, cli, []map[string]any{system("env"), user([]any{text("write")})}, KindToolUse, 0},
		{"second step", sc, cli, []map[string]any{
			user("go"), asst([]any{text("w"), toolUse("t1", "Write")}), user([]any{toolResult("t1")}),
		}, KindToolUse, 1},
		{"second step with system entry between", sc, cli, []map[string]any{
			user("go"), asst([]any{toolUse("t1", "Write")}), system("PostToolUse hook said"), user([]any{toolResult("t1")}),
		}, KindToolUse, 1},
		{"all steps done", sc, cli, []map[string]any{
			user("go"), asst([]any{toolUse("t1", "Write")}), user([]any{toolResult("t1")}),
			asst([]any{toolUse("t2", "Edit")}), user([]any{toolResult("t2")}),
		}, KindFinal, -1},
		{"stop continuation via user text", sc, cli, []map[string]any{
			user("go"), asst([]any{toolUse("t1", "Write")}), user([]any{toolResult("t1")}),
			asst([]any{toolUse("t2", "Edit")}), user([]any{toolResult("t2")}),
			asst([]any{text("done")}), user([]any{text("Stop hook feedback:\nR")}),
		}, KindStopContinuation, -1},
		{"stop continuation via trailing system message", sc, cli, []map[string]any{
			user("go"), asst([]any{text("done")}), user("<system-reminder>R</system-reminder>"), system("Stop hook blocking error: R"),
		}, KindStopContinuation, -1},
		{"no steps: final at once", Scenario{}, cli, []map[string]any{user("go")}, KindFinal, -1},
		{"string assistant content counts as plain text", sc, cli, []map[string]any{user("go"), asst("done"), user("more")}, KindStopContinuation, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var req messagesRequest
			if err := json.Unmarshal(conv(t, true, tc.tools, tc.msgs...), &req); err != nil {
				t.Fatal(err)
			}
			kind, step := plan(tc.sc, req)
			if kind != tc.wantKind || step != tc.wantStep {
				t.Errorf("plan = %s,%d, want %s,%d", kind, step, tc.wantKind, tc.wantStep)
			}
		})
	}
}

type sseEvent struct {
	name string
	data map[string]any
}

func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("sse data is not JSON: %v: %q", err, line)
			}
			if d["type"] != name {
				t.Errorf("sse event %q carries type %v", name, d["type"])
			}
			out = append(out, sseEvent{name, d})
		case line == "":
		default:
			t.Fatalf("unexpected sse line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func startMock(t *testing.T, sc Scenario) *Mock {
	t.Helper()
	m, err := NewMock(sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	return m
}

func post(t *testing.T, url string, body []byte) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestMockStreamToolUse decodes the SSE stream as the CLI does and checks the
// event order and that the chunked tool input reassembles to the exact bytes.
func TestMockStreamToolUse(t *testing.T) {
	t.Parallel()
	content := "a\u200bb\u200bc\u200bd <tag> & \"q\"\n"
	m := startMock(t, Scenario{Steps: []ToolCall{Write("/proj/out.txt", content)}})
	resp := post(t, m.URL()+"/v1/messages?beta=true", conv(t, true, []string{"Write"}, user("go")))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	for _, e := range evs {
		names = append(names, e.name)
	}
	wantPrefix := []string{"message_start", "ping", "content_block_start"}
	if len(names) < 5 || !reflect.DeepEqual(names[:3], wantPrefix) || names[len(names)-2] != "message_delta" || names[len(names)-1] != "message_stop" {
		t.Fatalf("event order %v", names)
	}
	var js, txt strings.Builder
	chunks := 0
	var toolStart map[string]any
	for _, e := range evs {
		switch e.name {
		case "content_block_start":
			cb := e.data["content_block"].(map[string]any)
			if cb["type"] == "tool_use" {
				toolStart = cb
			}
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "input_json_delta":
				js.WriteString(d["partial_json"].(string))
				chunks++
			case "text_delta":
				txt.WriteString(d["text"].(string))
			}
		case "message_delta":
			if sr := e.data["delta"].(map[string]any)["stop_reason"]; sr != "tool_use" {
				t.Errorf("stop_reason %v, want tool_use", sr)
			}
		}
	}
	if toolStart == nil || toolStart["name"] != "Write" || !strings.HasPrefix(toolStart["id"].(string), "toolu_") {
		t.Fatalf("tool_use block start = %v", toolStart)
	}
	if chunks < 2 {
		t.Errorf("tool input sent in %d chunk(s), want several", chunks)
	}
	var in map[string]string
	if err := json.Unmarshal([]byte(js.String()), &in); err != nil {
		t.Fatalf("reassembled input is not JSON: %v", err)
	}
	if in["content"] != content || in["file_path"] != "/proj/out.txt" {
		t.Errorf("reassembled input = %q", in)
	}
	if txt.String() != "Calling Write." {
		t.Errorf("text = %q", txt.String())
	}
	reqs := m.Requests()
	if len(reqs) != 1 || reqs[0].Kind != KindToolUse || reqs[0].Step != 0 || !reqs[0].Stream || reqs[0].Query != "beta=true" {
		t.Errorf("log = %+v", reqs)
	}
}

func TestMockNonStream(t *testing.T) {
	t.Parallel()
	m := startMock(t, Scenario{Steps: []ToolCall{Edit("/p/f", "a", "b")}})
	resp := post(t, m.URL()+"/v1/messages", conv(t, false, []string{"Write", "Edit"}, user("go")))
	var msg struct {
		Type       string `json:"type"`
		Role       string `json:"role"`
		Model      string `json:"model"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type  string            `json:"type"`
			Name  string            `json:"name"`
			Input map[string]string `json:"input"`
		} `json:"content"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.Role != "assistant" || msg.Model != "claude-test" || msg.StopReason != "tool_use" || len(msg.Content) != 2 {
		t.Fatalf("reply = %+v", msg)
	}
	if c := msg.Content[1]; c.Type != "tool_use" || c.Name != "Edit" || c.Input["old_string"] != "a" || c.Input["new_string"] != "b" {
		t.Errorf("tool block = %+v", c)
	}
}

func TestMockSideAndOtherEndpoints(t *testing.T) {
	t.Parallel()
	m := startMock(t, Scenario{Steps: []ToolCall{Write("/p/f", "x")}})
	evs := readSSE(t, post(t, m.URL()+"/v1/messages", conv(t, true, nil, user("title"))).Body)
	var txt strings.Builder
	for _, e := range evs {
		if e.name == "content_block_delta" {
			txt.WriteString(e.data["delta"].(map[string]any)["text"].(string))
		}
	}
	if txt.String() != SideText {
		t.Errorf("side reply %q, want %q", txt.String(), SideText)
	}

	b, _ := io.ReadAll(post(t, m.URL()+"/v1/messages/count_tokens", []byte(`{"messages":[]}`)).Body)
	if string(b) != `{"input_tokens":42}` {
		t.Errorf("count_tokens = %s", b)
	}
	get := func(path string) []byte {
		resp, err := http.Get(m.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	var models struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(get("/v1/models"), &models); err != nil || len(models.Data) == 0 {
		t.Errorf("models: %v %+v", err, models)
	}
	if b := get("/v1/anything"); string(b) != "{}" {
		t.Errorf("other = %s", b)
	}
	resp, err := http.Head(m.URL() + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("HEAD /: %v", err)
	}
	resp.Body.Close()
	resp = post(t, m.URL()+"/v1/messages", []byte("not json"))
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid body answered %d", resp.StatusCode)
	}

	var kinds []Kind
	for i, q := range m.Requests() {
		if q.N != i+1 {
			t.Errorf("request %d numbered %d", i+1, q.N)
		}
		kinds = append(kinds, q.Kind)
	}
	want := []Kind{KindSide, KindCountTokens, KindModels, KindOther, KindHead, KindOther}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds = %v, want %v", kinds, want)
	}
}

func TestRequestMentions(t *testing.T) {
	t.Parallel()
	body := conv(t, true, []string{"Write"}, user("go"), asst([]any{text("done")}),
		user([]any{text("Stop hook feedback:\n\"quoted\" reason <b>")}), system("sys \u200b note"))
	r := Request{Body: body}
	for _, s := range []string{`"quoted" reason <b>`, "sys \u200b note", "go"} {
		if !r.Mentions(s) {
			t.Errorf("Mentions(%q) = false", s)
		}
	}
	for _, s := range []string{"absent", "Write", "claude-test"} { // tool names and model are not messages
		if r.Mentions(s) {
			t.Errorf("Mentions(%q) = true", s)
		}
	}
	if (Request{Body: []byte("{")}).Mentions("{") {
		t.Error("Mentions on invalid JSON = true")
	}
}

func TestSplitUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"", 3, []string{""}},
		{"ab", 1, []string{"ab"}},
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"a\u200bb", 2, []string{"a\u200b", "b"}}, // the cut moves forward out of the rune
		{"\u200b", 3, []string{"\u200b"}},
	}
	for _, tc := range tests {
		if got := splitUTF8(tc.s, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitUTF8(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// FuzzSplitUTF8 checks the chunks rejoin to the input, are at most n, and
// never cut a valid rune.
func FuzzSplitUTF8(f *testing.F) {
	f.Add("hello\u200bworld\n", 3)
	f.Add("\U0001F600\u200b", 2)
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = int(uint(n)%8) + 1
		parts := splitUTF8(s, n)
		if strings.Join(parts, "") != s {
			t.Fatalf("parts %q do not rejoin to %q", parts, s)
		}
		if len(parts) > n {
			t.Fatalf("%d parts, want at most %d", len(parts), n)
		}
		for i, p := range parts {
			if i > 0 && p == "" {
				t.Fatalf("empty part %d", i)
			}
			if utf8.ValidString(s) && !utf8.ValidString(p) {
				t.Fatalf("part %q cuts a rune", p)
			}
		}
	})
}

func TestSettingsJSON(t *testing.T) {
	t.Parallel()
	got := SettingsJSON(
		Hook{Event: "PostToolUse", Matcher: FileToolsMatcher, Command: "prosewash hook claude post-tool-use", Timeout: 30},
		Hook{Event: "Stop", Command: "a"},
		Hook{Event: "Stop", Command: "b"},
	)
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	ptu := doc.Hooks["PostToolUse"]
	if len(ptu) != 1 || ptu[0].Matcher == nil || *ptu[0].Matcher != FileToolsMatcher || ptu[0].Hooks[0].Type != "command" || ptu[0].Hooks[0].Timeout != 30 {
		t.Errorf("PostToolUse = %+v", ptu)
	}
	st := doc.Hooks["Stop"]
	if len(st) != 2 || st[0].Matcher != nil || st[0].Hooks[0].Command != "a" || st[1].Hooks[0].Command != "b" {
		t.Errorf("Stop = %+v (matcher must be omitted, order kept)", st)
	}
}

func TestFindClaude(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "claude")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	if err := os.MkdirAll(filepath.Join(cache, "prosewash-ci", "claude-code", "bin"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(cache, "prosewash-ci", "claude-code", "bin", "claude")); err != nil {
		t.Fatal(err)
	}
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name   string
		getenv func(string) string
		want   string
		wantOK bool
		whyHas string
	}{
		{"explicit binary", env(EnvClaudeBin, exe), exe, true, ""},
		{"explicit missing", env(EnvClaudeBin, filepath.Join(dir, "nope")), "", false, EnvClaudeBin},
		{"explicit not executable", env(EnvClaudeBin, plain), "", false, "not executable"},
		{"xdg cache link", env("XDG_CACHE_HOME", cache, "HOME", "/nonexistent"), filepath.Join(cache, "prosewash-ci", "claude-code", "bin", "claude"), true, ""},
		{"home cache missing", env("HOME", dir), "", false, "install-claude.sh"},
		{"relative xdg ignored", env("XDG_CACHE_HOME", "rel", "HOME", dir), "", false, filepath.Join(dir, ".cache")},
		{"cache override", env(EnvClaudeCache, filepath.Join(cache, "prosewash-ci", "claude-code")), filepath.Join(cache, "prosewash-ci", "claude-code", "bin", "claude"), true, ""},
		{"no home", env(), "", false, "HOME"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, why := findClaude(tc.getenv)
			if got != tc.want || ok != tc.wantOK || !strings.Contains(why, tc.whyHas) {
				t.Errorf("findClaude = %q, %v, %q; want %q, %v, why containing %q", got, ok, why, tc.want, tc.wantOK, tc.whyHas)
			}
			if !ok && why == "" {
				t.Error("not found without a reason")
			}
		})
	}
}

func TestAbsolutize(t *testing.T) {
	t.Parallel()
	sc := Scenario{Steps: []ToolCall{
		Write("out.txt", "x"),
		Edit("/abs/f", "a", "b"),
		{Name: "NotebookEdit", Input: map[string]any{"notebook_path": "nb.ipynb", "new_source": "s"}},
	}}
	got := absolutize(sc, "/proj")
	if got.Steps[0].Input["file_path"] != filepath.Join("/proj", "out.txt") || got.Steps[1].Input["file_path"] != "/abs/f" ||
		got.Steps[2].Input["notebook_path"] != filepath.Join("/proj", "nb.ipynb") || got.Steps[2].Input["new_source"] != "s" {
		t.Errorf("absolutize = %+v", got)
	}
	if sc.Steps[0].Input["file_path"] != "out.txt" {
		t.Error("absolutize modified the caller's scenario")
	}
}

func TestParseOutcome(t *testing.T) {
	t.Parallel()
	o, err := parseOutcome([]byte(`{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":3,"session_id":"s","permission_denials":[]}` + "\n"))
	if err != nil || o.Subtype != "success" || o.Result != "done" || o.NumTurns != 3 || o.SessionID != "s" {
		t.Errorf("parseOutcome = %+v, %v", o, err)
	}
	for _, bad := range []string{"", "not json", `{"type":"assistant"}`} {
		if o, err := parseOutcome([]byte(bad)); err == nil {
			t.Errorf("parseOutcome(%q) = %+v, want error", bad, o)
		}
	}
}

// TestPinnedVersionMatchesInstaller keeps the Go constant and the installer's
// default in step.
func TestPinnedVersionMatchesInstaller(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), ".ci", "install-claude.sh"))
	if err != nil {
		t.Fatalf("read installer: %v", err)
	}
	if want := `version="${PROSEWASH_CLAUDE_VERSION:-` + PinnedVersion + `}"`; !strings.Contains(string(b), want) {
		t.Errorf("installer lacks %s", want)
	}
}
