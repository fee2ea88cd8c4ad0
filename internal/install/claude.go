package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// SettingsFile is the project's Claude Code settings, relative to the root.
const SettingsFile = ".claude/settings.json"

// claudeHook is one hook entry prosewash adds.
type claudeHook struct {
	event   string // settings.json event name
	matcher string // "" for events without one
	arg     string // prosewash hook claude ARG
	timeout int
}

func claudeHooks() []claudeHook {
	return []claudeHook{
		{"SessionStart", "startup|resume|clear|compact", "session-start", 30},
		{"PreToolUse", "Write|Edit|MultiEdit|NotebookEdit", "pre-tool-use", 30},
		{"PostToolUse", "Write|Edit|MultiEdit|NotebookEdit", "post-tool-use", 30},
		// The memory lane: what the session really loaded, and the subagents that carry it
		// again (PostToolUse on the subagent tool counts for CLIs without SubagentStart).
		{"InstructionsLoaded", "", "instructions-loaded", 30},
		{"SubagentStart", "", "subagent-start", 30},
		{"PostToolUse", "Agent|Task", "post-tool-use", 30},
		// Stop may run validation commands: give it the CLI's own maximum.
		{"Stop", "", "stop", 600},
	}
}

// ClaudeCommand is the settings.json command line for one event: the
// absolute path of the prosewash that installed it, else prosewash from
// PATH, else nothing (a missing binary must not break a session).
func ClaudeCommand(bin, event string) string {
	return fmt.Sprintf(`p=%s; [ -x "$p" ] || p=$(command -v prosewash) || exit 0; "$p" hook claude %s`, shQuote(bin), event)
}

// oursPattern matches prosewash's hook commands; compiled on use, not at
// init, which every hook process would pay for.
const oursPattern = `prosewash.* hook claude (session-start|pre-tool-use|post-tool-use|stop|instructions-loaded|subagent-start)\b`

// OursCommand reports whether a settings.json command is one of
// prosewash's hooks, in any form install wrote or a user copied.
func OursCommand(cmd string) bool { return regexp.MustCompile(oursPattern).MatchString(cmd) }

// member is one key of a JSON object, value kept verbatim.
type member struct {
	key string
	val json.RawMessage
}

// object is a JSON object that keeps its key order, so a merge changes
// only what it means to.
type object []member

func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var o object
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

func (o object) get(k string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == k {
			return m.val, true
		}
	}
	return nil, false
}

func (o object) set(k string, v json.RawMessage) object {
	for i, m := range o {
		if m.key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o object) del(k string) object {
	out := o[:0:0]
	for _, m := range o {
		if m.key != k {
			out = append(out, m)
		}
	}
	return out
}

func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// handler is one command hook of a matcher group.
type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// readSettings loads settings.json; a missing file is an empty object.
func readSettings(path string) (object, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, true, nil
	}
	o, err := parseObject(data)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %v; not touched", path, err)
	}
	return o, true, nil
}

// mergeHooks rebuilds the "hooks" object of a Claude Code settings file:
// ours removed everywhere, then (when add) one group per event appended
// after the user's own.
func mergeHooks(settings object, bin string, add bool) (object, error) {
	var defs []hookDef
	for _, h := range claudeHooks() {
		defs = append(defs, hookDef(h))
	}
	return mergeSpec(settings, hookSpec{defs: defs, grouped: true, ours: OursCommand,
		handler: func(d hookDef) any {
			return handler{Type: "command", Command: ClaudeCommand(bin, d.arg), Timeout: d.timeout}
		}}, add)
}

// marshal encodes without HTML escaping: a command's "&&" or ">" stays
// readable in the user's file.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func render(o object) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, o.marshal(), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// sameJSON compares two documents ignoring whitespace.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// InstallClaude merges prosewash's hooks into the project's
// .claude/settings.json, keeping every other key and hook in its place.
// Running it again changes nothing (a file already holding exactly our
// entries is not rewritten); entries of an older prosewash path are
// replaced.
func InstallClaude(root, bin string) (Action, error) {
	path := filepath.Join(root, filepath.FromSlash(SettingsFile))
	settings, existed, err := readSettings(path)
	if err != nil {
		return "", err
	}
	merged, err := mergeHooks(settings, bin, true)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	data, err := render(merged)
	if err != nil {
		return "", err
	}
	if existed {
		cur, _ := os.ReadFile(path)
		if sameJSON(cur, data) {
			return Unchanged, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := writeFile(path, data, 0o644); err != nil {
		return "", err
	}
	if existed {
		return Updated, nil
	}
	return Installed, nil
}

// UninstallClaude removes prosewash's entries and nothing else. A settings
// file left as an empty object is removed: it says nothing.
func UninstallClaude(root string) (Action, error) {
	path := filepath.Join(root, filepath.FromSlash(SettingsFile))
	settings, existed, err := readSettings(path)
	if err != nil || !existed {
		return Absent, err
	}
	merged, err := mergeHooks(settings, "", false)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	data, err := render(merged)
	if err != nil {
		return "", err
	}
	cur, _ := os.ReadFile(path)
	if sameJSON(cur, data) {
		return Absent, nil
	}
	if len(merged) == 0 {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		// .claude/ left empty held only our file; an error means it holds more.
		_ = os.Remove(filepath.Dir(path))
		return Removed, nil
	}
	if err := writeFile(path, data, 0o644); err != nil {
		return "", err
	}
	return Removed, nil
}
