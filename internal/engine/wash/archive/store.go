package archive

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// unitDir reports the subdirectories of <store>/<id>/ that belong to the session.
func unitDir(name string) bool {
	return name == "subagents" || name == "tool-results" || name == "workflows"
}

// Bands of a session unit.
const (
	Live     = "live"     // evidence that a session uses it: never touched
	Recent   = "recent"   // younger than the archive age
	Eligible = "eligible" // archived by a run
	Refused  = "refused"  // cannot be archived safely (placeholder, symlink, unreadable)
)

// File is one file of a session unit.
type File struct {
	Rel   string      `json:"rel"` // relative to the store, slash-separated
	Size  int64       `json:"size"`
	MTime time.Time   `json:"mtime"`
	Mode  fs.FileMode `json:"mode"`
}

// Unit is one session's files in the store.
type Unit struct {
	ID     string    `json:"id"`
	Files  []File    `json:"files"`
	Bytes  int64     `json:"bytes"`
	Newest time.Time `json:"newest"`
	Band   string    `json:"band"`
	Why    string    `json:"why,omitempty"`
	// Unknown are entries under the session's directory that are not part of a unit: left in
	// place, and the directory with them.
	Unknown []string `json:"unknown,omitempty"`
	// Subagents counts subagent transcripts, ToolResults spilled tool outputs.
	Subagents   int `json:"subagents,omitempty"`
	ToolResults int `json:"tool_results,omitempty"`
}

// Options say where the store and the archive are and what counts as live.
type Options struct {
	// ConfigDir is Claude Code's config dir (~/.claude or $CLAUDE_CONFIG_DIR): its sessions/
	// holds the live session files.
	ConfigDir string
	// Store is the project's transcript directory, <ConfigDir>/projects/<slug>.
	Store string
	// Archive is where this project's archives go (one directory per archived session).
	Archive string
	// Root and StateDir are the project's, for the transaction and its journal.
	Root     string
	StateDir string
	// After is the age (newest file of a unit) from which a unit is archived.
	After time.Duration
	// LiveWindow: a unit with a file written more recently is live (default 60 minutes).
	LiveWindow time.Duration
	// Current are session ids known to be running (the session asking, if any).
	Current []string
	Now     func() time.Time `json:"-"`
	// Getenv arms failpoints (internal/engine/txn); nil disables them.
	Getenv func(string) string `json:"-"`
	// Alive reports whether a live-session file's process runs; nil means the real check.
	Alive func(pid int, procStart string) (bool, error) `json:"-"`
	// Version is written into manifests.
	Version string
}

