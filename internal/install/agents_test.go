package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userFiles are hook configurations a user may already have, laid out in
// ways a re-render would change (tabs, key order, one-line arrays).
var userFiles = map[string]string{
	"codex":   "{\n\t\"hooks\": {\"PostToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}]}\n}",
	"gemini":  "{ \"general\": {\"vimMode\": true},\n  \"hooks\": { \"AfterTool\": [ {\"matcher\": \"write_file\", \"hooks\": [{\"type\":\"command\",\"command\":\"fmt\",\"name\":\"fmt\"}]} ] } }\n",
	"cursor":  "{\"version\": 1, \"hooks\": {\"afterFileEdit\": [{\"command\": \"./format.sh\"}]}}",
	"copilot": "",
}

func commandsOf(t *testing.T, a Agent, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range hookCommands(t, a, b) {
		if a.ours(c) {
			out = append(out, c[strings.LastIndex(c, " hook ")+1:])
		}
	}
	return out
}

func TestAgentInstallFreshAndUninstallLeavesNothing(t *testing.T) {
	for _, a := range hookAgents() {
		t.Run(a.Name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			act, err := a.Install(root, state)
			if err != nil || act != Installed {
				t.Fatalf("install: %s %v", act, err)
			}
			p := filepath.Join(root, filepath.FromSlash(a.File()))
			if got := commandsOf(t, a, p); len(got) != len(a.spec().defs) {
				t.Fatalf("commands %v, want one per event", got)
			}
			first, _ := os.ReadFile(p)
			if act, err := a.Install(root, state); err != nil || act != Unchanged {
				t.Fatalf("second install: %s %v", act, err)
			}
			if again, _ := os.ReadFile(p); string(again) != string(first) {
				t.Fatalf("a second install rewrote the file")
			}
			if act, err := a.Uninstall(root, state); err != nil || act != Removed {
				t.Fatalf("uninstall: %s %v", act, err)
			}
			if ents, _ := os.ReadDir(root); len(ents) != 0 {
				t.Fatalf("uninstall left %v in the project", ents)
			}
			if act, err := a.Uninstall(root, state); err != nil || act != Absent {
				t.Fatalf("second uninstall: %s %v", act, err)
			}
		})
	}
}

// A file an older prosewash wrote (its own absolute path in every
// command, committed by a teammate) gets today's entries in their place,
// byte for byte what a fresh install writes, never beside them.
func TestAgentInstallReplacesAnOlderProsewashsEntries(t *testing.T) {
	for _, a := range hookAgents() {
		t.Run(a.Name, func(t *testing.T) {
			fresh, state := t.TempDir(), t.TempDir()
			if _, err := a.Install(fresh, state); err != nil {
				t.Fatal(err)
			}
			want, _ := os.ReadFile(filepath.Join(fresh, filepath.FromSlash(a.File())))
			old := strings.ReplaceAll(string(want), "exec prosewash hook", `p='/home/ann/go/bin/prosewash'; [ -x \"$p\" ] || p=$(command -v prosewash) || exit 0; \"$p\" hook`)
			if old == string(want) {
				t.Fatal("no command to age")
			}
			root := t.TempDir()
			p := filepath.Join(root, filepath.FromSlash(a.File()))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(old), 0o644)
			if act, err := a.Install(root, t.TempDir()); err != nil || act != Updated {
				t.Fatalf("install over an older prosewash's entries: %s %v", act, err)
			}
			if got, _ := os.ReadFile(p); string(got) != string(want) {
				t.Fatalf("left\n%s\nwant what a fresh install writes\n%s", got, want)
			}
		})
	}
}

func TestAgentUninstallRestoresTheUsersBytes(t *testing.T) {
	for _, a := range Agents() {
		if userFiles[a.Name] == "" {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			p := filepath.Join(root, filepath.FromSlash(a.File()))
			os.MkdirAll(filepath.Dir(p), 0o755)
			orig := userFiles[a.Name]
			os.WriteFile(p, []byte(orig), 0o600)
			if act, err := a.Install(root, state); err != nil || act != Updated {
				t.Fatalf("install: %s %v", act, err)
			}
			b, _ := os.ReadFile(p)
			if !strings.Contains(string(b), "lint") && !strings.Contains(string(b), "fmt") && !strings.Contains(string(b), "format.sh") {
				t.Fatalf("the user's hook is gone:\n%s", b)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
			}
			if act, err := a.Uninstall(root, state); err != nil || act != Removed {
				t.Fatalf("uninstall: %s %v", act, err)
			}
			if b, _ := os.ReadFile(p); string(b) != orig {
				t.Errorf("uninstall left\n%q\nwant the user's bytes\n%q", b, orig)
			}
		})
	}
}

// A file edited after install keeps the edit; only our entries go.
func TestAgentUninstallKeepsLaterEdits(t *testing.T) {
	a, _ := LookupAgent("gemini")
	root, state := t.TempDir(), t.TempDir()
	if _, err := a.Install(root, state); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".gemini", "settings.json")
	b, _ := os.ReadFile(p)
	edited := strings.Replace(string(b), "{", "{\n  \"theme\": \"dark\",", 1)
	os.WriteFile(p, []byte(edited), 0o644)
	if act, err := a.Uninstall(root, state); err != nil || act != Removed {
		t.Fatalf("uninstall: %s %v", act, err)
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), `"theme": "dark"`) || strings.Contains(string(b), "prosewash") {
		t.Fatalf("after uninstall: %v\n%s", err, b)
	}
}

