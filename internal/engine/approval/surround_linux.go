package approval

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Bounds of the process table: a machine with more is read in part (the
// user's own processes come first in no particular order; what is not
// read is not a signal).
const (
	maxTableProcs = 8192
	maxProcFDs    = 4096
)

// realSurroundings reads the processes around this one from /proc and
// judges them.
func realSurroundings() []Signal {
	t := readTable()
	t.clients = clientsOf(t)
	return t.signals(os.Getpid())
}

// readTable reads every process /proc lets this user see: its parent,
// session and terminal, its name, executable, command line and
// environment when readable (the user's own), and, from its descriptors,
// the pseudo-terminals whose master it holds, its standard input and the
// pipes it writes to.
func readTable() *table {
	t := &table{procs: map[int]*proc{}}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return t
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || len(t.procs) >= maxTableProcs {
			continue
		}
		if p := readProc(pid); p != nil {
			t.procs[pid] = p
		}
	}
	return t
}

func readProc(pid int) *proc {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return nil
	}
	end := bytes.LastIndexByte(stat, ')')
	start := bytes.IndexByte(stat, '(')
	if end < 0 || start < 0 || start > end {
		return nil
	}
	// state ppid pgrp session tty_nr ...
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 5 {
		return nil
	}
	p := &proc{Process: Process{PID: pid, Name: string(stat[start+1 : end])}, TTY: -1}
	p.PPID, _ = strconv.Atoi(f[1])
	p.SID, _ = strconv.Atoi(f[3])
	if nr, err := strconv.Atoi(f[4]); err == nil {
		p.TTY = ptsIndex(nr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
		p.Argv = splitNUL(b)
	}
	p.Exe, _ = os.Readlink(filepath.Join(dir, "exe"))
	if b, err := os.ReadFile(filepath.Join(dir, "environ")); err == nil {
		p.Environ = splitNUL(b)
	}
	readFDs(p, dir)
	return p
}

// ptsIndex turns a tty_nr into its /dev/pts number, or -1: Unix 98
// pseudo-terminal slaves have majors 136 to 143.
func ptsIndex(nr int) int {
	major := (nr >> 8) & 0xfff
	minor := (nr & 0xff) | ((nr >> 12) & 0xfff00)
	if nr == 0 || major < 136 || major > 143 {
		return -1
	}
	return (major-136)<<8 + minor
}

func readFDs(p *proc, dir string) {
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return
	}
	for i, fd := range fds {
		if i >= maxProcFDs {
			break
		}
		target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err != nil {
			continue
		}
		if fd.Name() == "0" {
			p.Stdin = target
		}
		switch {
		case target == "/dev/ptmx" || target == "/dev/pts/ptmx":
			if n, ok := fdinfo(dir, fd.Name(), "tty-index:"); ok {
				p.Masters = append(p.Masters, n)
			}
		case strings.HasPrefix(target, "pipe:"):
			// flags are octal; the low two bits are the access mode.
			if fl, ok := fdinfoRaw(dir, fd.Name(), "flags:"); ok {
				if mode, err := strconv.ParseInt(fl, 8, 64); err == nil && mode&3 != 0 {
					p.Writes = append(p.Writes, target)
				}
			}
		}
	}
}

func fdinfo(dir, fd, key string) (int, bool) {
	v, ok := fdinfoRaw(dir, fd, key)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

func fdinfoRaw(dir, fd, key string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "fdinfo", fd))
	if err != nil {
		return "", false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// clientsOf finds the clients of a multiplexer server: for tmux, what the
// server itself lists (asked through the socket its panes name in $TMUX);
// for screen, every screen client process of the user (a client of
// another session included: more to judge, never less). Other
// multiplexers are not asked.
func clientsOf(t *table) func(*proc) ([]int, bool) {
	return func(server *proc) ([]int, bool) {
		switch multiplexer(server) {
		case "tmux":
			return tmuxClients(t, server)
		case "screen":
			var out []int
			for pid, p := range t.procs {
				if pid != server.PID && (filepath.Base(p.Exe) == "screen" || p.Name == "screen") && len(p.Argv) > 0 && filepath.Base(p.Argv[0]) != "SCREEN" {
					out = append(out, pid)
				}
			}
			return out, true
		}
		return nil, false
	}
}

// tmuxClients asks the tmux server for its clients' pids.
func tmuxClients(t *table, server *proc) ([]int, bool) {
	sock := tmuxSocket(t, server)
	if sock == "" {
		return nil, false
	}
	bin := strings.TrimSuffix(server.Exe, " (deleted)")
	if _, err := os.Stat(bin); err != nil || server.Exe != bin {
		if bin, err = exec.LookPath("tmux"); err != nil {
			return nil, false
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-S", sock, "list-clients", "-F", "#{client_pid}")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	var pids []int
	for _, l := range strings.Fields(string(out)) {
		if n, err := strconv.Atoi(l); err == nil {
			pids = append(pids, n)
		}
	}
	return pids, true
}

// tmuxSocket is the socket of a tmux server, as $TMUX names it
// ("path,server pid,session") in the environment of a process under it.
func tmuxSocket(t *table, server *proc) string {
	s := &surroundings{t: t, children: map[int][]int{}}
	for pid, p := range t.procs {
		s.children[p.PPID] = append(s.children[p.PPID], pid)
	}
	for _, d := range s.descendants(server.PID) {
		for _, kv := range d.Environ {
			v, ok := strings.CutPrefix(kv, "TMUX=")
			if !ok {
				continue
			}
			parts := strings.Split(v, ",")
			if len(parts) >= 2 && parts[1] == strconv.Itoa(server.PID) {
				return parts[0]
			}
		}
	}
	return ""
}
