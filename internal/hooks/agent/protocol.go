package agent

// hookOutput is the output of the platforms that speak Claude Code's hook
// protocol (Claude Code, Codex, Gemini CLI): a line for the user, a
// decision that keeps the agent going at the end of a turn, context for
// the model.
type hookOutput struct {
	SystemMessage      string    `json:"systemMessage,omitempty"` // shown to the user, not the model
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"` // the model's next prompt with the decision
	SuppressOutput     bool      `json:"suppressOutput,omitempty"`
	HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
}

// specific carries event-specific output.
type specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// hookProtocol is that protocol's encoder: block is the decision that
// keeps the agent going ("block"; Gemini CLI's AfterAgent says "deny"),
// suppress hides a failure's line from the transcript (Claude Code's
// suppressOutput).
func hookProtocol(block string, suppress bool) func(Event, Answer) Reply {
	return func(ev Event, a Answer) Reply {
		out := hookOutput{SystemMessage: a.User, SuppressOutput: suppress && a.Failed}
		if a.Continue != "" {
			out.Decision, out.Reason = block, a.Continue
		}
		if a.Model != "" {
			out.HookSpecificOutput = &specific{HookEventName: ev.Name, AdditionalContext: a.Model}
		}
		if out == (hookOutput{}) {
			return Reply{}
		}
		return Reply{JSON: &out}
	}
}

// commandHandler is a command hook of Claude Code's and Codex's
// configuration.
type commandHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func commandHook(_ Event, h Hook, command string) any {
	return commandHandler{Type: "command", Command: command, Timeout: h.Timeout}
}
