// Package report renders the result of a run for humans and machines.
package report
