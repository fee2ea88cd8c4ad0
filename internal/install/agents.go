package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Agent is one agent platform prosewash can hook into besides Claude Code.
type Agent struct {
	Name string // codex, gemini, cursor, copilot: the flag and the hook target
	// Title is the product's name, for messages.
	Title string
	// File is the configuration prosewash writes, relative to the root.
	File string
	// Markers are paths whose presence says a project uses the agent.
	Markers []string
	spec    func(bin string) hookSpec
	// base is a new file's content before the hooks are merged in.
	base string
}

// Agents lists the platforms, in the order install offers them.
func Agents() []Agent {
	return []Agent{
		{Name: "codex", Title: "OpenAI Codex CLI", File: ".codex/hooks.json", Markers: []string{".codex"}, spec: codexSpec, base: "{}"},
		{Name: "gemini", Title: "Gemini CLI", File: ".gemini/settings.json", Markers: []string{".gemini", "GEMINI.md"}, spec: geminiSpec, base: "{}"},
		{Name: "cursor", Title: "Cursor", File: ".cursor/hooks.json", Markers: []string{".cursor", ".cursorrules"}, spec: cursorSpec, base: `{"version":1}`},
		{Name: "copilot", Title: "GitHub Copilot CLI", File: ".github/hooks/prosewash.json", Markers: []string{".github/hooks", ".github/copilot-instructions.md"}, spec: copilotSpec, base: `{"version":1}`},
	}
}

// LookupAgent returns the platform named name.
func LookupAgent(name string) (Agent, bool) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Detect reports whether the project at root shows signs of the agent:
// its configuration directory or instruction file.
func (a Agent) Detect(root string) bool {
	for _, m := range a.Markers {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(m))); err == nil {
			return true
		}
	}
	return false
}

// Command is the hook command line for one event: the absolute path of
// the prosewash that installed it, else prosewash from PATH, else nothing
// (a missing binary must not break a session).
func (a Agent) Command(bin, event string) string {
	return fmt.Sprintf(`p=%s; [ -x "$p" ] || p=$(command -v prosewash) || exit 0; "$p" hook %s %s`, shQuote(bin), a.Name, event)
}

// ours matches this platform's prosewash hook commands, in any form install
// wrote or a user copied; compiled on use, not at init.
func (a Agent) ours(cmd string) bool {
	return regexp.MustCompile(`prosewash.* hook ` + a.Name + ` [a-z-]+\b`).MatchString(cmd)
}

func codexSpec(bin string) hookSpec {
	a, _ := LookupAgent("codex")
	return hookSpec{grouped: true, ours: a.ours,
		defs: []hookDef{
			{"SessionStart", "startup|resume|clear", "session-start", 30},
			{"UserPromptSubmit", "", "user-prompt-submit", 30},
			// The memory lane's write guard, before the same tools write.
			{"PreToolUse", "apply_patch|Bash", "pre-tool-use", 30},
			// apply_patch (Codex also matches it as Edit and Write) and the
			// shell, whose redirect targets are recorded.
			{"PostToolUse", "apply_patch|Bash", "post-tool-use", 30},
			// Stop may run validation commands: Codex's own maximum.
			{"Stop", "", "stop", 600},
		},
		handler: func(d hookDef) any {
			return handler{Type: "command", Command: a.Command(bin, d.arg), Timeout: d.timeout}
		}}
}

