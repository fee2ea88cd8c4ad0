package clean

import (
	"bytes"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/carrier"
)

// TestIndexKeepMarker holds indexKeepMarker to bytes.Index, near misses,
// overlaps and the ends of the text included.
func TestIndexKeepMarker(t *testing.T) {
	for _, in := range []string{
		"",
		"keep",
		"prosewash: kee",
		"rosewash: keep",
		carrier.KeepMarker,
		"x" + carrier.KeepMarker + " U+200B",
		"keep keep prosewash:  keep prosewash: keep",
		"prosewash: prosewash: keep",
		"prosewash: keepkeep",
		"// no marker here, only keep and prosewash",
	} {
		t.Run(in, func(t *testing.T) {
			if got, want := indexKeepMarker([]byte(in)), bytes.Index([]byte(in), []byte(carrier.KeepMarker)); got != want {
				t.Errorf("indexKeepMarker(%q) = %d, want %d", in, got, want)
			}
		})
	}
}
