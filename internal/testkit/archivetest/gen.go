// Package archivetest generates Claude Code transcript stores for the archive's tests and benchmark: sessions of every shape the store holds, old and live.
package archivetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Options shape a generated store.
type Options struct {
	Sessions int
	// Bytes is the store's approximate total; each session draws a size around Bytes/Sessions
	// (a few sessions many times larger, as real stores have).
	Bytes int64
	Seed  int64
	Now   time.Time
	// MaxAgeDays spreads the sessions' last writes over this many days.
	MaxAgeDays int
	// LiveFiles sessions get a live ~/.claude/sessions/<pid>.json naming them (this process's
	// pid and start time); Recent sessions are written within the last minutes.
	LiveFiles, Recent int
	// ProcStart is what the live session files record as procStart ("" when unknown).
	ProcStart string
}

// Store is what Generate made.
type Store struct {
	ConfigDir string
	Dir       string // <config>/projects/<slug>
	Project   string
	Sessions  []Session
	Bytes     int64
	Files     int
}

// Session is one generated session.
type Session struct {
	ID          string
	Newest      time.Time
	Live        bool // named by a live session file
	Recent      bool // written within the live window
	Subagents   int
	ToolResults int
	Workflows   int
	Flat        int  // old-style flat agent-*.jsonl siblings
	Unknown     bool // has an entry under its directory that is not part of the unit
}

// Generate writes a transcript store for project under configDir: session transcripts with
// user, assistant, tool-use and tool-result lines, subagent transcripts with their meta files,
// spilled tool results, workflow files, flat agent transcripts of older CLIs, the auto memory
// directory, a .session-aliases file, live session files and recent sessions.
func Generate(configDir, project string, o Options) (Store, error) {
	slug := make([]byte, len(project))
	for i := range len(project) {
		c := project[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			c = '-'
		}
		slug[i] = c
	}
	st := Store{ConfigDir: configDir, Project: project, Dir: filepath.Join(configDir, "projects", string(slug))}
	r := rand.New(rand.NewSource(o.Seed))
	if o.MaxAgeDays <= 0 {
		o.MaxAgeDays = 200
	}
	if err := os.MkdirAll(filepath.Join(st.Dir, "memory"), 0o700); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(st.Dir, "memory", "MEMORY.md"), []byte("- [Build](build.md): how to build\n"), 0o600); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(st.Dir, ".session-aliases"), []byte("{}\n"), 0o600); err != nil {
		return st, err
	}
	// A session's transcript averages 1.35 times the base size (one in twenty is eight times
	// larger), its subagents add 0.23, spilled tool results 0.17 and flat agent files 0.02:
	// 1.76 in all, so the store comes out at about Bytes.
	per := int64(float64(o.Bytes) / float64(max(1, o.Sessions)) / 1.76)
	for i := range o.Sessions {
		id := uuid(r)
		s := Session{ID: id}
		age := time.Duration(r.Float64()*float64(o.MaxAgeDays)*24) * time.Hour
		switch {
		case i < o.Recent:
			s.Recent, age = true, time.Duration(r.Intn(20))*time.Minute
		case i < o.Recent+o.LiveFiles:
			s.Live = true
		}
		s.Newest = o.Now.Add(-age).Truncate(time.Microsecond)
		size := per / 2
		if r.Intn(20) == 0 {
			size = per * 8
		} else {
			size += r.Int63n(per + 1)
		}
		if err := writeTranscript(filepath.Join(st.Dir, id+".jsonl"), id, project, size, r, &st); err != nil {
			return st, err
		}
		if r.Intn(3) == 0 {
			s.Subagents = 1 + r.Intn(3)
			for k := range s.Subagents {
				aid := fmt.Sprintf("a%016x", r.Uint64())
				p := filepath.Join(st.Dir, id, "subagents", "agent-"+aid+".jsonl")
				if err := writeTranscript(p, id, project, size/4, r, &st); err != nil {
					return st, err
				}
				meta, _ := json.Marshal(map[string]any{"agentType": "general-purpose", "description": fmt.Sprintf("task %d", k)})
				if err := writeFile(filepath.Join(st.Dir, id, "subagents", "agent-"+aid+".meta.json"), meta, &st); err != nil {
					return st, err
				}
			}
		}
		if r.Intn(4) == 0 {
			s.ToolResults = 1 + r.Intn(2)
			for k := range s.ToolResults {
				p := filepath.Join(st.Dir, id, "tool-results", fmt.Sprintf("toolu_%d_%x.txt", k, r.Uint32()))
				if err := writeLog(p, size/3, r, &st); err != nil {
					return st, err
				}
			}
		}
		if r.Intn(10) == 0 {
			s.Workflows = 1
			if err := writeFile(filepath.Join(st.Dir, id, "workflows", "wf_1.json"), []byte(`{"steps":[]}`+"\n"), &st); err != nil {
				return st, err
			}
		}
		if r.Intn(15) == 0 {
			s.Flat = 1
			p := filepath.Join(st.Dir, "agent-"+uuid(r)+".jsonl")
			if err := writeTranscript(p, id, project, size/5, r, &st); err != nil {
				return st, err
			}
		}
		if r.Intn(25) == 0 {
			s.Unknown = true
			if err := writeFile(filepath.Join(st.Dir, id, "notes-by-a-user.txt"), []byte("keep me\n"), &st); err != nil {
				return st, err
			}
		}
		if err := touchTree(st.Dir, id, s.Newest); err != nil {
			return st, err
		}
		if s.Live {
			pid := os.Getpid()
			b, _ := json.Marshal(map[string]any{"pid": pid, "sessionId": id, "cwd": project, "startedAt": o.Now.UnixMilli(),
				"procStart": o.ProcStart, "version": "2.1.197", "kind": "interactive"})
			if err := os.MkdirAll(filepath.Join(configDir, "sessions"), 0o700); err != nil {
				return st, err
			}
			if err := os.WriteFile(filepath.Join(configDir, "sessions", strconv.Itoa(pid+i)+".json"), b, 0o600); err != nil {
				return st, err
			}
		}
		st.Sessions = append(st.Sessions, s)
	}
	return st, nil
}

