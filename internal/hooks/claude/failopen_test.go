package claude

import (
	"context"
	"strings"
	"testing"
)

// A bug anywhere below Run (here: a panic where the environment is read)
// must come back as the fail-open answer: one systemMessage, never a
// panic that would crash the hook and wedge the session.
func TestRunRecoversFromPanics(t *testing.T) {
	r := &Runner{Getenv: func(string) string { panic("boom") }, Home: t.TempDir()}
	for _, event := range Events() {
		payload := `{"session_id":"s1","cwd":"/tmp","hook_event_name":"x","tool_name":"Write","tool_input":{"file_path":"/tmp/x.md"}}`
		out := r.Run(context.Background(), event, strings.NewReader(payload))
		if out == nil || !strings.Contains(out.SystemMessage, "internal error: boom") {
			t.Errorf("%s: output %+v, want the fail-open systemMessage naming the internal error", event, out)
		}
		if out != nil && out.Decision != "" {
			t.Errorf("%s: a failing hook decided %q; it must fail open", event, out.Decision)
		}
	}
}
