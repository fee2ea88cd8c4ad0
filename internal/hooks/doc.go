// Package hooks holds the hook protocols prosewash speaks: the agents' (package agent, one dispatcher over a table of platforms) and git's (package git); the work they ask for lives in the engine.
package hooks
