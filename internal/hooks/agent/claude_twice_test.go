package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// TestClaudeStopTwiceAtOnce: two installs of the hooks (the plugin and the
// settings) end the same turn at the same moment, as two processes of the
// real binary. One cleans and reports it; the other reports nothing.
func TestClaudeStopTwiceAtOnce(t *testing.T) {
	x := hooktest.NewE2E(t)
	x.Prosewash("install", "--claude", "--mode", "manual")
	x.Approve("automatic")
	home := t.TempDir()
	hook := func(event string, payload map[string]any) (string, string) {
		t.Helper()
		in, _ := json.Marshal(payload)
		cmd := exec.Command(x.Bin, "hook", "claude", event)
		cmd.Dir = x.Proj
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, x.Env...)
		cmd.Stdin = bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("hook claude %s: %v\n%s", event, err, errb.String())
		}
		return out.String(), errb.String()
	}
	for i := range 15 {
		rel := filepath.Join("docs", "n"+string(rune('a'+i))+".md")
		p := filepath.Join(x.Proj, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(claudeDirty), 0o644); err != nil {
			t.Fatal(err)
		}
		hook("post-tool-use", map[string]any{"session_id": "s1", "cwd": x.Proj, "hook_event_name": "PostToolUse",
			"tool_name": "Write", "tool_input": map[string]any{"file_path": p, "content": claudeDirty}})
		outs := make([]string, 2)
		var wg sync.WaitGroup
		for k := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[k], _ = hook("stop", map[string]any{"session_id": "s1", "cwd": x.Proj, "hook_event_name": "Stop", "stop_hook_active": false})
			}()
		}
		wg.Wait()
		if got := x.File(rel); got != claudeCleaned {
			t.Fatalf("round %d: %s = %q after two stops at once; outputs:\n%s\n%s", i, rel, got, outs[0], outs[1])
		}
		if n := strings.Count(outs[0]+outs[1], "cleaned 1 file"); n != 1 {
			t.Fatalf("round %d: %d stops reported the clean, want 1; outputs:\n%s\n%s", i, n, outs[0], outs[1])
		}
	}
}
