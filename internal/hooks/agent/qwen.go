package agent

// qwen is Qwen Code (@qwen-code/qwen-code, a Gemini CLI fork; its hooks
// reference, run end to end with 0.24.4): project hooks in
// .qwen/settings.json (loaded in a trusted folder; trust is off by
// default), Claude Code's protocol and event names (session_id, cwd,
// stop_hook_active, decision "block" at Stop) with Gemini CLI's tool ids:
// write_file and edit name tool_input.file_path, notebook_edit its
// notebook_path, run_shell_command a command. QWEN_PROJECT_DIR is set for
// every hook. Its InstructionsLoaded and SubagentStart are not hooked: the
// memory lane reads those reports as Claude Code's.
func qwen() Platform {
	const writes = "^(write_file|edit|notebook_edit|run_shell_command)$"
	return Platform{
		Name: "qwen", Title: "Qwen Code", Memory: "qwen",
		// Timeouts in seconds (a command hook's value of 1000 or more is
		// read as milliseconds).
		Events: []Event{
			{Arg: "session-start", Name: "SessionStart", Kind: SessionStart, Hooks: []Hook{{"startup|resume|clear|compact", 30}}},
			// Before every model invocation of a turn, the first one included.
			{Arg: "user-prompt-submit", Name: "UserPromptSubmit", Kind: TurnStart, Hooks: []Hook{{"", 30}}},
			// The memory lane's write guard, before the same tools write.
			{Arg: "pre-tool-use", Name: "PreToolUse", Kind: BeforeWrite, Hooks: []Hook{{writes, 30}}},
			{Arg: "post-tool-use", Name: "PostToolUse", Kind: AfterWrite, Hooks: []Hook{{writes, 30}}},
			// Stop may run validation commands.
			{Arg: "stop", Name: "Stop", Kind: TurnEnd, Hooks: []Hook{{"", 600}}},
		},
		Decode: fileToolDecoder("QWEN_PROJECT_DIR",
			map[string]int{"write_file": toolFile, "edit": toolFile, "notebook_edit": toolNotebook, "run_shell_command": toolShell}),
		// Qwen shows systemMessage to the user (on stderr under -p), adds
		// additionalContext for the model, and a Stop block's reason is
		// the next prompt.
		Encode: hookProtocol("block", false),
		Config: Config{File: ".qwen/settings.json", Markers: []string{".qwen", "QWEN.md"}, Base: "{}", Grouped: true, Handler: commandHook},
	}
}
