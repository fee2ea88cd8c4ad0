//go:build !linux && !darwin

package approval

import (
	"errors"
	"testing"
)

// Here the ancestry cannot be read: the real caller is refused, whatever
// its environment says (an agent through a pty would look like a person).
func TestRealCallerIsRefusedHere(t *testing.T) {
	var ue *UnknownCallerError
	var ae *AgentError
	if err := RealCaller().CheckPerson(); !errors.As(err, &ue) && !errors.As(err, &ae) {
		t.Fatalf("CheckPerson = %v: a caller nobody can see was taken for a person", err)
	}
}
