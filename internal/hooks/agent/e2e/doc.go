// Package e2e drives the real agent CLIs (Claude Code, Codex, Gemini CLI), offline against loopback mocks of their model APIs, with the hooks 'prosewash install' wrote.
package e2e
