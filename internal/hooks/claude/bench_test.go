package claude

import "testing"

// BenchmarkHooks measures each hook's own work in process (start-up
// excluded): bench/hooks.sh measures whole processes.
func BenchmarkHooks(b *testing.B) {
	f := newFixture(b)
	f.write("docs/notes.md", "Some notes.\n")
	f.write("CLAUDE.md", "# Rules\n\n- Be kind.\n")
	r := f.runner("prosewash")
	start := map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "SessionStart", "source": "startup"}
	post := write(f, f.path("docs/notes.md"))
	stop := stopPayload(f, false)
	for _, c := range []struct {
		name, event string
		payload     any
	}{{"session-start", SessionStart, start}, {"post-tool-use", PostToolUse, post}, {"stop", Stop, stop}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f.run(r, c.event, c.payload)
			}
		})
	}
}
