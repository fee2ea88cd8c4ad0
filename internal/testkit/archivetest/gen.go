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
	g := &generator{
		st:        Store{ConfigDir: configDir, Project: project, Dir: filepath.Join(configDir, "projects", projectSlug(project))},
		r:         rand.New(rand.NewSource(o.Seed)),
		o:         o,
		configDir: configDir,
	}
	if g.o.MaxAgeDays <= 0 {
		g.o.MaxAgeDays = 200
	}
	if err := writeProjectFiles(g.st.Dir); err != nil {
		return g.st, err
	}
	// A session's transcript averages 1.35 times the base size (one in twenty is eight times
	// larger), its subagents add 0.23, spilled tool results 0.17 and flat agent files 0.02:
	// 1.76 in all, so the store comes out at about Bytes.
	g.per = int64(float64(o.Bytes) / float64(max(1, o.Sessions)) / 1.76)
	for i := range o.Sessions {
		s, err := g.session(i)
		if err != nil {
			return g.st, err
		}
		g.st.Sessions = append(g.st.Sessions, s)
	}
	return g.st, nil
}

// generator is one Generate call: the store so far and the one random
// stream every choice draws from, in a fixed order, so a seed makes one
// store.
type generator struct {
	st        Store
	r         *rand.Rand
	o         Options
	configDir string
	per       int64 // a session's base size
}

// projectSlug is the directory name Claude Code gives a project: every
// byte but ASCII letters and digits becomes '-'.
func projectSlug(project string) string {
	slug := make([]byte, len(project))
	for i := range len(project) {
		c := project[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			c = '-'
		}
		slug[i] = c
	}
	return string(slug)
}

// writeProjectFiles writes what a project directory holds besides its
// sessions: the auto memory and the .session-aliases file.
func writeProjectFiles(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "MEMORY.md"), []byte("- [Build](build.md): how to build\n"), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".session-aliases"), []byte("{}\n"), 0o600)
}

// session writes session i: its transcript and, drawn at random, its
// subagents, spilled tool results, workflow, flat agent file and unknown
// entry, then dates the whole unit and writes its live file.
func (g *generator) session(i int) (Session, error) {
	r := g.r
	id := uuid(r)
	s := Session{ID: id}
	age := time.Duration(r.Float64()*float64(g.o.MaxAgeDays)*24) * time.Hour
	switch {
	case i < g.o.Recent:
		s.Recent, age = true, time.Duration(r.Intn(20))*time.Minute
	case i < g.o.Recent+g.o.LiveFiles:
		s.Live = true
	}
	s.Newest = g.o.Now.Add(-age).Truncate(time.Microsecond)
	size := g.per / 2
	if r.Intn(20) == 0 {
		size = g.per * 8
	} else {
		size += r.Int63n(g.per + 1)
	}
	if err := writeTranscript(filepath.Join(g.st.Dir, id+".jsonl"), id, g.st.Project, size, r, &g.st); err != nil {
		return s, err
	}
	for _, part := range []func(*Session, int64) error{g.subagents, g.toolResults, g.workflow, g.flatAgent, g.unknownEntry} {
		if err := part(&s, size); err != nil {
			return s, err
		}
	}
	if err := touchTree(g.st.Dir, id, s.Newest); err != nil {
		return s, err
	}
	if s.Live {
		return s, g.liveFile(i, id)
	}
	return s, nil
}

// subagents gives one session in three one to three subagent transcripts
// with their meta files.
func (g *generator) subagents(s *Session, size int64) error {
	if g.r.Intn(3) != 0 {
		return nil
	}
	s.Subagents = 1 + g.r.Intn(3)
	for k := range s.Subagents {
		aid := fmt.Sprintf("a%016x", g.r.Uint64())
		p := filepath.Join(g.st.Dir, s.ID, "subagents", "agent-"+aid+".jsonl")
		if err := writeTranscript(p, s.ID, g.st.Project, size/4, g.r, &g.st); err != nil {
			return err
		}
		meta, _ := json.Marshal(map[string]any{"agentType": "general-purpose", "description": fmt.Sprintf("task %d", k)})
		if err := writeFile(filepath.Join(g.st.Dir, s.ID, "subagents", "agent-"+aid+".meta.json"), meta, &g.st); err != nil {
			return err
		}
	}
	return nil
}

// toolResults gives one session in four one or two spilled tool results.
func (g *generator) toolResults(s *Session, size int64) error {
	if g.r.Intn(4) != 0 {
		return nil
	}
	s.ToolResults = 1 + g.r.Intn(2)
	for k := range s.ToolResults {
		p := filepath.Join(g.st.Dir, s.ID, "tool-results", fmt.Sprintf("toolu_%d_%x.txt", k, g.r.Uint32()))
		if err := writeLog(p, size/3, g.r, &g.st); err != nil {
			return err
		}
	}
	return nil
}

// workflow gives one session in ten a workflow file.
func (g *generator) workflow(s *Session, _ int64) error {
	if g.r.Intn(10) != 0 {
		return nil
	}
	s.Workflows = 1
	return writeFile(filepath.Join(g.st.Dir, s.ID, "workflows", "wf_1.json"), []byte(`{"steps":[]}`+"\n"), &g.st)
}

// flatAgent gives one session in fifteen an old-style flat agent
// transcript beside the sessions.
func (g *generator) flatAgent(s *Session, size int64) error {
	if g.r.Intn(15) != 0 {
		return nil
	}
	s.Flat = 1
	p := filepath.Join(g.st.Dir, "agent-"+uuid(g.r)+".jsonl")
	return writeTranscript(p, s.ID, g.st.Project, size/5, g.r, &g.st)
}

// unknownEntry gives one session in twenty-five a file a user put in its
// directory, which is not part of the unit.
func (g *generator) unknownEntry(s *Session, _ int64) error {
	if g.r.Intn(25) != 0 {
		return nil
	}
	s.Unknown = true
	return writeFile(filepath.Join(g.st.Dir, s.ID, "notes-by-a-user.txt"), []byte("keep me\n"), &g.st)
}

// liveFile writes the ~/.claude/sessions/<pid>.json that names session i's
// id as live (this process's pid, offset by i so each file is its own).
func (g *generator) liveFile(i int, id string) error {
	pid := os.Getpid()
	b, _ := json.Marshal(map[string]any{"pid": pid, "sessionId": id, "cwd": g.st.Project, "startedAt": g.o.Now.UnixMilli(),
		"procStart": g.o.ProcStart, "version": "2.1.197", "kind": "interactive"})
	if err := os.MkdirAll(filepath.Join(g.configDir, "sessions"), 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(g.configDir, "sessions", strconv.Itoa(pid+i)+".json"), b, 0o600)
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
