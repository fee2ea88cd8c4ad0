package gate

import (
	"slices"
	"testing"
)

// pairsOf returns the pair keys the sentence reader finds in one line.
func pairsOf(s string) []string {
	var out []string
	for _, p := range readSentences(s).pairs {
		out = append(out, p.key())
	}
	return out
}

func TestPairsAndBindings(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Prefer `errors.As` over `reflect`", []string{"`errors.As` > `reflect`"}},
		// "instead of" puts the chosen side after it
		{"Use `slog` instead of `log`", []string{"`slog` > `log`"}},
		// a sequence takes only the nearest operand on each side
		{"Run `gen` `lint` before `vet` `test`", []string{"`lint` > `vet`"}},
		{"Run `gen` after `fmt`", []string{"`fmt` > `gen`"}},
		// a binding of two code spans
		{"Mock `time.Now` in `setupTest`", []string{"`time.Now` in `setupTest`"}},
	} {
		if got := pairsOf(c.in); !slices.Equal(got, c.want) {
			t.Errorf("pairs of %q: got %q, want %q", c.in, got, c.want)
		}
	}
}
