// Command clean-floor measures `prosewash clean` and the Claude Code Stop hook in automatic mode
// against the floor of a durable atomic replace (temporary file, fsync, rename, directory
// fsync) on the same files, at several corpus sizes, in one run (see bench/clean.sh).
package main
