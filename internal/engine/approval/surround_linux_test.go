package approval

import "testing"

func TestPtsIndex(t *testing.T) {
	for nr, want := range map[int]int{0: -1, 136 << 8: 0, 136<<8 | 5: 5, 137<<8 | 2: 258, 4<<8 | 1: -1} {
		if got := ptsIndex(nr); got != want {
			t.Errorf("ptsIndex(%#x) = %d, want %d", nr, got, want)
		}
	}
}
