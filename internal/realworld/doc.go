// Package realworld proves the prose lane end to end through the real
// prosewash binary on third-party files of every classified language,
// with invisible carriers injected into their comments, literals and code.
package realworld
