// Package install puts prosewash into the tools a project already uses (git hooks, Claude Code settings, a git alias, the clean mode) and takes it out again exactly.
package install
