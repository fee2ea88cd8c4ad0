package agent

import "github.com/prosewash/prosewash/internal/hooks/agent/opencode"

// opencodePlatform is opencode (opencode-ai on npm; its plugin API,
// @opencode-ai/plugin 1.18.33): no hook configuration, only JS/TS plugins,
// so install writes one plugin (opencode/prosewash.js) that runs 'prosewash
// hook opencode EVENT' for its tool.execute.before/after hooks and its
// session.created and session.idle events, with a payload in Gemini CLI's
// shape carrying opencode's tool ids and arguments: write and edit name
// filePath, apply_patch carries patchText, bash a command and its workdir.
// The plugin shows the answer's message to the user, hands its context to
// the model's next turn (experimental.chat.system.transform) and sends its
// continue text as the next prompt, marking the idle that follows it.
func opencodePlatform() Platform {
	tools := map[string]int{"write": toolFile, "edit": toolFile, "multiedit": toolFile,
		"apply_patch": toolPatch, "patch": toolPatch, "bash": toolShell}
	return Platform{
		Name: "opencode", Title: "opencode", Memory: "opencode",
		Events: []Event{
			// Its session start is also where the model hears what the end
			// of the last turn rewrote.
			{Arg: "session-start", Name: "session.created", Kind: SessionStart, Rewritten: true},
			{Arg: "tool-before", Name: "tool.execute.before", Kind: BeforeWrite},
			{Arg: "tool-after", Name: "tool.execute.after", Kind: AfterWrite},
			{Arg: "idle", Name: "session.idle", Kind: TurnEnd},
		},
		Decode:    fileToolDecoder("", tools),
		Encode:    encodeOpencode,
		NoOpinion: "{}",
		Config:    Config{File: ".opencode/plugins/prosewash.js", Markers: []string{".opencode", "opencode.json", "opencode.jsonc"}, Plugin: opencode.Plugin()},
	}
}

// opencodeOutput is what the plugin reads back.
type opencodeOutput struct {
	Message  string `json:"message,omitempty"`  // for the user
	Context  string `json:"context,omitempty"`  // for the model's next turn
	Continue string `json:"continue,omitempty"` // the next prompt
}

func encodeOpencode(_ Event, a Answer) Reply {
	out := opencodeOutput{Message: a.User, Context: a.Model, Continue: a.Continue}
	if out == (opencodeOutput{}) {
		return Reply{}
	}
	return Reply{JSON: &out}
}
