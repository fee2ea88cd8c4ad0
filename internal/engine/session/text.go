package session

import (
	"fmt"
	"strings"
)

// FailMessage is the one line a hook shows the user when it failed open.
func FailMessage(event string, err error) string {
	return fmt.Sprintf("prosewash: %s hook skipped: %s", event, OneLine(err.Error()))
}

// JoinLines joins two texts with a newline, either may be empty.
func JoinLines(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

// OneLine flattens and bounds a message for a one-line notice.
func OneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