func uuid(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", r.Uint32(), r.Intn(1<<16), r.Intn(1<<12), 0x8000|r.Intn(1<<14), r.Int63n(1<<48))
}

func writeFile(p string, b []byte, st *Store) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	st.Bytes += int64(len(b))
	st.Files++
	return os.WriteFile(p, b, 0o600)
}

// wordList is the vocabulary of generated text.
const wordList = "the build fails on go test because cache module version function returns error file line fixed update config server request latency retry timeout merge branch"

func word(r *rand.Rand) string {
	n := r.Intn(25)
	s := wordList
	for range n {
		s = s[strings.IndexByte(s, ' ')+1:]
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

func sentence(r *rand.Rand, n int) string {
	b := make([]byte, 0, n*7)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, word(r)...)
	}
	return string(b)
}

// writeTranscript writes JSONL lines shaped like Claude Code's until about size bytes.
func writeTranscript(p, session, cwd string, size int64, r *rand.Rand, st *Store) error {
	parent := ""
	return writeLines(p, size, st, func(i int) []byte {
		id := uuid(r)
		var msg any
		switch i % 4 {
		case 0:
			msg = map[string]any{"role": "user", "content": sentence(r, 8+r.Intn(30))}
		case 1:
			msg = map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": sentence(r, 20+r.Intn(80))},
				map[string]any{"type": "tool_use", "id": "toolu_" + id[:8], "name": "Bash", "input": map[string]any{"command": "go test ./..."}}}}
		case 2:
			msg = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_" + id[:8],
				"content": sentence(r, 40+r.Intn(200))}}}
		default:
			msg = map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": sentence(r, 10+r.Intn(40))}}}
		}
		line, _ := json.Marshal(map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": cwd,
			"sessionId": session, "version": "2.1.197", "type": []string{"user", "assistant"}[i%2], "message": msg, "uuid": id,
			"timestamp": time.Unix(1_800_000_000+int64(i), 0).UTC().Format(time.RFC3339Nano)})
		parent = id
		return append(line, '\n')
	})
}

// writeLog writes a spilled tool output: plain text lines.
func writeLog(p string, size int64, r *rand.Rand, st *Store) error {
	return writeLines(p, size, st, func(i int) []byte {
		return fmt.Appendf(nil, "=== RUN   Test%s%d\n--- PASS: Test%s%d (0.%02ds) %s\n", word(r), i, word(r), i, r.Intn(100), sentence(r, 6))
	})
}

// writeLines writes the lines line makes (at least one) until about size bytes.
func writeLines(p string, size int64, st *Store, line func(i int) []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var n int64
	for i := 0; n < size || i == 0; i++ {
		k, err := w.Write(line(i))
		if err != nil {
			f.Close()
			return err
		}
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	st.Bytes += n
	st.Files++
	return f.Close()
}

// touchTree sets the modification time of a session's files (its transcript, directory
// and flat agent files) to t, so its age is what the generator chose.
func touchTree(dir, id string, t time.Time) error {
	if err := os.Chtimes(filepath.Join(dir, id+".jsonl"), t, t); err != nil {
		return err
	}
	_ = filepath.Walk(filepath.Join(dir, id), func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			_ = os.Chtimes(p, t, t)
		}
		return nil
	})
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if len(e.Name()) > 6 && e.Name()[:6] == "agent-" {
			p := filepath.Join(dir, e.Name())
			if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) < time.Minute {
				_ = os.Chtimes(p, t, t)
			}
		}
	}
	return nil
}