func geminiSpec(bin string) hookSpec {
	a, _ := LookupAgent("gemini")
	type ghandler struct {
		Type    string `json:"type"`
		Name    string `json:"name"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	return hookSpec{grouped: true, ours: a.ours,
		// Timeouts in milliseconds; the tool matcher is a regex on Gemini's
		// own tool names (Claude's names do not alias there).
		defs: []hookDef{
			{"SessionStart", "", "session-start", 30000},
			{"BeforeAgent", "", "before-agent", 30000},
			{"BeforeTool", "^(write_file|replace)$", "before-tool", 30000},
			{"AfterTool", "^(write_file|replace)$", "after-tool", 30000},
			{"AfterAgent", "", "after-agent", 600000},
		},
		handler: func(d hookDef) any {
			return ghandler{Type: "command", Name: "prosewash-" + d.arg, Command: a.Command(bin, d.arg), Timeout: d.timeout}
		}}
}

func cursorSpec(bin string) hookSpec {
	a, _ := LookupAgent("cursor")
	type chandler struct {
		Command   string `json:"command"`
		Timeout   int    `json:"timeout,omitempty"`
		LoopLimit int    `json:"loop_limit,omitempty"`
	}
	return hookSpec{ours: a.ours,
		defs: []hookDef{
			{"sessionStart", "", "session-start", 30},
			{"afterFileEdit", "", "after-file-edit", 30},
			{"stop", "", "stop", 600},
		},
		handler: func(d hookDef) any {
			h := chandler{Command: a.Command(bin, d.arg), Timeout: d.timeout}
			if d.event == "stop" {
				h.LoopLimit = 1 // one follow-up at most: prosewash asks once
			}
			return h
		}}
}

func copilotSpec(bin string) hookSpec {
	a, _ := LookupAgent("copilot")
	type phandler struct {
		Type       string `json:"type"`
		Matcher    string `json:"matcher,omitempty"`
		Bash       string `json:"bash"`
		TimeoutSec int    `json:"timeoutSec"`
	}
	return hookSpec{ours: a.ours,
		defs: []hookDef{
			{"sessionStart", "", "session-start", 30},
			{"postToolUse", "create|edit|str_replace_editor|apply_patch|bash", "post-tool-use", 30},
			{"agentStop", "", "agent-stop", 600},
		},
		handler: func(d hookDef) any {
			return phandler{Type: "command", Matcher: d.matcher, Bash: a.Command(bin, d.arg), TimeoutSec: d.timeout}
		}}
}

// backup is what uninstall needs to put the user's bytes back exactly:
// the file as it was before prosewash first wrote it and the hash of what
// prosewash wrote last. It lives in the project's private state dir.
type backup struct {
	Path     string   `json:"path"`
	Existed  bool     `json:"existed"`
	Original []byte   `json:"original,omitempty"`
	Exact    bool     `json:"exact"` // Original holds nothing of ours: restore it as is
	Written  string   `json:"written_sha256"`
	Dirs     []string `json:"created_dirs,omitempty"`
}

func backupPath(stateDir, path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(stateDir, "install", hex.EncodeToString(sum[:12])+".json")
}

func loadBackup(stateDir, path string) *backup {
	b, err := os.ReadFile(backupPath(stateDir, path))
	if err != nil {
		return nil
	}
	var k backup
	if json.Unmarshal(b, &k) != nil || k.Path != path {
		return nil
	}
	return &k
}

func saveBackup(stateDir string, k *backup) error {
	p := backupPath(stateDir, k.Path)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(k)
	if err != nil {
		return err
	}
	return writePrivate(p, b)
}

func writePrivate(path string, data []byte) error {
	if err := writeFile(path, data, 0o600); err != nil {
		return err
	}
	return os.Chmod(path, 0o600)
}

func shaHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// merged is the file's new content for an install (add) or an uninstall.
func (a Agent) merged(cur []byte, existed bool, bin string, add bool) (object, error) {
	var settings object
	var err error
	if existed && len(bytes.TrimSpace(cur)) > 0 {
		if settings, err = parseObject(cur); err != nil {
			return nil, err
		}
	} else if add {
		if settings, err = parseObject([]byte(a.base)); err != nil {
			return nil, err
		}
	}
	return mergeSpec(settings, a.spec(bin), add)
}

// holdsOurs reports whether a configuration holds any prosewash hook.
func (a Agent) holdsOurs(cur []byte) bool {
	o, err := parseObject(cur)
	if err != nil {
		return false
	}
	before := o.marshal() // mergeSpec edits o in place
	stripped, err := mergeSpec(o, a.spec(""), false)
	return err == nil && !sameJSON(before, stripped.marshal())
}

// Install merges prosewash's hooks into the agent's project
// configuration, keeping every other key and hook in its place. Running
// it again changes nothing; entries of an older prosewash path are
// replaced. stateDir keeps what uninstall needs to restore the file byte
// for byte.
func (a Agent) Install(root, stateDir, bin string) (Action, error) {
	path := filepath.Join(root, filepath.FromSlash(a.File))
	cur, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	merged, err := a.merged(cur, existed, bin, true)
	if err != nil {
		return "", fmt.Errorf("%s: %v; not touched", path, err)
	}
	data, err := render(merged)
	if err != nil {
		return "", err
	}
	if existed && sameJSON(cur, data) {
		return Unchanged, nil
	}
	k := loadBackup(stateDir, path)
	if k == nil || !existed || shaHex(cur) != k.Written {
		// The file as the user has it now is what uninstall restores.
		k = &backup{Path: path, Existed: existed, Original: cur, Exact: !existed || !a.holdsOurs(cur)}
	}
	dirs, err := mkdirs(root, filepath.Dir(path))
	if err != nil {
		return "", err
	}
	k.Dirs = append(k.Dirs, dirs...)
	k.Written = shaHex(data)
	if err := saveBackup(stateDir, k); err != nil {
		return "", fmt.Errorf("keep the original of %s: %w", path, err)
	}
	if err := writeFile(path, data, 0o644); err != nil {
		return "", err
	}
	if existed {
		return Updated, nil
	}
	return Installed, nil
}

// mkdirs creates dir and returns the directories it created, deepest
// first, all inside root.
func mkdirs(root, dir string) ([]string, error) {
	var created []string
	for d := dir; d != root && strings.HasPrefix(d, root+string(filepath.Separator)); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		created = append(created, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return created, nil
}

// Uninstall takes prosewash's hooks out of the agent's configuration. When
// the file is still exactly what install wrote, the user's original bytes
// come back (or the file and the directories install created go); when it
// was edited since, only prosewash's entries are removed and the rest is
// kept.
func (a Agent) Uninstall(root, stateDir string) (Action, error) {
	path := filepath.Join(root, filepath.FromSlash(a.File))
	k := loadBackup(stateDir, path)
	cur, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if k != nil {
			os.Remove(backupPath(stateDir, path))
		}
		return Absent, nil
	}
	if err != nil {
		return "", err
	}
	if !a.holdsOurs(cur) {
		if _, perr := parseObject(cur); perr != nil && len(bytes.TrimSpace(cur)) > 0 {
			return "", fmt.Errorf("%s: %v; not touched", path, perr)
		}
		return Absent, nil
	}
	if k != nil && shaHex(cur) == k.Written && (k.Exact || !k.Existed) {
		if !k.Existed {
			if err := os.Remove(path); err != nil {
				return "", err
			}
			for _, d := range k.Dirs {
				_ = os.Remove(d) // only while empty
			}
		} else if err := writeFile(path, k.Original, 0o644); err != nil {
			return "", err
		}
		os.Remove(backupPath(stateDir, path))
		return Removed, nil
	}
	merged, err := a.merged(cur, true, "", false)
	if err != nil {
		return "", fmt.Errorf("%s: %v; not touched", path, err)
	}
	base, _ := parseObject([]byte(a.base))
	if len(merged) == 0 || sameJSON(merged.marshal(), base.marshal()) {
		if err := os.Remove(path); err != nil {
			return "", err
		}
	} else {
		data, err := render(merged)
		if err != nil {
			return "", err
		}
		if err := writeFile(path, data, 0o644); err != nil {
			return "", err
		}
	}
	if k != nil {
		os.Remove(backupPath(stateDir, path))
	}
	return Removed, nil
}
