//go:build !unix

package walk

// cpuTime is not measured on this platform.
func cpuTime() int64 { return 0 }
