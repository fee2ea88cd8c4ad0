package agent

import (
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// Qwen Code's payloads, as its hooks reference and the real 0.24.4 send
// them: session_id and cwd, Gemini's tool ids for writes and the shell.
func TestQwenDecode(t *testing.T) {
	q, ok := Lookup("qwen")
	if !ok {
		t.Fatal("no qwen platform")
	}
	env := func(k string) string { return map[string]string{"QWEN_PROJECT_DIR": "/p"}[k] }
	for _, tt := range []struct {
		name, payload string
		want          []session.Written
	}{
		{"write_file", `{"session_id":"s","cwd":"/p","tool_name":"write_file","tool_input":{"file_path":"/p/a.md","content":"x"}}`,
			[]session.Written{{Path: "/p/a.md", Raw: "/p/a.md"}}},
		{"edit", `{"session_id":"s","cwd":"/p","tool_name":"edit","tool_input":{"file_path":"/p/b.go","old_string":"a","new_string":"b"}}`,
			[]session.Written{{Path: "/p/b.go", Raw: "/p/b.go"}}},
		{"notebook_edit", `{"session_id":"s","cwd":"/p","tool_name":"notebook_edit","tool_input":{"notebook_path":"/p/n.ipynb"}}`,
			[]session.Written{{Path: "/p/n.ipynb", Raw: "/p/n.ipynb"}}},
		{"a relative path", `{"session_id":"s","cwd":"/p","tool_name":"write_file","tool_input":{"file_path":"d/c.md"}}`,
			[]session.Written{{Path: "/p/d/c.md", Raw: "d/c.md"}}},
		{"run_shell_command", `{"session_id":"s","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"printf x > out.md && echo y | tee -a /p/log.md","is_background":false}}`,
			[]session.Written{{Path: "/p/out.md", Raw: "out.md"}, {Path: "/p/log.md", Raw: "/p/log.md"}}},
		{"a shell command writing nothing", `{"session_id":"s","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls -l"}}`, nil},
		{"read_file", `{"session_id":"s","cwd":"/p","tool_name":"read_file","tool_input":{"file_path":"/p/a.md"}}`, nil},
		{"Gemini's replace is not Qwen's", `{"session_id":"s","cwd":"/p","tool_name":"replace","tool_input":{"file_path":"/p/a.md"}}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []Kind{BeforeWrite, AfterWrite} {
				p, err := q.Decode([]byte(tt.payload), k, env)
				if err != nil {
					t.Fatal(err)
				}
				if p.Session != "s" || p.Cwd != "/p" || p.ProjectDir != "/p" || !reflect.DeepEqual(p.Writes, tt.want) {
					t.Errorf("%+v, want writes %+v", p, tt.want)
				}
			}
		})
	}
	for _, tt := range []struct{ name, payload, want string }{
		{"no session", `{"cwd":"/p"}`, "no session_id"},
		{"no tool_name", `{"session_id":"s","cwd":"/p"}`, "no tool_name"},
		{"no file", `{"session_id":"s","cwd":"/p","tool_name":"edit","tool_input":{"old_string":"a"}}`, "names no file"},
		{"tool_input a string", `{"session_id":"s","cwd":"/p","tool_name":"edit","tool_input":"x"}`, "no usable tool_input"},
		{"a shell without cwd", `{"session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"echo > a"}}`, "no absolute cwd"},
	} {
		if _, err := q.Decode([]byte(tt.payload), AfterWrite, env); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error naming %q", tt.name, err, tt.want)
		}
	}
	p, err := q.Decode([]byte(`{"session_id":"s","cwd":"/p","stop_hook_active":true}`), TurnEnd, env)
	if err != nil || !p.Again {
		t.Errorf("Stop with stop_hook_active: %+v %v", p, err)
	}
}
