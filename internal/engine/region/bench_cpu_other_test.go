//go:build !unix

package region

func processCPU() int64 { return -1 }
