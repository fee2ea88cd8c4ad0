package agent

import "testing"

// BenchmarkClaudeHooks measures each hook's own work in process (start-up
// excluded): bench/hooks.sh measures whole processes.
func BenchmarkClaudeHooks(b *testing.B) {
	f := newFixture(b)
	f.write("docs/notes.md", "Some notes.\n")
	f.write("CLAUDE.md", "# Rules\n\n- Be kind.\n")
	r := f.runner("prosewash")
	start := map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "SessionStart", "source": "startup"}
	post := claudeWrite(f, f.path("docs/notes.md"))
	stop := claudeStop(f, false)
	for _, c := range []struct {
		name, event string
		payload     any
	}{{"session-start", "session-start", start}, {"post-tool-use", "post-tool-use", post}, {"stop", "stop", stop}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f.run(r, c.event, c.payload)
			}
		})
	}
}
