package approval

import (
	"strings"
	"testing"
)

// A tree of processes as /proc would show it; pid 100 asks.
func procTable(ps ...*proc) *table {
	t := &table{procs: map[int]*proc{}}
	for _, p := range ps {
		t.procs[p.PID] = p
	}
	return t
}

func pr(pid, ppid, sid int, name string, argv ...string) *proc {
	return &proc{Process: Process{PID: pid, Name: name, Argv: argv}, PPID: ppid, SID: sid, TTY: -1}
}

func withTTY(p *proc, tty int, stdin string) *proc { p.TTY, p.Stdin = tty, stdin; return p }

func masters(p *proc, pts ...int) *proc { p.Masters = pts; return p }

func whats(s []Signal) string {
	var out []string
	for _, x := range s {
		out = append(out, x.String())
	}
	return strings.Join(out, "\n")
}

// The routes an agent has to a terminal that is not its own child, each
// seen; and the same trees without the agent give no signal.
func TestSurroundings(t *testing.T) {
	person := func() []*proc {
		return []*proc{
			masters(pr(10, 1, 10, "xterm", "xterm"), 1),
			withTTY(pr(11, 10, 11, "bash", "-bash"), 1, "/dev/pts/1"),
			withTTY(pr(12, 11, 11, "tmux: client", "tmux", "attach"), 1, "/dev/pts/1"),
		}
	}
	server := func() *proc { return masters(pr(20, 1, 20, "tmux: server", "tmux", "new"), 2, 3) }
	approve := func() *proc { return withTTY(pr(100, 31, 31, "prosewash", "prosewash", "approve"), 3, "/dev/pts/3") }
	pane := func() *proc { return withTTY(pr(31, 20, 31, "sh", "sh", "-c", "prosewash approve"), 3, "/dev/pts/3") }
	agentPane := []*proc{withTTY(pr(21, 20, 21, "bash", "bash"), 2, "/dev/pts/2"), withTTY(pr(22, 21, 21, "claude", "claude"), 2, "/dev/pts/2")}
	attached := func(pids ...int) func(*proc) ([]int, bool) {
		return func(*proc) ([]int, bool) { return pids, true }
	}

	for name, tc := range map[string]struct {
		procs   []*proc
		clients func(*proc) ([]int, bool)
		want    string // "" for no signal
	}{
		"tmux window of the person's server, agent in another window": {
			procs: append(append(person(), server(), pane(), approve()), agentPane...), clients: attached(12),
			want: "Claude Code: process 22 (claude (claude)) runs under the same tmux server (process 20)",
		},
		"the same without the agent": {
			procs: append(person(), server(), pane(), approve(), withTTY(pr(21, 20, 21, "bash", "bash"), 2, "/dev/pts/2")), clients: attached(12),
		},
		"screen window, agent in another": {
			procs:   []*proc{masters(pr(20, 1, 20, "screen", "SCREEN", "-dmS", "x"), 2, 3), pane(), approve(), agentPane[0], agentPane[1], withTTY(pr(13, 11, 11, "screen", "screen", "-r"), 1, "/dev/pts/1")},
			clients: attached(13), want: "runs under the same screen server (process 20)",
		},
		"a detached server nobody attached to": {
			procs: []*proc{server(), pane(), approve()}, clients: attached(),
			want: "no client is attached to the tmux server (process 20)",
		},
		"the person's client runs under the agent": {
			procs: []*proc{
				masters(pr(10, 1, 10, "xterm", "xterm"), 1), withTTY(pr(11, 10, 11, "claude", "claude"), 1, "/dev/pts/1"),
				withTTY(pr(12, 11, 11, "tmux: client", "tmux", "attach"), 1, "/dev/pts/1"), server(), pane(), approve(),
			},
			clients: attached(12), want: "process 11 (claude (claude)) started process 12 (tmux: client), which is a client of the tmux server",
		},
		"an agent suspended in the same session": {
			procs: []*proc{masters(pr(10, 1, 10, "xterm", "xterm"), 3), withTTY(pr(31, 10, 31, "bash", "bash"), 3, "/dev/pts/3"),
				withTTY(pr(32, 31, 31, "claude", "claude"), 3, "/dev/pts/3"), approve()},
			want: "process 32 (claude (claude)) runs in the same session or on the same terminal",
		},
		"a relay fed through a pipe by a detached agent": {
			procs: []*proc{
				withTTY(pr(50, 1, 50, "node", "node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"), -1, "/dev/null"),
				func() *proc {
					p := pr(51, 50, 50, "sh", "sh", "-c", "echo y")
					p.Writes = []string{"pipe:[77]"}
					return p
				}(),
				masters(withTTY(pr(30, 1, 30, "script", "script", "-qc", "prosewash approve"), -1, "pipe:[77]"), 3),
				withTTY(pr(31, 30, 31, "sh", "sh", "-c", "prosewash approve"), 3, "/dev/pts/3"), approve(),
			},
			want: "process 50 (node",
		},
		"an agent holding the terminal itself (its own pty)": {
			procs: []*proc{masters(pr(40, 1, 40, "node", "node", "/opt/x/node_modules/@openai/codex/bin/codex.js"), 3), pane(), approve()},
			want:  "Codex: process 40",
		},
		"no terminal, an agent in the same session (a daemon's)": {
			procs: []*proc{pr(32, 1, 31, "claude", "claude"), pr(100, 1, 31, "prosewash", "prosewash", "approve")},
		},
		"an agent's marker under the server": {
			procs: []*proc{server(), pane(), approve(), func() *proc {
				p := withTTY(pr(21, 20, 21, "bash", "bash"), 2, "/dev/pts/2")
				p.Environ = []string{"GEMINI_CLI=1"}
				return p
			}()},
			clients: attached(), want: "Gemini CLI: process 21 (bash (bash)) runs under the same tmux server",
		},
	} {
		t.Run(name, func(t *testing.T) {
			tb := procTable(tc.procs...)
			tb.clients = tc.clients
			got := whats(tb.signals(100))
			switch {
			case tc.want == "" && got != "":
				t.Fatalf("unexpected signals:\n%s", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Fatalf("signals:\n%s\nwant one with %q", got, tc.want)
			}
		})
	}
}
