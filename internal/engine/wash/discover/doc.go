// Package discover finds the memory and instruction files each agent platform loads for a project (Claude Code, Codex and other AGENTS.md readers, Gemini CLI, Copilot, Cursor, Cline, Windsurf), realpath-contained and failing closed.
//
// # Platform rules
//
// Claude Code: ~/.claude/CLAUDE.md (CLAUDE_CONFIG_DIR honoured) and ~/.claude/rules; CLAUDE.md,
// .claude/CLAUDE.md and CLAUDE.local.md in every directory above the project up to home
// (inherited: measured, never counted or touched); the project's own CLAUDE.md,
// .claude/CLAUDE.md, .claude/rules/**/*.md (always loaded unless a `paths` key scopes them) and
// CLAUDE.local.md; @path imports, inline or on their own line, outside code, relative to the
// importing file or ~/, to depth 5 with cycles reported; the auto memory directory
// ~/.claude/projects/<slug>/memory, whose MEMORY.md is always loaded and whose other notes are
// recall-only.
//
// A session that starts in a subdirectory of the project (Options.Start) loads more: Claude
// Code walks from its working directory up to the filesystem root, reading CLAUDE.md,
// .claude/CLAUDE.md, .claude/rules/*.md and CLAUDE.local.md in every directory (Claude Code's
// memory documentation and the comment at the top of its utils/claudemd.ts), so the
// directories from the project root down to the start directory are added, owned like the
// root's files. CLAUDE.md files below the start directory are loaded only when the agent reads
// files there; they are not part of the per-session bill and are not discovered.
//
// Codex (and the other AGENTS.md readers): the Codex home's AGENTS.override.md or AGENTS.md
// (CODEX_HOME honoured), then one file per directory from the git root down to the project root,
// AGENTS.override.md first; directories above the project root are inherited. This follows the
// Codex documentation: the chain runs from the project root (the git root) to the working
// directory, so a start directory below the project root extends it.
//
// Gemini CLI: ~/.gemini/GEMINI.md and GEMINI.md from the git root down to the start
// directory ("workspace directories and their parent directories" in its GEMINI.md
// documentation; files below load just in time), with @path imports. Copilot: .github/copilot-instructions.md, plus
// .github/instructions/*.instructions.md (always loaded only with applyTo "**"). Cursor:
// .cursor/rules/**/*.mdc|md (always loaded only with alwaysApply: true), .cursorrules and the
// project root's AGENTS.md (Cursor applies it to every request; nested ones are scoped).
// Cline: .clinerules as a file or a directory of .md/.txt files. Windsurf: .windsurfrules and
// .windsurf/rules/*.md (always loaded only with trigger: always_on).
//
// # Ownership
//
// An entry is Owned, and so writable by the memory lane, only when it is not inherited, lies
// inside the project root or the Claude Code memory directory (never elsewhere in a platform's
// config directory), and is either a memory file its platform loads by name or an imported
// Markdown file. User-level memory (~/.claude/CLAUDE.md, the Codex home, ~/.gemini), settings,
// code and JSON reached through @imports are measured and shown, never written.
//
// # Containment
//
// Every candidate is resolved with its realpath and must lie inside the project root or the
// platform's config directory; a file above the project must lie in its own directory. A
// symlink that leaves them is reported as a [Problem] and skipped, never followed.
package discover
