package region

import "testing"

// TestJSIdentASCII holds the bit test to the definition, for every byte.
func TestJSIdentASCII(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := b == '$' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		if got := isJSIdentASCII(b); got != want {
			t.Errorf("isJSIdentASCII(%#x) = %v, want %v", b, got, want)
		}
	}
}
