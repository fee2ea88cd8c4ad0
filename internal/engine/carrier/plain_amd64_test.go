//go:build amd64 && !purego

package carrier

import (
	"testing"

	"golang.org/x/sys/cpu"
)

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
