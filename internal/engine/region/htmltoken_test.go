package region

import "testing"

// TestAttrStopSets holds the byte sets htmlAttrs stops at to the HTML
// tokenizer's states they stand for, for every byte value: an attribute's
// name ends at an HTML space, '/', '>' or '=', an unquoted value at an
// HTML space or '>'.
func TestAttrStopSets(t *testing.T) {
	for i := range 256 {
		c := byte(i)
		if got, want := inSet(c, attrNameStops), isHTMLSpace(c) || c == '/' || c == '>' || c == '='; got != want {
			t.Errorf("byte %#x ends an attribute name: %v, want %v", c, got, want)
		}
		if got, want := inSet(c, attrValueStops), isHTMLSpace(c) || c == '>'; got != want {
			t.Errorf("byte %#x ends an unquoted attribute value: %v, want %v", c, got, want)
		}
		if got := inSet(c, htmlSpaces); got != isHTMLSpace(c) {
			t.Errorf("byte %#x is an HTML space: %v, want %v", c, got, isHTMLSpace(c))
		}
	}
}
