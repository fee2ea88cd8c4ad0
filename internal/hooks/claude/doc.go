// Package claude speaks the Claude Code hook protocol: JSON on stdin, JSON on stdout, and it always fails open.
package claude
