// Package copilot speaks the GitHub Copilot CLI hook protocol (.github/hooks/*.json: sessionStart, postToolUse, agentStop, in camelCase or the VS Code compatible snake_case form) over the shared session core, built from GitHub's documented schema and not yet run against the real client.
package copilot
