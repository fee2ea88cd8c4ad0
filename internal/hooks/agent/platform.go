package agent

import (
	"strings"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// Kind is what an event asks of the session service. Every platform's
// events map onto these; the dispatcher knows nothing else about them.
type Kind int

// Kinds of events.
const (
	// Unknown is no event of the platform: the payload is read, then the
	// event is refused (failing open).
	Unknown Kind = iota
	// SessionStart starts or resumes a session: its record, a warning
	// about an interrupted run, the memory gauge.
	SessionStart
	// TurnStart is a new prompt: the model hears which files the end of
	// its last turn rewrote.
	TurnStart
	// BeforeWrite comes before a tool writes or deletes files: the memory
	// lane's write guard banks a copy.
	BeforeWrite
	// AfterWrite comes after a tool wrote files: they are recorded for the
	// session (and a subagent tool's use counts a spawn).
	AfterWrite
	// TurnEnd ends a turn: the session's files are cleaned, asked about
	// or left, as the project's mode says.
	TurnEnd
	// MemoryLoaded reports a memory file the platform loaded.
	MemoryLoaded
	// SubagentStart reports a subagent starting.
	SubagentStart
)

// Event is one hook event of a platform.
type Event struct {
	// Arg names the event on the command line: prosewash hook PLATFORM ARG.
	Arg string
	// Name is the platform's own name for it: the key in its hook
	// configuration and the hookEventName of its output.
	Name string
	Kind Kind
	// Rewritten makes a session start also tell the model which files the
	// end of an earlier turn rewrote (for platforms whose turn-start event
	// prosewash does not hook).
	Rewritten bool
	// Hooks are the configuration entries install writes for the event,
	// one per matcher, in order.
	Hooks []Hook
}

// Hook is one configuration entry for an event.
type Hook struct {
	Matcher string // the platform's tool matcher; "" for none
	Timeout int    // in the platform's unit (seconds, or milliseconds for Gemini CLI)
}

// Payload is what a platform's decoder makes of one hook's stdin: the
// platform-neutral facts the session service acts on.
type Payload struct {
	Session string // the session id (or the platform's stand-in for one)
	Cwd     string // where the hook's agent works; may be empty
	// ProjectDir is the platform's project directory (its environment
	// variable or workspace root): the project when Cwd is outside it.
	ProjectDir string
	// Writes are the files a tool call writes (BeforeWrite: also those it
	// deletes). None means the call is not ours to look at.
	Writes []session.Written
	// Spawn is a subagent start (SubagentStart, or AfterWrite on the
	// subagent tool).
	Spawn *Spawn
	// Loaded is the memory file of a MemoryLoaded event.
	Loaded *Loaded
	// Again says the turn already continued because of an end-of-turn
	// answer (stop_hook_active, loop_count), or ended in a way that is not
	// ours to act on: the end of the turn is left alone.
	Again bool
	// Transcript is the session's transcript, where the platform says.
	Transcript string
	// EnvFile is a file of shell lines the platform sources before the
	// agent's commands: the session id is offered there.
	EnvFile string
	// Platform names the platform that sent the payload when it is not
	// the adapter's own (Cursor runs Claude Code's hooks with Cursor's
	// payloads): its memory is measured and its encoder answers.
	Platform string
}

// Spawn is one subagent start.
type Spawn struct {
	AgentType, AgentID string
	Via                string // lane.ViaSubagentStart or lane.ViaToolUse
}

// Loaded is one memory file a platform reports it loaded.
type Loaded struct {
	Path, MemoryType, LoadReason, Parent string
}

// Answer is what the session service has to say to one event, before a
// platform's encoder shapes it.
type Answer struct {
	User     string // one line for the user
	Model    string // context for the model
	Continue string // TurnEnd: ask the agent to go on with this text
	Failed   bool   // User reports that the hook failed open
}

// Reply is what a hook prints: JSON on standard output (nil: the
// platform's no-opinion answer) and at most one line on standard error.
type Reply struct {
	JSON   any
	Stderr string
}

// Platform describes one agent platform's hook protocol as data: its
// events, how to read its payloads and shape its answers, and the file
// install writes. Adding an agent is one more Platform in Platforms (see
// doc.go).
type Platform struct {
	// Name is the hook target and the install flag: claude, codex, ...
	Name string
	// Title is the product's name, for messages.
	Title string
	// Memory is the memory lane's platform id, so a session measures the
	// memory its own platform loads.
	Memory string
	Events []Event
	// Decode reads one payload (the bounded, non-empty stdin) for an event
	// of kind k. Every error is fit for a one-line message.
	Decode func(data []byte, k Kind, getenv func(string) string) (*Payload, error)
	// Encode shapes an answer for event ev (ev.Kind is Unknown for an
	// unknown event, which only ever fails).
	Encode func(ev Event, a Answer) Reply
	// NoOpinion is what standard output says when there is nothing to
	// say: nothing, or "{}" for platforms that want JSON every time.
	NoOpinion string
	// Config is the configuration file install writes.
	Config Config
}

// Config says where a platform reads its project hooks and how they are
// laid out.
type Config struct {
	File    string   // relative to the project root, with slashes
	Markers []string // paths whose presence says a project uses the agent
	Base    string   // a new file's content before the hooks go in
	// Grouped: event -> [{matcher, hooks: [handler]}] (Claude Code, Codex,
	// Gemini CLI); otherwise event -> [handler] (Cursor, Copilot CLI).
	Grouped bool
	// Handler is the handler object for one entry, running command.
	Handler func(ev Event, h Hook, command string) any
	// Plugin, for a platform that loads plugins instead of hook commands
	// (opencode), is File's whole content: a plugin that runs 'prosewash
	// hook NAME EVENT' itself. Install writes it as it is.
	Plugin string
}

// Platforms lists every agent platform, in the order install offers them.
func Platforms() []Platform {
	var out []Platform
	for _, build := range builders() {
		out = append(out, build())
	}
	return out
}

// builders are the platforms' constructors in the table's order.
func builders() []func() Platform {
	return []func() Platform{claude, codex, gemini, cursor, copilot, qwen, opencodePlatform}
}

// Lookup returns the platform named name. It builds only the platforms up
// to that one: every hook process looks its platform up three times, and
// each build of the whole table cost about 0.6% of a Claude Code
// post-tool-use process (perf), whose platform is the first.
func Lookup(name string) (Platform, bool) {
	for _, build := range builders() {
		if p := build(); p.Name == name {
			return p, true
		}
	}
	return Platform{}, false
}

// Event returns the event named arg on the command line.
func (p Platform) Event(arg string) (Event, bool) {
	for _, e := range p.Events {
		if e.Arg == arg {
			return e, true
		}
	}
	return Event{Arg: arg}, false
}

// Args lists the events' command-line names.
func (p Platform) Args() []string {
	var out []string
	for _, e := range p.Events {
		out = append(out, e.Arg)
	}
	return out
}

func (p Platform) argList() string { return strings.Join(p.Args(), ", ") }
