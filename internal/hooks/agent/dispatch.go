package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// Run answers one hook event of the platform: the payload on stdin is
// decoded, the session service acts on it, and the answer is shaped for
// the platform. It never fails: any problem, a panic included, becomes the
// platform's fail-open answer (one line for the user, never a block), so a
// broken prosewash can never wedge a session.
func (p Platform) Run(ctx context.Context, env *session.Env, arg string, stdin io.Reader) Reply {
	ev, known := p.Event(arg)
	var a Answer
	sender := p
	err := Safe(func() error {
		data, err := ReadPayload(stdin, p.Title)
		if err != nil {
			return err
		}
		in, err := p.Decode(data, ev.Kind, env.Var)
		if err != nil {
			return err
		}
		if q, ok := Lookup(in.Platform); ok && q.Name != p.Name {
			// The sender's own event of that kind says what it is owed
			// (Cursor's session start also tells what a clean rewrote).
			sender = q
			if se, ok := q.eventOfKind(ev.Kind); ok {
				ev = se
			}
		}
		if !known {
			return fmt.Errorf("unknown event %q (want one of %s)", arg, p.argList())
		}
		a, err = act(ctx, env, sender.Memory, ev, in)
		return err
	})
	if err != nil {
		a = Answer{User: session.FailMessage(arg, err), Failed: true}
	}
	return p.answerAs(sender, ev, a)
}

// eventOfKind returns the platform's first event of kind k.
func (p Platform) eventOfKind(k Kind) (Event, bool) {
	for _, e := range p.Events {
		if e.Kind == k {
			return e, true
		}
	}
	return Event{}, false
}

// answerAs shapes a as the platform that sent the payload reads it: its
// encoder, and its no-opinion answer where this adapter's would differ.
func (p Platform) answerAs(sender Platform, ev Event, a Answer) Reply {
	r := sender.encode(ev, a)
	if sender.Name != p.Name && r.JSON == nil && sender.NoOpinion != p.NoOpinion && sender.NoOpinion != "" {
		r.JSON = json.RawMessage(sender.NoOpinion)
	}
	return r
}

// RunsEngine reports whether the event arg, with the payload data, would
// run the clean engine: the end of a turn with recorded files in an
// approved mode ([session.Session.RunsEngine]). That is what a hook runs
// in a worker process; any other end of a turn is answered in process.
// Whatever it cannot tell (another event, a payload that does not decode,
// a session that does not open) says yes, and the worker reports it.
func (p Platform) RunsEngine(env *session.Env, arg string, data []byte) bool {
	ev, known := p.Event(arg)
	if !known || ev.Kind != TurnEnd {
		return true
	}
	runs := true
	_ = Safe(func() error {
		in, err := p.Decode(data, ev.Kind, env.Var)
		if err != nil {
			return err
		}
		if in.Again {
			runs = false // act answers a turn that already continued at once
			return nil
		}
		s, err := env.Open(p.Memory, in.Session, in.Cwd, in.ProjectDir)
		if err != nil {
			return err
		}
		runs = s.RunsEngine()
		return nil
	})
	return runs
}

// FailOpen is the platform's answer to a hook that failed with err before
// or instead of running (it gave up at its deadline, say).
func (p Platform) FailOpen(arg string, err error) Reply {
	ev, _ := p.Event(arg)
	return p.encode(ev, Answer{User: session.FailMessage(arg, err), Failed: true})
}

// encode shapes a, and an encoder that panics still leaves the platform's
// no-opinion answer and the line on standard error.
func (p Platform) encode(ev Event, a Answer) (r Reply) {
	if err := Safe(func() error { r = p.Encode(ev, a); return nil }); err != nil {
		return Reply{Stderr: session.FailMessage(ev.Arg, err)}
	}
	return r
}

// Write prints a reply: its JSON document, or the no-opinion answer, on
// stdout, and its line on stderr. A failed write means the stream is gone
// and nobody is left to tell.
func (p Platform) Write(stdout, stderr io.Writer, r Reply) {
	if r.Stderr != "" && stderr != nil {
		fmt.Fprintln(stderr, r.Stderr)
	}
	if r.JSON != nil {
		if err := WriteJSON(stdout, r.JSON); err == nil {
			return
		}
		// An answer that cannot be encoded is no answer: fall through to
		// the no-opinion one, so stdout is never half a document.
	}
	if p.NoOpinion != "" {
		_, _ = io.WriteString(stdout, p.NoOpinion+"\n")
	}
}

// act is the session service's part of one event.
func act(ctx context.Context, env *session.Env, memory string, ev Event, in *Payload) (Answer, error) {
	open := func() (*session.Session, error) { return env.Open(memory, in.Session, in.Cwd, in.ProjectDir) }
	switch ev.Kind {
	case SessionStart:
		return start(open, ev, in)
	case TurnStart:
		s, err := open()
		if err != nil {
			return Answer{}, err
		}
		return Answer{Model: session.RewrittenContext(s.TakeRewritten())}, nil
	case BeforeWrite:
		if len(in.Writes) == 0 {
			return Answer{}, nil
		}
		s, err := open()
		if err != nil {
			return Answer{}, err
		}
		return Answer{}, s.BeforeWrites(in.Writes)
	case AfterWrite:
		return afterWrite(open, in)
	case TurnEnd:
		if in.Again {
			return Answer{}, nil
		}
		s, err := open()
		if err != nil {
			return Answer{}, err
		}
		t := s.EndTurn(ctx)
		return Answer{User: t.User, Continue: t.Continue, Failed: t.Failed}, nil
	case MemoryLoaded:
		s, err := open()
		if err != nil {
			return Answer{}, err
		}
		ld := in.Loaded
		return Answer{}, s.MemoryLoaded(lane.Loaded{Path: ld.Path, MemoryType: ld.MemoryType, LoadReason: ld.LoadReason, Parent: ld.Parent, Cwd: in.Cwd})
	case SubagentStart:
		return Answer{}, spawn(open, in)
	}
	return Answer{}, fmt.Errorf("event %q has no kind", ev.Arg)
}

type opener func() (*session.Session, error)

// start starts (or, on resume, touches) the session's record, so it is the
// most recent one, offers the session id to the agent's shell, and says
// what the session service has to say.
func start(open opener, ev Event, in *Payload) (Answer, error) {
	s, err := open()
	if err != nil {
		return Answer{}, err
	}
	if err := s.ExportID(in.EnvFile); err != nil {
		return Answer{}, err
	}
	if in.Transcript != "" {
		s.NoteTranscript(in.Transcript)
	}
	st, err := s.Start()
	if err != nil {
		return Answer{}, err
	}
	a := Answer{User: st.User, Model: st.Model}
	if ev.Rewritten {
		a.Model = session.JoinLines(a.Model, session.RewrittenContext(s.TakeRewritten()))
	}
	return a, nil
}

// afterWrite records what a tool wrote and says what the memory lane's
// write guard noticed; it never blocks the tool's result (that would
// replace what the model sees).
func afterWrite(open opener, in *Payload) (Answer, error) {
	if in.Spawn != nil {
		return Answer{}, spawn(open, in)
	}
	if len(in.Writes) == 0 {
		return Answer{}, nil
	}
	s, err := open()
	if err != nil {
		return Answer{}, err
	}
	fyi, err := s.Record(in.Writes)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Model: strings.Join(fyi, "\n")}, nil
}

func spawn(open opener, in *Payload) error {
	s, err := open()
	if err != nil {
		return err
	}
	return s.SubagentStarted(in.Spawn.AgentType, in.Spawn.AgentID, in.Spawn.Via)
}
