//go:build !linux && !darwin

package approval

// ancestors cannot be read here without cgo: only the environment is
// looked at (see docs/safety.md).
func ancestors(int) ([]Process, error) { return nil, nil }
