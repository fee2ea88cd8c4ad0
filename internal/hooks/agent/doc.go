// Package agent is every agent platform's hook protocol as data, and the one dispatcher that runs them: a payload decoded, the session service acted on, the answer encoded, always failing open.
//
// # Adding an agent
//
// An agent platform is one [Platform] value returned by [Platforms]; nothing
// else in the code base names platforms one by one ('prosewash hook NAME
// EVENT', 'prosewash install --NAME', uninstall, the hook deadlines and the
// help test all read the table). To add one, write a file NAME.go holding:
//
//   - a constructor func NAME() Platform with the product's Title, the
//     memory lane's platform id (Memory), and its Events: for each hook
//     event the command-line Arg, the platform's own Name (its configuration
//     key and hookEventName), the Kind of work it asks for (SessionStart,
//     TurnStart, BeforeWrite, AfterWrite, TurnEnd, MemoryLoaded,
//     SubagentStart) and the Hooks install writes (matcher, timeout in the
//     platform's unit);
//   - its Decode: unmarshal the platform's JSON, refuse a payload without a
//     session id, and fill a [Payload]: Cwd (and ProjectDir when the platform
//     names a project directory), Writes for its write tools (PatchPaths and
//     ShellPaths read apply_patch envelopes and shell commands), Again when
//     the end of a turn must be left alone (stop_hook_active, loop_count);
//   - its Encode, or one that exists: hookProtocol(block, suppress) for the
//     platforms that speak Claude Code's protocol (systemMessage, decision,
//     hookSpecificOutput.additionalContext), encodeCursor, encodeCopilot;
//     and NoOpinion, "{}" when the platform wants JSON on every run;
//   - its Config: the project file install writes, the markers that say a
//     project uses the agent, the file's base content, whether events hold
//     matcher groups (Grouped), and the Handler object of one entry.
//
// Then add NAME() to [Platforms], a line for it in the hook command's help
// (a test checks), and its real payloads under testdata/ (one JSON per line,
// files named by the platform's event name, the run directory as $RUN)
// with an entry in dispatch_test.go's recorded table, which feeds every one
// of them through the dispatcher. A platform whose protocol is another's
// reuses its pieces: Qwen Code, a Gemini CLI fork that speaks Claude Code's
// hook protocol with Gemini CLI's tool names, is Claude Code's event names
// and hookProtocol("block", false) with fileToolDecoder(its project
// variable, its write tools), whose table says which tool names a file, a
// notebook or a shell command (read with ShellPaths); see qwen.go.
package agent
