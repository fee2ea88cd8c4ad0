// Package state locates the per-repository state directory outside the repository and creates it private.
package state
