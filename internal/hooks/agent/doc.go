// Package agent is the one session core every agent adapter (Claude Code, Codex, Gemini, Cursor, Copilot) calls: record what the agent wrote, start a session, end a turn by mode.
package agent
