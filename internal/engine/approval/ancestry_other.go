//go:build !linux && !darwin

package approval

// ancestors cannot be read here without cgo: approving refuses (see
// ErrNoAncestry and docs/safety.md).
func ancestors(int) ([]Process, error) { return nil, ErrNoAncestry }
