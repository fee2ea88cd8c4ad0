package gate

import "testing"

// TestUnitCaseCarriesMeaning holds the unit symbols whose case is their meaning: 25 MB is bytes,
// 25 Mb bits, 5M a million; a rewrite exchanging them changes the value, a rewrite only
// respacing them does not.
func TestUnitCaseCarriesMeaning(t *testing.T) {
	for _, c := range []struct{ old, new string }{
		{"Upload limit: 25 MB per file.\n", "Upload limit: 25 Mb per file.\n"},
		{"The link carries 100 Mb per second.\n", "The link carries 100 MB per second.\n"},
		{"Keep the cache under 2 GB.\n", "Keep the cache under 2 Gb.\n"},
	} {
		if d := Check([]byte(c.old), []byte(c.new)); !hasType(d, TypeNumber) {
			t.Errorf("%q → %q: no number drop (%v)", c.old, c.new, d)
		}
	}
	for _, c := range []struct{ old, new string }{
		{"Upload limit: 25 MB per file.\n", "Upload limit: 25MB per file.\n"},
		{"The link carries 100 Mb per second.\n", "The link carries 100Mb per second.\n"},
	} {
		if d := Check([]byte(c.old), []byte(c.new)); len(d) > 0 {
			t.Errorf("%q → %q: respacing a unit blocked: %v", c.old, c.new, d)
		}
	}
}

// TestSeptIsSeptember holds "Sept", the four-letter spelling of September, as a month: a date
// written with it is the same date in ISO form or with "Sep", and a different day is a drop.
func TestSeptIsSeptember(t *testing.T) {
	for _, c := range []struct {
		old, new string
		drop     bool
	}{
		{"Released Sept 5, 2025.\n", "Released 2025-09-05.\n", false},
		{"Released Sept 5, 2025.\n", "Released Sep 5, 2025.\n", false},
		{"Freeze from 5 Sept 2025.\n", "Freeze from 2025-09-05.\n", false},
		{"Released Sept 5, 2025.\n", "Released 2025-09-06.\n", true},
	} {
		d := Check([]byte(c.old), []byte(c.new))
		if got := len(d) > 0; got != c.drop {
			t.Errorf("%q → %q: drops %v, want a drop: %v", c.old, c.new, d, c.drop)
		}
	}
}
