package approval

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// The ancestry shows an agent that started the approving process. An agent
// can also reach a terminal without being its ancestor: it runs in another
// window of the same tmux or screen server and types into this one
// (tmux new-window + send-keys, screen -X stuff), it runs in the same
// session or on the same terminal, or it feeds the program that holds the
// terminal's other end. The surroundings are read as a table of the
// user's processes (see readTable) and judged here, so the judgement can
// be tested on any tree.

// proc is one process of the table.
type proc struct {
	Process
	PPID, SID int
	// TTY is the pseudo-terminal (its /dev/pts number) the process has as
	// its controlling terminal; -1 for none or another kind.
	TTY int
	// Masters are the pseudo-terminals whose other end (/dev/ptmx) it
	// holds: it is what the programs on them read as typed input.
	Masters []int
	// Stdin is where its standard input comes from, as /proc shows it:
	// "/dev/pts/3", "pipe:[1234]", "/dev/null", ...
	Stdin string
	// Writes are the pipes it holds open for writing.
	Writes []string
}

// table is the processes the caller can see, by pid.
type table struct {
	procs map[int]*proc
	// clients are the processes attached to a multiplexer server as its
	// clients (the person's view of it); ok is false when that cannot be
	// told, which is not taken as "none".
	clients func(server *proc) (pids []int, ok bool)
}

// multiplexers take input for the terminals they hold from any process
// that can reach them, not only from the keyboard: tmux (send-keys),
// screen (-X stuff), zellij (action write-chars), and the terminal
// emulators with a remote control command line (kitty @ send-text,
// wezterm cli send-text).
func multiplexer(p *proc) string {
	name := strings.ToLower(p.Name)
	exe := strings.TrimSuffix(strings.ToLower(filepath.Base(p.Exe)), " (deleted)")
	argv0 := ""
	if len(p.Argv) > 0 {
		argv0 = filepath.Base(p.Argv[0])
	}
	switch {
	case strings.HasPrefix(name, "tmux: server"):
		return "tmux"
	case (exe == "screen" || name == "screen") && argv0 == "SCREEN":
		return "screen"
	case exe == "zellij" || name == "zellij":
		for _, a := range p.Argv {
			if a == "--server" {
				return "zellij"
			}
		}
	case exe == "kitty" || name == "kitty":
		return "kitty"
	case exe == "wezterm-gui" || name == "wezterm-gui" || exe == "wezterm-mux-server":
		return "wezterm"
	}
	return ""
}

// agentIn tells whether p is an agent CLI or carries an agent's marker.
func agentIn(p Process) (string, bool) {
	if agent, ok := agentProgram(p); ok {
		return agent, true
	}
	if m := markersIn(p.Environ); len(m) > 0 {
		return m[0].agent, true
	}
	return "", false
}

// surroundings judges the table around the process self (the one that
// asks the person on its terminal).
type surroundings struct {
	t        *table
	out      []Signal
	seenProc map[int]bool
	seenTTY  map[int]bool
	children map[int][]int
}

const maxTerminalDepth = 6

// signals lists every sign that an agent can type into self's terminal
// without being among its ancestors.
func (t *table) signals(self int) []Signal {
	me := t.procs[self]
	if me == nil {
		return nil
	}
	s := &surroundings{t: t, seenProc: map[int]bool{self: true}, seenTTY: map[int]bool{}, children: map[int][]int{}}
	for pid, p := range t.procs {
		s.children[p.PPID] = append(s.children[p.PPID], pid)
	}
	s.neighbours(me)
	s.terminal(me.TTY, 0)
	if pts, ok := ptsOf(me.Stdin); ok {
		s.terminal(pts, 0)
	}
	return s.out
}

func (s *surroundings) add(agent, format string, args ...any) {
	sig := Signal{Agent: agent, What: fmt.Sprintf(format, args...)}
	for _, o := range s.out {
		if o == sig {
			return
		}
	}
	s.out = append(s.out, sig)
}

