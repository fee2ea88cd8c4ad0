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
// Codex (and the other AGENTS.md readers): the Codex home's AGENTS.override.md or AGENTS.md
// (CODEX_HOME honoured), then one file per directory from the git root down to the project root,
// AGENTS.override.md first; directories above the project root are inherited. This follows the
// Codex documentation: the chain runs from the project root (the git root) to the working
// directory.
//
// Gemini CLI: ~/.gemini/GEMINI.md and GEMINI.md from the git root down to the project root,
// with @path imports. Copilot: .github/copilot-instructions.md, plus
// .github/instructions/*.instructions.md (always loaded only with applyTo "**"). Cursor:
// .cursor/rules/**/*.mdc|md (always loaded only with alwaysApply: true) and .cursorrules.
// Cline: .clinerules as a file or a directory of .md/.txt files. Windsurf: .windsurfrules and
// .windsurf/rules/*.md (always loaded only with trigger: always_on).
//
// # Containment
//
// Every candidate is resolved with its realpath and must lie inside the project root or the
// platform's config directory; a file above the project must lie in its own directory. A
// symlink that leaves them is reported as a [Problem] and skipped, never followed.
package discover
