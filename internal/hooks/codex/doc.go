// Package codex speaks the OpenAI Codex CLI hook protocol (JSON on stdin, JSON on stdout) over the shared session core, and always fails open.
package codex
