// Package gitstate reads repository state through go-git (HEAD, in-progress operations) without ever writing to it.
package gitstate
