//go:build !amd64 || purego

package carrier

import "testing"

// vectorCode is empty where there is no vector code.
func vectorCode(testing.TB) map[string]func([]byte) int { return nil }