// sorted is the table's pids in order, so signals come out the same way
// every time.
func (s *surroundings) sorted() []int {
	pids := make([]int, 0, len(s.t.procs))
	for pid := range s.t.procs {
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	return pids
}

// neighbours: an agent in the same session, or on the same terminal, can
// type into it (it may be the job the person suspended, or a background
// job that writes to the terminal's input queue). Only a process with a
// terminal has neighbours: without one the session can be everything a
// daemon started, and such a process is refused for want of a terminal.
func (s *surroundings) neighbours(me *proc) {
	if me.TTY < 0 {
		return
	}
	for _, pid := range s.sorted() {
		p := s.t.procs[pid]
		if pid == me.PID {
			continue
		}
		if !(me.SID > 0 && p.SID == me.SID) && p.TTY != me.TTY {
			continue
		}
		if agent, ok := agentIn(p.Process); ok {
			s.add(agent, "process %d (%s) runs in the same session or on the same terminal", p.PID, describe(p.Process))
		}
	}
}

// terminal judges whoever holds the other end of a pseudo-terminal: what
// they pass on is what the program on it reads as typed.
func (s *surroundings) terminal(pts, depth int) {
	if pts < 0 || depth > maxTerminalDepth || s.seenTTY[pts] {
		return
	}
	s.seenTTY[pts] = true
	for _, pid := range s.sorted() {
		p := s.t.procs[pid]
		for _, m := range p.Masters {
			if m == pts {
				s.source(p, fmt.Sprintf("holds the other end of the terminal /dev/pts/%d", pts), depth)
			}
		}
	}
}

// source judges a process that feeds a terminal (role says how):
// itself and its ancestry, everything under it when it is a multiplexer
// server, its clients, and what feeds its own input.
func (s *surroundings) source(p *proc, role string, depth int) {
	if s.seenProc[p.PID] || depth > maxTerminalDepth {
		return
	}
	s.seenProc[p.PID] = true
	if agent, ok := agentIn(p.Process); ok {
		s.add(agent, "process %d (%s) %s", p.PID, describe(p.Process), role)
	}
	q := s.t.procs[p.PPID]
	for n := 0; q != nil && q.PID > 1 && n < maxAncestors; n++ {
		if agent, ok := agentIn(q.Process); ok {
			s.add(agent, "process %d (%s) started process %d (%s), which %s", q.PID, describe(q.Process), p.PID, p.Name, role)
			break
		}
		q = s.t.procs[q.PPID]
	}
	if mux := multiplexer(p); mux != "" {
		s.server(p, mux, depth)
		return
	}
	// A relay (script, expect, a pty in Python or node): whatever feeds
	// its input feeds the terminal.
	if in, ok := ptsOf(p.Stdin); ok {
		s.terminal(in, depth+1)
	}
	if strings.HasPrefix(p.Stdin, "pipe:") {
		for _, pid := range s.sorted() {
			w := s.t.procs[pid]
			for _, wp := range w.Writes {
				if wp == p.Stdin && w.PID != p.PID {
					s.source(w, fmt.Sprintf("writes the input of process %d (%s), which %s", p.PID, p.Name, role), depth+1)
				}
			}
		}
	}
}

// server judges a multiplexer server: any process under it can drive any
// of its terminals, and its clients are how a person sees them.
func (s *surroundings) server(p *proc, mux string, depth int) {
	for _, d := range s.descendants(p.PID) {
		if agent, ok := agentIn(d.Process); ok {
			s.add(agent, "process %d (%s) runs under the same %s server (process %d), which can type into this terminal", d.PID, describe(d.Process), mux, p.PID)
		}
	}
	if s.t.clients == nil {
		return
	}
	clients, ok := s.t.clients(p)
	if !ok {
		return
	}
	if len(clients) == 0 {
		s.add("nobody watching", "no client is attached to the %s server (process %d) that holds this terminal: no person can see it", mux, p.PID)
		return
	}
	for _, pid := range clients {
		c := s.t.procs[pid]
		if c == nil {
			continue
		}
		s.source(c, fmt.Sprintf("is a client of the %s server (process %d)", mux, p.PID), depth+1)
		s.neighbours(c)
		s.terminal(c.TTY, depth+1)
	}
}

// descendants lists every process below pid.
func (s *surroundings) descendants(pid int) []*proc {
	var out []*proc
	seen := map[int]bool{pid: true}
	queue := append([]int{}, s.children[pid]...)
	for len(queue) > 0 && len(out) < 1<<14 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if p := s.t.procs[c]; p != nil {
			out = append(out, p)
		}
		queue = append(queue, s.children[c]...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// ptsOf reads a /dev/pts/N path.
func ptsOf(path string) (int, bool) {
	rest, ok := strings.CutPrefix(path, "/dev/pts/")
	if !ok || rest == "" {
		return -1, false
	}
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			return -1, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
