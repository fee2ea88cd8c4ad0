// Package archive moves old Claude Code session transcripts into verified gzip archives and back: copy, verify, then delete only what verified, through internal/engine/txn's journal.
//
// A session unit is a transcript (<id>.jsonl), its directory's subagents/, tool-results/ and
// workflows/ files, and the flat agent-*.jsonl files of older CLIs that name the session;
// never memory/ or anything else. A unit is taken only on evidence that no session uses it:
// not the current session, not named by a live ~/.claude/sessions/<pid>.json, no file
// written within the live window; any doubt keeps it. Each unit is one all-or-nothing
// transaction (internal/engine/txn Archive operations and a manifest), so an interrupted run is
// finished or undone by recovery and no byte is lost. It is never run from a hook.
package archive
