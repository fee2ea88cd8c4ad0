package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claude is Claude Code's configuration, installed as every agent's is.
func claude(t *testing.T) Agent {
	t.Helper()
	a, ok := LookupAgent("claude")
	if !ok {
		t.Fatal("no claude platform")
	}
	return a
}

const settingsFile = ".claude/settings.json"

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

// ourCommands lists, per event, the prosewash commands in a settings file.
func ourCommands(t *testing.T, p string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	hooks, _ := readJSON(t, p)["hooks"].(map[string]any)
	for ev, gs := range hooks {
		for _, g := range gs.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				if c := h.(map[string]any)["command"].(string); claudeOurs(c) {
					out[ev] = append(out[ev], c)
				}
			}
		}
	}
	return out
}

func TestInstallClaudeFresh(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	act, err := claude(t).Install(root, state)
	if err != nil || act != Installed {
		t.Fatalf("install: %s %v", act, err)
	}
	p := filepath.Join(root, settingsFile)
	cmds := ourCommands(t, p)
	for ev, arg := range map[string]string{"SessionStart": "session-start", "PreToolUse": "pre-tool-use", "Stop": "stop",
		"InstructionsLoaded": "instructions-loaded", "SubagentStart": "subagent-start"} {
		if len(cmds[ev]) != 1 || cmds[ev][0] != claude(t).Command(arg) {
			t.Errorf("%s: %v", ev, cmds[ev])
		}
	}
	// PostToolUse twice: file writes (attribution, write guard) and the subagent tool (spawn meter).
	if c := cmds["PostToolUse"]; len(c) != 2 || c[0] != claude(t).Command("post-tool-use") || c[1] != c[0] {
		t.Errorf("PostToolUse: %v", c)
	}
	first, _ := os.ReadFile(p)
	if act, err := claude(t).Install(root, state); err != nil || act != Unchanged {
		t.Fatalf("second install: %s %v", act, err)
	}
	if again, _ := os.ReadFile(p); string(again) != string(first) {
		t.Error("second install rewrote the file")
	}
	if act, err := claude(t).Uninstall(root, state); err != nil || act != Removed {
		t.Fatalf("uninstall: %s %v", act, err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("settings file we created is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Errorf(".claude dir we created is still there: %v", err)
	}
}

const userSettings = `{
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "lint && echo ok > /dev/null"
          }
        ]
      }
    ],
    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify"
          }
        ]
      }
    ]
  },
  "env": {
    "A": "1"
  }
}
`

func TestInstallClaudeKeepsEverythingElse(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	p := filepath.Join(root, settingsFile)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(userSettings), 0o600)
	if act, err := claude(t).Install(root, state); err != nil || act != Updated {
		t.Fatalf("install: %s %v", act, err)
	}
	b, _ := os.ReadFile(p)
	s := string(b)
	// Key order kept, our events after the user's, no HTML escaping.
	order := []string{`"model"`, `"hooks"`, `"PostToolUse"`, `"matcher": "Bash"`, `lint && echo ok > /dev/null`, `hook claude post-tool-use`, `"Notification"`, `"SessionStart"`, `"PreToolUse"`, `"Stop"`, `"env"`}
	last := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i < 0 || i < last {
			t.Fatalf("%s missing or out of order in:\n%s", o, s)
		}
		last = i
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if act, err := claude(t).Uninstall(root, state); err != nil || act != Removed {
		t.Fatalf("uninstall: %s %v", act, err)
	}
	if b, _ := os.ReadFile(p); string(b) != userSettings {
		t.Errorf("uninstall left\n%s\nwant\n%s", b, userSettings)
	}
	if act, err := claude(t).Uninstall(root, state); err != nil || act != Absent {
		t.Errorf("second uninstall: %s %v", act, err)
	}
}

// A hand-copied plugin command counts as ours: no duplicate hook runs.
func TestInstallClaudeReplacesCopiedEntries(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	p := filepath.Join(root, settingsFile)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"command -v prosewash >/dev/null 2>&1 || exit 0; prosewash hook claude stop"},{"type":"command","command":"other"}]}]}}`), 0o644)
	if _, err := claude(t).Install(root, state); err != nil {
		t.Fatal(err)
	}
	if c := ourCommands(t, p)["Stop"]; len(c) != 1 || c[0] != claude(t).Command("stop") {
		t.Errorf("Stop = %v", c)
	}
	if !strings.Contains(string(mustRead(t, p)), `"other"`) {
		t.Error("the user's handler in the same group was dropped")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInstallClaudeRefusesWhatItCannotMerge(t *testing.T) {
	for name, content := range map[string]string{
		"array":          `[1]`,
		"hooks an array": `{"hooks": []}`,
		"trailing data":  `{} {}`,
		"broken":         `{"a": `,
	} {
		t.Run(name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			p := filepath.Join(root, settingsFile)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(content), 0o644)
			if _, err := claude(t).Install(root, state); err == nil {
				t.Fatal("no error")
			}
			if b := mustRead(t, p); string(b) != content {
				t.Errorf("file changed to %q", b)
			}
		})
	}
}

func claudeOurs(cmd string) bool {
	a, _ := LookupAgent("claude")
	return a.ours(cmd)
}

func TestOursCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		claude(t).Command("stop"): true,
		`p='/x/prosewash'; [ -x "$p" ] || p=$(command -v prosewash) || exit 0; "$p" hook claude stop`: true,
		"prosewash hook claude post-tool-use":                true,
		`"$HOME/bin/prosewash" hook claude session-start`:    true,
		"prosewash hook git pre-commit":                      false,
		"my-linter hook claude stop":                         false,
		"prosewash clean --session x":                        false,
		"echo prosewash; other-tool hook claude stopwatch":   false,
		"prosewash wash gauge && prosewash hook claude stop": true,
		"prosewash hook codex stop":                          false,
	} {
		if got := claudeOurs(cmd); got != want {
			t.Errorf("ours(%q) = %v, want %v", cmd, got, want)
		}
	}
}
