// Package hooks holds the thin adapters that turn Claude Code and git hook invocations into engine requests.
package hooks
