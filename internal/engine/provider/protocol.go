package provider

import "github.com/prosewash/prosewash/internal/engine/carrier"

// Protocol is the version string every request and reply carries.
const Protocol = "prosewash-provider/1"

// Request is the one JSON document a provider reads for a stage. It carries
// every region of every file the stage may touch; each region is cleaned
// independently, with its neighbouring characters as read-only context.
type Request struct {
	Protocol  string            `json:"protocol"`
	Operation string            `json:"operation"`
	Stage     int               `json:"stage"`
	Options   map[string]string `json:"options,omitempty"`
	Files     []FileRegions     `json:"files"`
}

// FileRegions is the part of a request for one file.
type FileRegions struct {
	ID       int             `json:"id"`
	Path     string          `json:"path"`     // relative to the project root, for messages only
	Language string          `json:"language"` // classifier name: python, markdown, text, go
	Regions  []RegionPayload `json:"regions"`
}

// RegionPayload is one region. Before and After are the file around the
// region (rune aligned): the rest of its paragraph, up to a blank line and
// at most ContextMax bytes each side; they must not be changed.
type RegionPayload struct {
	ID     int    `json:"id"`
	Kind   string `json:"kind"`   // prose, directive, runtime
	Offset int    `json:"offset"` // byte offset of Text in the file
	Before string `json:"before"`
	Text   string `json:"text"`
	After  string `json:"after"`
	// Keep lists byte offsets in Text where a carrier starts that the
	// provider must leave exactly as it is and report (action "report"):
	// removing it would change the file's structure, or the user asked to
	// keep it. A transform that changes a kept carrier fails the file.
	Keep []int `json:"keep,omitempty"`
}

// ContextMax bounds Before and After.
const ContextMax = 1024

// Reply is the one JSON document a provider writes.
type Reply struct {
	Protocol string      `json:"protocol"`
	Files    []FileReply `json:"files"`
	// Error, when set, refuses the whole request with a message.
	Error string `json:"error,omitempty"`
}

// FileReply mirrors FileRegions.
type FileReply struct {
	ID      int           `json:"id"`
	Regions []RegionReply `json:"regions"`
}

// RegionReply is the result for one region: the new text for transform
// operations, findings for inspect operations (and, optionally, for transforms).
type RegionReply struct {
	ID       int               `json:"id"`
	Text     *string           `json:"text,omitempty"`
	Findings []carrier.Finding `json:"findings,omitempty"`
}
