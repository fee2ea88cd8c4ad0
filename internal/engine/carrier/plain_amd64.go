//go:build amd64 && !purego

package carrier

// vectorPrefix is how much of n bytes indexSpecialVector scans: whole
// blocks of 16.
func vectorPrefix(n int) int { return n &^ 15 }

// indexSpecialVector scans data, whose length is a multiple of 16, with
// AVX2 where the processor has it (0.3 instructions a byte) and SSE2
// otherwise (every amd64 processor has it; one instruction a byte), and
// returns the index of its first special byte, or len(data) when it holds
// none.
func indexSpecialVector(data []byte) int {
	if hasAVX2() {
		return indexSpecialAVX2(data)
	}
	return indexSpecialSSE2(data)
}

// indexSpecialSSE2 is indexSpecialVector 16 bytes an instruction
// (plain_amd64.s).
//
//go:noescape
func indexSpecialSSE2(data []byte) int

// indexSpecialAVX2 is indexSpecialVector 32 bytes an instruction; only
// for processors with AVX2 (plain_amd64.s).
//
//go:noescape
func indexSpecialAVX2(data []byte) int
