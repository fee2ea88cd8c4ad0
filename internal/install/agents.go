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

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Agent is one agent platform's project hook configuration, as install
// writes it: the dispatcher's description of the platform (its events,
// file and handler layout) is the one source.
type Agent struct{ agent.Platform }

// Agents lists the platforms, in the order install offers them.
func Agents() []Agent {
	var out []Agent
	for _, p := range agent.Platforms() {
		out = append(out, Agent{p})
	}
	return out
}

// LookupAgent returns the platform named name.
func LookupAgent(name string) (Agent, bool) {
	p, ok := agent.Lookup(name)
	return Agent{p}, ok
}

// File is the configuration install writes, relative to the root.
func (a Agent) File() string { return a.Config.File }

// Detect reports whether the project at root shows signs of the agent:
// its configuration directory or instruction file.
func (a Agent) Detect(root string) bool {
	for _, m := range a.Config.Markers {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(m))); err == nil {
			return true
		}
	}
	return false
}

// Command is the command line a committed configuration runs for one of
// the platform's events: prosewash as found on PATH, so the file is byte
// for byte the same whoever installs it and runs on every machine that
// has prosewash. Without prosewash on PATH the hook says so in one line on
// standard error, answers what the platform takes for no opinion and
// exits 0: a missing binary never breaks a session.
func (a Agent) Command(event string) string {
	answer := ""
	if a.NoOpinion != "" {
		answer = " echo " + shQuote(a.NoOpinion) + ";"
	}
	return fmt.Sprintf(`command -v prosewash >/dev/null 2>&1 || { echo 'prosewash: not found on PATH; %s %s hook skipped' >&2;%s exit 0; }; exec prosewash hook %s %s`,
		a.Name, event, answer, a.Name, event)
}

// ours matches this platform's prosewash hook commands, in any form install
// wrote (an absolute path before, PATH now) or a user copied; compiled on
// use, not at init, which every hook process would pay for.
func (a Agent) ours(cmd string) bool {
	return regexp.MustCompile(`prosewash.* hook ` + regexp.QuoteMeta(a.Name) + ` (` + strings.Join(a.Args(), "|") + `)\b`).MatchString(cmd)
}

