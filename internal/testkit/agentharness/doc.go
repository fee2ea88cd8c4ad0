// Package agentharness drives the real OpenAI Codex CLI and Gemini CLI offline against loopback mocks of their model APIs, for the adapters' end-to-end tests.
package agentharness