func TestAgentInstallRefusesInvalidJSON(t *testing.T) {
	a, _ := LookupAgent("cursor")
	root := t.TempDir()
	p := filepath.Join(root, ".cursor", "hooks.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("{\"version\": 1, "), 0o644)
	if _, err := a.Install(root, t.TempDir()); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("install over invalid JSON: %v, want an error naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "{\"version\": 1, " {
		t.Errorf("invalid file was touched: %q", b)
	}
}

func TestCodexTrustBlockRoundTrip(t *testing.T) {
	a, _ := LookupAgent("codex")
	root, state, home := t.TempDir(), t.TempDir(), t.TempDir()
	if _, err := a.Install(root, state); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "config.toml")
	orig := "model = \"gpt-5.5\"\n\n[projects.\"" + root + "\"]\ntrust_level = \"trusted\" # mine"
	os.WriteFile(cfg, []byte(orig), 0o600)
	if !CodexProjectTrusted(home, root) {
		t.Fatal("project trust not read")
	}
	n, err := AddCodexTrust(home, root)
	if err != nil || n != 5 {
		t.Fatalf("add trust: %d %v", n, err)
	}
	b, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(b), orig) || strings.Count(string(b), "trusted_hash = \"sha256:") != 5 {
		t.Fatalf("config after trust:\n%s", b)
	}
	if n, err := AddCodexTrust(home, root); err != nil || n != 5 {
		t.Fatalf("again: %d %v", n, err)
	}
	if b2, _ := os.ReadFile(cfg); string(b2) != string(b) {
		t.Errorf("adding trust twice changed the file:\n%s", b2)
	}
	if act, err := RemoveCodexTrust(home, root); err != nil || act != Removed {
		t.Fatalf("remove: %s %v", act, err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != orig {
		t.Errorf("after removal\n%q\nwant\n%q", b, orig)
	}
	// An entry the user already has is not written twice (TOML would refuse it).
	es, _ := CodexTrust(root)
	mine := orig + "\n[hooks.state." + tomlQuote(es[0].Key) + "]\nenabled = true\n"
	os.WriteFile(cfg, []byte(mine), 0o600)
	if n, err := AddCodexTrust(home, root); err != nil || n != 4 {
		t.Fatalf("with one entry already there: %d %v", n, err)
	}
}

// The hash is Codex's: a known identity from the feasibility study's
// hooks.json (the Python re-implementation verified on 0.169.0 and 0.171.0).
func TestCodexHookHashKnownValue(t *testing.T) {
	m := "*"
	to := 30
	got, err := CodexHookHash("PostToolUse", &m, "/run/hook_log.sh PostToolUse", &to, false)
	if err != nil {
		t.Fatal(err)
	}
	// codex_hook_trust.py of the feasibility study on the same identity.
	const want = "sha256:5b12871b599a8752d740faa5f4355fcab8e391edab05c2aa1c6f1552e5f66403"
	if got != want {
		t.Fatalf("hash %q, want %q", got, want)
	}
	// Stop ignores its matcher: the identity leaves it out.
	a, _ := CodexHookHash("Stop", &m, "x", nil, false)
	b, _ := CodexHookHash("Stop", nil, "x", nil, false)
	if a != b {
		t.Errorf("Stop's matcher changed the hash")
	}
}

// hookAgents are the platforms whose configuration holds hook commands;
// a plugin platform's file is the plugin (TestPluginInstall).
func hookAgents() []Agent {
	var out []Agent
	for _, a := range Agents() {
		if a.Config.Plugin == "" {
			out = append(out, a)
		}
	}
	return out
}

// A plugin platform's file is prosewash's whole: install writes the
// plugin, a second install leaves it, an older plugin of ours is replaced,
// a file of that name that is not ours is refused and left as it is, and
// uninstall removes the file and the directories install made (never a
// file that is not ours).
func TestPluginInstall(t *testing.T) {
	a, ok := LookupAgent("opencode")
	if !ok || a.Config.Plugin == "" {
		t.Fatal("no opencode plugin platform")
	}
	root, state := t.TempDir(), t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(a.File()))
	if act, err := a.Install(root, state); err != nil || act != Installed {
		t.Fatalf("install: %s %v", act, err)
	}
	if got, _ := os.ReadFile(p); string(got) != a.Config.Plugin {
		t.Fatalf("install wrote %d bytes, not the plugin", len(got))
	}
	if act, err := a.Install(root, state); err != nil || act != Unchanged {
		t.Fatalf("second install: %s %v", act, err)
	}
	if act, err := a.Uninstall(root, state); err != nil || act != Removed {
		t.Fatalf("uninstall: %s %v", act, err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("uninstall left %v in the project", ents)
	}
	// An older plugin of ours (committed by a teammate) is replaced, and
	// uninstall removes it, leaving the directory it was found in.
	older := strings.Replace(a.Config.Plugin, "const writers", "// an older version\nconst writers", 1)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(older), 0o644)
	if act, err := a.Install(root, state); err != nil || act != Updated {
		t.Fatalf("install over an older plugin: %s %v", act, err)
	}
	if got, _ := os.ReadFile(p); string(got) != a.Config.Plugin {
		t.Fatalf("the older plugin was not replaced")
	}
	if act, err := a.Uninstall(root, state); err != nil || act != Removed {
		t.Fatalf("uninstall: %s %v", act, err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("uninstall left the plugin: %v", err)
	}
	foreign := "export const Mine = async () => ({})\n"
	os.WriteFile(p, []byte(foreign), 0o644)
	if act, err := a.Install(root, state); err == nil || !strings.Contains(err.Error(), "not prosewash's plugin") {
		t.Fatalf("install over a foreign plugin: %s %v, want a refusal", act, err)
	}
	if act, err := a.Uninstall(root, state); err != nil || act != Absent {
		t.Fatalf("uninstall with a foreign plugin: %s %v", act, err)
	}
	if got, _ := os.ReadFile(p); string(got) != foreign {
		t.Fatalf("the foreign plugin became %q", got)
	}
}
