// Package gitstate reads repository state from git's files (HEAD and the refs it names, in-progress operations) without ever writing to it.
package gitstate
