// Package ccharness drives the real Claude Code CLI offline against a loopback mock of the Anthropic Messages API, so tests can prove what installed hooks do in a genuine session.
package ccharness
