package install

import (
	"encoding/json"
	"fmt"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// hookDef is one hook prosewash adds to an agent's hook configuration:
// an entry of one of the platform's events.
type hookDef struct {
	ev agent.Event
	h  agent.Hook
}

// hookSpec says how one platform's hook configuration is laid out.
type hookSpec struct {
	defs []hookDef
	// grouped: event -> [{matcher, hooks: [handler]}] (Claude Code, Codex,
	// Gemini); otherwise event -> [handler] (Cursor, Copilot).
	grouped bool
	// handler is the handler object for one definition.
	handler func(hookDef) any
	// ours reports whether a handler's command is prosewash's.
	ours func(cmd string) bool
}

// handlerCommand is the command of a handler object, in whichever field
// the platform keeps it.
func handlerCommand(h json.RawMessage) string {
	var x struct {
		Command string `json:"command"`
		Bash    string `json:"bash"`
	}
	if json.Unmarshal(h, &x) != nil {
		return ""
	}
	if x.Command != "" {
		return x.Command
	}
	return x.Bash
}

// stripHandlers removes ours from a list of handlers.
func stripHandlers(hs []json.RawMessage, ours func(string) bool) ([]json.RawMessage, bool) {
	var keep []json.RawMessage
	for _, h := range hs {
		if ours(handlerCommand(h)) {
			continue
		}
		keep = append(keep, h)
	}
	return keep, len(keep) != len(hs)
}

// stripGroups removes prosewash's handlers from one event's matcher
// groups; groups left without handlers go too. Everything else is kept
// verbatim.
func stripGroups(groups []json.RawMessage, ours func(string) bool) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, g := range groups {
		obj, err := parseObject(g)
		if err != nil {
			out = append(out, g)
			continue
		}
		hv, ok := obj.get("hooks")
		if !ok {
			out = append(out, g)
			continue
		}
		var hs []json.RawMessage
		if err := json.Unmarshal(hv, &hs); err != nil {
			out = append(out, g)
			continue
		}
		keep, changed := stripHandlers(hs, ours)
		if !changed {
			out = append(out, g)
			continue
		}
		if len(keep) == 0 {
			continue
		}
		nb, err := marshal(keep)
		if err != nil {
			return nil, err
		}
		out = append(out, obj.set("hooks", nb).marshal())
	}
	return out, nil
}

// mergeSpec rebuilds the "hooks" object of a configuration: ours removed
// everywhere, then (when add) ours appended after the user's own entries
// of each event. Keys and entries that are not ours keep their order and
// bytes.
func mergeSpec(settings object, spec hookSpec, add bool) (object, error) {
	var hooks object
	if hv, ok := settings.get("hooks"); ok {
		h, err := parseObject(hv)
		if err != nil {
			return nil, fmt.Errorf("\"hooks\" is not a JSON object; not touched")
		}
		hooks = h
	}
	var events []string
	for _, m := range hooks {
		events = append(events, m.key)
	}
	if add {
		for _, d := range spec.defs {
			if _, ok := hooks.get(d.ev.Name); !ok && !contains(events, d.ev.Name) {
				events = append(events, d.ev.Name)
			}
		}
	}
	var out object
	for _, ev := range events {
		var entries []json.RawMessage
		if v, ok := hooks.get(ev); ok {
			if err := json.Unmarshal(v, &entries); err != nil {
				out = append(out, member{ev, v}) // not ours to judge
				continue
			}
		}
		var err error
		if spec.grouped {
			entries, err = stripGroups(entries, spec.ours)
		} else {
			entries, _ = stripHandlers(entries, spec.ours)
		}
		if err != nil {
			return nil, err
		}
		if add {
			for _, d := range spec.defs {
				if d.ev.Name != ev {
					continue
				}
				var e json.RawMessage
				if spec.grouped {
					g := object{}
					if d.h.Matcher != "" {
						m, _ := marshal(d.h.Matcher)
						g = append(g, member{"matcher", m})
					}
					hb, err := marshal([]any{spec.handler(d)})
					if err != nil {
						return nil, err
					}
					e = g.set("hooks", hb).marshal()
				} else if e, err = marshal(spec.handler(d)); err != nil {
					return nil, err
				}
				entries = append(entries, e)
			}
		}
		if len(entries) == 0 {
			continue
		}
		gb, err := marshal(entries)
		if err != nil {
			return nil, err
		}
		out = append(out, member{ev, gb})
	}
	if len(out) == 0 {
		return settings.del("hooks"), nil
	}
	return settings.set("hooks", out.marshal()), nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