// spec is the platform's configuration layout with prosewash's entries.
func (a Agent) spec() hookSpec {
	var defs []hookDef
	for _, ev := range a.Events {
		for _, h := range ev.Hooks {
			defs = append(defs, hookDef{ev: ev, h: h})
		}
	}
	return hookSpec{defs: defs, grouped: a.Config.Grouped, ours: a.ours,
		handler: func(d hookDef) any { return a.Config.Handler(d.ev, d.h, a.Command(d.ev.Arg)) }}
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
	// Through ReadRegular like every other input: a FIFO or a device put in
	// the state directory must not hang install, and the record holds at most
	// one config file (base64 in JSON: 4/3 of it) and some names.
	b, err := fsx.ReadRegular(backupPath(stateDir, path), 2*maxConfig, false)
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

// maxConfig bounds a configuration file install reads.
const maxConfig = 16 << 20

// readConfig reads a configuration file without blocking and only when it
// is a regular file (a FIFO or device there is refused, never opened for
// a read that would wait); a missing file is not an error.
func readConfig(path string) (data []byte, existed bool, err error) {
	data, err = fsx.ReadRegular(path, maxConfig, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// merged is the file's new content for an install (add) or an uninstall.
func (a Agent) merged(cur []byte, existed bool, add bool) (object, error) {
	var settings object
	var err error
	if existed && len(bytes.TrimSpace(bytes.TrimPrefix(cur, []byte(bom)))) > 0 {
		if settings, err = parseObject(cur); err != nil {
			return nil, err
		}
	} else if add {
		if settings, err = parseObject([]byte(a.Config.Base)); err != nil {
			return nil, err
		}
	}
	return mergeSpec(settings, a.spec(), add)
}

// holdsOurs reports whether a configuration holds any prosewash hook, or
// is prosewash's plugin.
func (a Agent) holdsOurs(cur []byte) bool {
	if a.Config.Plugin != "" {
		return a.pluginOurs(cur)
	}
	o, err := parseObject(cur)
	if err != nil {
		return false
	}
	before := o.marshal() // mergeSpec edits o in place
	stripped, err := mergeSpec(o, a.spec(), false)
	return err == nil && !sameJSON(before, stripped.marshal())
}

// Change is one configuration file's install or uninstall, read and
// checked before anything is written: a caller that plans every change
// first writes nothing when any input is unreadable or malformed.
type Change struct {
	a              Agent
	root, stateDir string
	path           string
	cur            []byte
	existed        bool
	// What Apply does: Action, and for Installed, Updated or Removed the
	// new content (nil: remove the file).
	Action Action
	data   []byte
	k      *backup // install: the backup to keep; uninstall: the one to drop
	exact  bool    // uninstall: the user's bytes come back from k
}

// PlanInstall reads the agent's project configuration and computes
// prosewash's hooks merged into it, keeping every other key and hook in
// its place; entries an older prosewash wrote are replaced. Nothing is
// written: [Change.Apply] does, keeping in stateDir what uninstall needs to
// restore the file byte for byte; planning again after that is Unchanged.
func (a Agent) PlanInstall(root, stateDir string) (*Change, error) {
	c := &Change{a: a, root: root, stateDir: stateDir, path: filepath.Join(root, filepath.FromSlash(a.File()))}
	var err error
	if c.cur, c.existed, err = readConfig(c.path); err != nil {
		return nil, err
	}
	if a.Config.Plugin != "" {
		return c, c.planPlugin()
	}
	merged, err := a.merged(c.cur, c.existed, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %v; not touched", c.path, err)
	}
	if c.data, err = render(merged, bytes.HasPrefix(c.cur, []byte(bom))); err != nil {
		return nil, err
	}
	switch {
	case c.existed && sameJSON(c.cur, c.data):
		c.Action = Unchanged
	case c.existed:
		c.Action = Updated
	default:
		c.Action = Installed
	}
	return c, nil
}

// PlanUninstall reads the agent's project configuration and computes what
// taking prosewash's hooks out leaves: the user's original bytes when the
// file is still exactly what install wrote (or no file, when install
// created it), else the file with only prosewash's entries removed.
// Nothing is written.
func (a Agent) PlanUninstall(root, stateDir string) (*Change, error) {
	c := &Change{a: a, root: root, stateDir: stateDir, path: filepath.Join(root, filepath.FromSlash(a.File()))}
	c.k = loadBackup(stateDir, c.path)
	var err error
	if c.cur, c.existed, err = readConfig(c.path); err != nil {
		return nil, err
	}
	if !c.existed || (a.Config.Plugin != "" && !a.pluginOurs(c.cur)) {
		// A plugin file that is not ours is the user's: left alone.
		c.Action = Absent
		return c, nil
	}
	if a.Config.Plugin != "" {
		// Ours whole: the file goes, and the directories install made
		// with it when it is still what install wrote.
		c.Action = Removed
		c.exact = c.k != nil && shaHex(c.cur) == c.k.Written && !c.k.Existed
		return c, nil
	}
	if !a.holdsOurs(c.cur) {
		if _, perr := parseObject(c.cur); perr != nil && len(bytes.TrimSpace(bytes.TrimPrefix(c.cur, []byte(bom)))) > 0 {
			return nil, fmt.Errorf("%s: %v; not touched", c.path, perr)
		}
		c.Action = Absent
		return c, nil
	}
	c.Action = Removed
	if k := c.k; k != nil && shaHex(c.cur) == k.Written && (k.Exact || !k.Existed) {
		c.exact = true
		return c, nil
	}
	merged, err := a.merged(c.cur, true, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %v; not touched", c.path, err)
	}
	base, _ := parseObject([]byte(a.Config.Base))
	if len(merged) > 0 && !sameJSON(merged.marshal(), base.marshal()) {
		if c.data, err = render(merged, bytes.HasPrefix(c.cur, []byte(bom))); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// planPlugin plans writing the platform's plugin file: prosewash's own, so
// an older version of it is replaced whole and a file of that name that is
// not prosewash's is refused.
func (c *Change) planPlugin() error {
	c.data = []byte(c.a.Config.Plugin)
	switch {
	case !c.existed:
		c.Action = Installed
	case bytes.Equal(c.cur, c.data):
		c.Action = Unchanged
	case c.a.pluginOurs(c.cur):
		c.Action = Updated
	default:
		return fmt.Errorf("%s: not prosewash's plugin; not touched", c.path)
	}
	return nil
}

// pluginOurs reports whether a plugin file is prosewash's: it runs
// 'prosewash hook NAME'.
func (a Agent) pluginOurs(cur []byte) bool {
	return bytes.Contains(cur, []byte(`spawn("prosewash", ["hook", "`+a.Name+`"`))
}

// Apply writes what the change computed. An install keeps the original
// first, so uninstall can put the user's bytes back.
func (c *Change) Apply() (Action, error) {
	switch c.Action {
	case Unchanged:
		return Unchanged, nil
	case Absent:
		if c.k != nil {
			os.Remove(backupPath(c.stateDir, c.path))
		}
		return Absent, nil
	case Removed:
		return Removed, c.remove()
	}
	k := loadBackup(c.stateDir, c.path)
	if k == nil || !c.existed || shaHex(c.cur) != k.Written {
		// The file as the user has it now is what uninstall restores.
		k = &backup{Path: c.path, Existed: c.existed, Original: c.cur, Exact: !c.existed || !c.a.holdsOurs(c.cur)}
	}
	dirs, err := mkdirs(c.root, filepath.Dir(c.path))
	if err != nil {
		return "", err
	}
	k.Dirs = append(k.Dirs, dirs...)
	k.Written = shaHex(c.data)
	if err := saveBackup(c.stateDir, k); err != nil {
		return "", fmt.Errorf("keep the original of %s: %w", c.path, err)
	}
	if err := writeFile(c.path, c.data, 0o644); err != nil {
		return "", err
	}
	return c.Action, nil
}

// remove is an uninstall's write: the user's bytes back, the file and the
// directories install created gone, or the file without our entries.
func (c *Change) remove() error {
	var err error
	switch {
	case c.exact && c.k.Existed:
		err = writeFile(c.path, c.k.Original, 0o644)
	case c.data != nil:
		err = writeFile(c.path, c.data, 0o644)
	default:
		err = os.Remove(c.path)
		if err == nil && c.exact {
			for _, d := range c.k.Dirs {
				_ = os.Remove(d) // only while empty
			}
		}
	}
	if err != nil {
		return err
	}
	if c.k != nil {
		os.Remove(backupPath(c.stateDir, c.path))
	}
	return nil
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
