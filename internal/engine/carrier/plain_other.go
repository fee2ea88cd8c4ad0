//go:build !amd64 || purego

package carrier

// vectorPrefix is 0 where there is no vector code: the portable loop does
// all the work.
func vectorPrefix(int) int { return 0 }

func indexSpecialVector([]byte) int { return 0 }
