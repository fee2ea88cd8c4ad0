// Package gemini speaks the Gemini CLI hook protocol (JSON on stdin, JSON only on stdout) over the shared session core, and always fails open.
package gemini
