//go:build amd64 && !purego

package carrier

// vectorPrefix is how much of n bytes indexSpecialVector scans: whole
// blocks of 16.
func vectorPrefix(n int) int { return n &^ 15 }

// indexSpecialVector scans data, whose length is a multiple of 16, with
// SSE2 (every amd64 processor has it) and returns the index of its first
// special byte, or len(data) when it holds none.
//
//go:noescape
func indexSpecialVector(data []byte) int
