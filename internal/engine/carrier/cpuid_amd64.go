//go:build amd64 && !purego

package carrier

import "sync"

// hasAVX2 asks the processor once, on the first scan: golang.org/x/sys/cpu
// asks at package initialisation, which every prosewash process, each
// agent hook included, paid for (its CPUID probes were 0.16 ms of a hook's
// start-up on a VM, where CPUID traps to the hypervisor).
var hasAVX2 = sync.OnceValue(cpuHasAVX2)

// cpuHasAVX2 is x/sys/cpu's X86.HasAVX2 test (plain_amd64.s).
func cpuHasAVX2() bool
