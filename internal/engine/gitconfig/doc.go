// Package gitconfig reads the few git configuration values prosewash needs (core.excludesFile, core.worktree, include.path) from git's config files.
package gitconfig
