//go:build amd64 && !purego

package carrier

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestHasAVX2AsXSysCPU holds the lazy probe to golang.org/x/sys/cpu's
// answer on this processor.
func TestHasAVX2AsXSysCPU(t *testing.T) {
	if hasAVX2() != cpu.X86.HasAVX2 {
		t.Fatalf("hasAVX2 = %v, x/sys/cpu says %v", hasAVX2(), cpu.X86.HasAVX2)
	}
}

// vectorCode is each vector implementation this processor can run, by
// name: IndexSpecial picks one, the tests check them all.
func vectorCode(t testing.TB) map[string]func([]byte) int {
	code := map[string]func([]byte) int{"sse2": indexSpecialSSE2}
	if cpu.X86.HasAVX2 {
		code["avx2"] = indexSpecialAVX2
	} else {
		t.Log("this processor has no AVX2: its vector code is not checked here")
	}
	return code
}
