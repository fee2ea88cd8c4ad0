package e2e

import (
	"os"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// TestMain builds prosewash: the end of a turn runs the built-in provider
// as a subprocess of it, and the tests hand it to the real CLIs.
func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// testBin returns the built prosewash, or skips naming the missing go
// toolchain.
func testBin(t *testing.T) string { return hooktest.Bin(t) }

// underAgentForTest reports an agent CLI among the environment or parents
// of the test (the archive refuses to run for one).
func underAgentForTest() string {
	if s := approval.RealCaller().AgentSignals(); len(s) > 0 {
		return s[0].String()
	}
	return ""
}
