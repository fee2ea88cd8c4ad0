package carrier

import "fmt"

// Profile selects how a carrier provider decides.
type Profile string

const (
	// Standard keeps the legitimate uses listed in the Unicode policy (emoji
	// sequences, joiners inside Arabic-script and Indic words, French spacing, ...).
	Standard Profile = "standard"
	// Strict removes every carrier regardless of context.
	Strict Profile = "strict"
)

// ParseProfile validates a profile name.
func ParseProfile(s string) (Profile, error) {
	switch Profile(s) {
	case Standard, Strict:
		return Profile(s), nil
	case "":
		return Standard, nil
	}
	return "", fmt.Errorf("unknown profile %q (want standard or strict)", s)
}

// Action is what happens to a carrier.
type Action string

const (
	// Remove deletes the carrier.
	Remove Action = "remove"
	// Replace substitutes a plain U+0020 SPACE (exotic spaces, line separators).
	Replace Action = "replace"
	// Report leaves the carrier in place and reports it: carriers outside prose.
	Report Action = "report"
)

// Finding is one carrier in a text. Offsets are bytes relative to the text
// that was scanned.
type Finding struct {
	Offset int    `json:"offset"`
	Len    int    `json:"len"`  // bytes; a whole ANSI escape sequence counts as one finding
	Rune   rune   `json:"rune"` // the first code point
	Name   string `json:"name"` // Unicode name, e.g. "ZERO WIDTH SPACE"
	Class  string `json:"class"`
	Action Action `json:"action"`
}

// Code renders the rune as U+XXXX.
func (f Finding) Code() string { return fmt.Sprintf("U+%04X", f.Rune) }
