package claude

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testtool"
)

// envTestBin names where TestMain put a freshly built prosewash: the Stop
// hook runs the built-in provider as a subprocess of that binary, and the
// end-to-end tests hand it to the real Claude Code CLI.
const envTestBin = "PROSEWASH_TEST_BIN"

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if _, err := exec.LookPath("go"); err == nil {
		dir, err := os.MkdirTemp("", "prosewash-hooks-test-")
		if err == nil {
			defer os.RemoveAll(dir)
			bin := filepath.Join(dir, "prosewash")
			cmd := exec.Command("go", "build", "-o", bin, "github.com/prosewash/prosewash/cmd/prosewash")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "build prosewash: %v\n%s", err, out)
				return 1
			}
			os.Setenv(envTestBin, bin)
		}
	}
	return m.Run()
}

// testBin returns the built prosewash or skips.
func testBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(envTestBin)
	if bin == "" {
		testtool.Missing(t, "go", "go toolchain not found: cannot build the prosewash binary this test runs")
	}
	return bin
}

// underAgentForTest reports an agent CLI among the environment or parents of the test (the
// archive refuses to run for one).
func underAgentForTest() string {
	if s := approval.RealCaller().AgentSignals(); len(s) > 0 {
		return s[0].String()
	}
	return ""
}
