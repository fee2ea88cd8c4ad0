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
	Offset int `json:"offset"`
	// Len is in bytes: a whole ANSI escape sequence, a run of tag
	// characters and a run of variation selectors that spell a payload
	// each count as one finding.
	Len    int    `json:"len"`
	Rune   rune   `json:"rune"` // the first code point
	Name   string `json:"name"` // Unicode name, e.g. "ZERO WIDTH SPACE"
	Class  string `json:"class"`
	Action Action `json:"action"`
	// Severity says how bad the carrier is where it sits (empty from a
	// provider that does not say).
	Severity Severity `json:"severity,omitempty"`
	// Hidden is what a payload spells: the ASCII text of a run of tag
	// characters, or the bytes of a run of variation selectors as hex
	// pairs ("68 69"). Empty for every other carrier.
	Hidden string `json:"hidden,omitempty"`
}

// Severity ranks findings so people can look at the worst first.
type Severity string

const (
	// High: a carrier that changes what a tool or a program reads, or a
	// smuggled payload: bidi controls in code or literals, tag characters
	// anywhere, variation-selector payloads, line separators in languages
	// where they end a line, any carrier inside a directive.
	High Severity = "high"
	// Medium: an invisible carrier in prose, or outside prose where it
	// changes nothing a tool reads.
	Medium Severity = "medium"
	// Low: exotic spaces and private-use characters, which show as something.
	Low Severity = "low"
)

// Rank orders severities: Low 1, Medium 2, High 3, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	}
	return 0
}

// ParseSeverity validates a severity name.
func ParseSeverity(s string) (Severity, error) {
	switch Severity(s) {
	case Low, Medium, High:
		return Severity(s), nil
	}
	return "", fmt.Errorf("unknown severity %q (want low, medium or high)", s)
}

// Code renders the rune as U+XXXX.
func (f Finding) Code() string { return fmt.Sprintf("U+%04X", f.Rune) }