func (o *Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

func (o *Options) liveWindow() time.Duration {
	if o.LiveWindow <= 0 {
		return time.Hour
	}
	return o.LiveWindow
}

// validID accepts a session id usable as a file name: letters, digits, '-' and '_'.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// LiveSessions reads <ConfigDir>/sessions/*.json and returns the ids of the sessions whose
// process is alive. A file that cannot be read or understood is an error: it could name any
// session, so the caller must treat doubt as live.
func LiveSessions(o Options) (map[string]int, error) {
	dir := filepath.Join(o.ConfigDir, "sessions")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("live sessions: %w", err)
	}
	alive := o.Alive
	if alive == nil {
		alive = processAlive
	}
	out := map[string]int{}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := fsx.ReadRegular(p, 0, true)
		if err != nil {
			return nil, fmt.Errorf("live sessions: %w", err)
		}
		var s struct {
			PID       int    `json:"pid"`
			SessionID string `json:"sessionId"`
			ProcStart string `json:"procStart"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.PID <= 0 || s.SessionID == "" {
			return nil, fmt.Errorf("live sessions: %s is not a session file Claude Code writes; cannot tell which sessions are live", p)
		}
		ok, err := alive(s.PID, s.ProcStart)
		if err != nil {
			return nil, fmt.Errorf("live sessions: %s: %w", p, err)
		}
		if ok {
			out[s.SessionID] = s.PID
		}
	}
	return out, nil
}

// List reads the store's session units and bands each one, without reading any content but
// the first line of flat agent files.
func List(o Options) ([]Unit, error) {
	ents, err := os.ReadDir(o.Store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", o.Store, err)
	}
	live, lerr := LiveSessions(o)
	units := map[string]*Unit{}
	var ids []string
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !validID(id) || strings.HasPrefix(id, "agent-") {
			continue
		}
		fi, err := os.Lstat(filepath.Join(o.Store, e.Name()))
		if err != nil {
			continue
		}
		u := &Unit{ID: id}
		units[id] = u
		ids = append(ids, id)
		u.add(o, e.Name(), fi)
	}
	// Flat agent transcripts of older CLIs join the unit they name.
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "agent-") || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		p := filepath.Join(o.Store, e.Name())
		sid := firstSessionID(p)
		if u, ok := units[sid]; ok {
			if fi, err := os.Lstat(p); err == nil {
				u.add(o, e.Name(), fi)
				u.Subagents++
			}
		}
	}
	for _, id := range ids {
		u := units[id]
		u.walkDir(o)
	}
	now := o.now()
	cur := map[string]bool{}
	for _, c := range o.Current {
		cur[c] = true
	}
	var out []Unit
	sort.Strings(ids)
	for _, id := range ids {
		u := units[id]
		switch {
		case u.Band == Refused:
		case cur[id]:
			u.Band, u.Why = Live, "the current session"
		case lerr != nil:
			u.Band, u.Why = Live, "live sessions unknown: "+lerr.Error()
		case live[id] > 0:
			u.Band, u.Why = Live, fmt.Sprintf("named by a live session (pid %d)", live[id])
		case now.Sub(u.Newest) < o.liveWindow():
			u.Band, u.Why = Live, fmt.Sprintf("written %s ago", now.Sub(u.Newest).Round(time.Second))
		case u.Newest.After(now):
			u.Band, u.Why = Live, "written in the future: clock in doubt"
		case now.Sub(u.Newest) < o.After:
			u.Band, u.Why = Recent, fmt.Sprintf("last written %d days ago", int(now.Sub(u.Newest).Hours()/24))
		default:
			u.Band = Eligible
		}
		out = append(out, *u)
	}
	return out, nil
}

// add puts one file in the unit, refusing the unit for a file that cannot be archived safely.
func (u *Unit) add(o Options, rel string, fi fs.FileInfo) {
	p := filepath.Join(o.Store, filepath.FromSlash(rel))
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		u.refuse(rel + " is a symbolic link")
		return
	case !fi.Mode().IsRegular():
		u.refuse(rel + " is not a regular file")
		return
	case fsx.IsPlaceholder(fi):
		u.refuse(rel + " is a cloud placeholder (its data is not on this disk)")
		return
	}
	if _, err := fsx.Stat(p); err != nil {
		u.refuse(err.Error())
		return
	}
	u.Files = append(u.Files, File{Rel: filepath.ToSlash(rel), Size: fi.Size(), MTime: fi.ModTime(), Mode: fi.Mode().Perm()})
	u.Bytes += fi.Size()
	if fi.ModTime().After(u.Newest) {
		u.Newest = fi.ModTime()
	}
}

func (u *Unit) refuse(why string) {
	if u.Band != Refused {
		u.Band, u.Why = Refused, why
	}
}

// walkDir adds the files of the session directory's unit subdirectories; other entries are
// unknown and stay.
func (u *Unit) walkDir(o Options) {
	dir := filepath.Join(o.Store, u.ID)
	ents, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			u.refuse(fmt.Sprintf("%s: %v", u.ID, err))
		}
		return
	}
	for _, e := range ents {
		if !unitDir(e.Name()) || !e.IsDir() {
			u.Unknown = append(u.Unknown, u.ID+"/"+e.Name())
			continue
		}
		base := filepath.Join(dir, e.Name())
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				u.refuse(err.Error())
				return filepath.SkipAll
			}
			if d.IsDir() {
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				u.refuse(err.Error())
				return filepath.SkipAll
			}
			rel, _ := filepath.Rel(o.Store, p)
			u.add(o, rel, fi)
			switch e.Name() {
			case "subagents":
				if strings.HasSuffix(p, ".jsonl") {
					u.Subagents++
				}
			case "tool-results":
				u.ToolResults++
			}
			return nil
		})
		if err != nil {
			u.refuse(err.Error())
		}
	}
}

// firstSessionID reads the sessionId of a transcript's first line ("" when there is none).
func firstSessionID(p string) string {
	f, _, err := fsx.OpenRegular(p, false)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	line, err := r.ReadSlice('\n')
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) && len(line) == 0 {
		return ""
	}
	var v struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
	return v.SessionID
}

// procStartTime reads a process's start time (clock ticks since boot, field 22 of
// /proc/<pid>/stat), what Claude Code records as procStart.
func procStartTime(pid int) (string, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", errors.New("unreadable /proc stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return "", errors.New("unreadable /proc stat")
	}
	return f[19], nil // fields after the name start at field 3
}
