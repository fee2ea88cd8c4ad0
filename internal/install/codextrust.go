package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

// Codex runs a project's hooks only after they were reviewed and trusted:
// an untrusted hook is skipped silently. Trust is a [hooks.state] entry in
// the user's config.toml holding a hash of the hook's identity, keyed by
// the absolute path of the file declaring it, the event, and the hook's
// group and handler index. These functions reproduce Codex's hash
// (codex-rs hooks/src/engine/discovery.rs command_hook_hash and
// config/src/fingerprint.rs version_for_toml, as of 0.169.0; proven
// against the real CLI in internal/hooks/agent/e2e's Codex test), so install can
// write that trust, and only with the user's consent on a terminal.

// codexEvents maps Codex's event names to the labels its trust keys use.
var codexEvents = map[string]string{
	"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
	"PreCompact": "pre_compact", "PostCompact": "post_compact", "SessionStart": "session_start",
	"SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
	"SubagentStop": "subagent_stop", "Stop": "stop",
}

// codexNoMatcher are the events whose matcher Codex ignores (and leaves
// out of the identity).
func codexNoMatcher(ev string) bool {
	switch ev {
	case "PreCompact", "PostCompact", "UserPromptSubmit", "Stop":
		return true
	}
	return false
}

// CodexTrustEntry is one hook's trust: its state key and hash.
type CodexTrustEntry struct{ Key, Hash string }

// CodexHookHash is Codex's trusted_hash of one command hook.
func CodexHookHash(event string, matcher *string, command string, timeout *int, async bool) (string, error) {
	label, ok := codexEvents[event]
	if !ok {
		return "", fmt.Errorf("unknown Codex hook event %q", event)
	}
	t := 600
	if timeout != nil {
		t = max(1, *timeout)
	}
	h := map[string]any{"type": "command", "command": command, "timeout": t, "async": async}
	id := map[string]any{"event_name": label, "hooks": []any{h}}
	if matcher != nil && !codexNoMatcher(event) {
		id["matcher"] = *matcher
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(id); err != nil {
		return "", err
	}
	sum := sha256.Sum256(bytes.TrimRight(b.Bytes(), "\n"))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// CodexTrust computes the trust entries of prosewash's hooks in the
// project's .codex/hooks.json.
func CodexTrust(root string) ([]CodexTrustEntry, error) {
	a, _ := LookupAgent("codex")
	path := filepath.Join(root, filepath.FromSlash(a.File()))
	data, existed, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	if !existed {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout *int   `json:"timeout"`
				Async   bool   `json:"async"`
				Status  string `json:"statusMessage"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte(bom)), &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var out []CodexTrustEntry
	for _, ev := range sortedKeys(doc.Hooks) {
		for gi, g := range doc.Hooks[ev] {
			for hi, h := range g.Hooks {
				if h.Type != "command" || !a.ours(h.Command) || h.Status != "" {
					continue
				}
				sum, err := CodexHookHash(ev, g.Matcher, h.Command, h.Timeout, h.Async)
				if err != nil {
					return nil, err
				}
				out = append(out, CodexTrustEntry{Key: fmt.Sprintf("%s:%s:%d:%d", path, codexEvents[ev], gi, hi), Hash: sum})
			}
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// CodexHome is Codex's user directory: $CODEX_HOME, else ~/.codex.
func CodexHome(getenv func(string) string, home string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".codex")
}

func trustMarkers(root string) (begin, end string) {
	return "# >>> prosewash: Codex trust for the hooks of " + root + " ('prosewash uninstall' removes this block)\n",
		"# <<< prosewash: Codex trust for the hooks of " + root + "\n"
}

func tomlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// CodexProjectTrusted reports whether Codex's user config trusts the
// project (Codex loads a project's .codex/ only then).
func CodexProjectTrusted(codexHome, root string) bool {
	b, _, err := readConfig(filepath.Join(codexHome, "config.toml"))
	if err != nil {
		return false
	}
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if toml.Unmarshal(tomlx.StripBOM(b), &cfg) != nil {
		return false
	}
	return cfg.Projects[root].TrustLevel == "trusted"
}

// AddCodexTrust writes the trust of prosewash's hooks into Codex's user
// config.toml, as one marked block appended at the end (replacing an
// earlier block of ours for the same project). Entries the user already
// has for the same hooks are left alone and not repeated (TOML refuses a
// table defined twice). It returns how many entries it wrote.
func AddCodexTrust(codexHome, root string) (int, error) {
	entries, err := CodexTrust(root)
	if err != nil {
		return 0, err
	}
	path := filepath.Join(codexHome, "config.toml")
	orig, _, err := readConfig(path)
	if err != nil {
		return 0, err
	}
	cur := removeBlock(orig, root)
	var cfg map[string]any
	if err := toml.Unmarshal(tomlx.StripBOM(cur), &cfg); err != nil {
		return 0, fmt.Errorf("%s: %v; not touched", path, err)
	}
	have := map[string]bool{}
	if h, ok := cfg["hooks"].(map[string]any); ok {
		if st, ok := h["state"].(map[string]any); ok {
			for k := range st {
				have[k] = true
			}
		}
	}
	begin, end := trustMarkers(root)
	var b strings.Builder
	n := 0
	b.WriteString("\n" + begin)
	for _, e := range entries {
		if have[e.Key] {
			continue
		}
		fmt.Fprintf(&b, "[hooks.state.%s]\nenabled = true\ntrusted_hash = %s\n", tomlQuote(e.Key), tomlQuote(e.Hash))
		n++
	}
	b.WriteString(end)
	out := cur
	if n > 0 {
		out = append(append([]byte{}, cur...), b.String()...)
	}
	var check map[string]any
	if err := toml.Unmarshal(tomlx.StripBOM(out), &check); err != nil {
		return 0, fmt.Errorf("%s: the trust entries would not parse (%v); not touched", path, err)
	}
	if bytes.Equal(out, orig) {
		return n, nil
	}
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		return 0, err
	}
	if err := writeFile(path, out, 0o644); err != nil {
		return 0, err
	}
	return n, nil
}

// removeBlock takes our marked block (and the newline put before it) out
// of a config, leaving every other byte as it was.
func removeBlock(cur []byte, root string) []byte {
	begin, end := trustMarkers(root)
	s := string(cur)
	i := strings.Index(s, "\n"+begin)
	if i < 0 {
		return cur
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return cur
	}
	return []byte(s[:i] + s[i+j+len(end):])
}

// RemoveCodexTrust takes prosewash's trust block for the project out of
// Codex's user config.toml, byte for byte; a config left empty is removed.
func RemoveCodexTrust(codexHome, root string) (Action, error) {
	path := filepath.Join(codexHome, "config.toml")
	cur, existed, err := readConfig(path)
	if err != nil || !existed {
		return Absent, err
	}
	out := removeBlock(cur, root)
	if bytes.Equal(out, cur) {
		return Absent, nil
	}
	if len(out) == 0 {
		return Removed, os.Remove(path)
	}
	return Removed, writeFile(path, out, 0o644)
}
