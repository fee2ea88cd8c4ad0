package agent

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// initBudget is how many allocations a prosewash package may make while
// the binary starts: every hook runs every package's initialisers, so a
// regular expression compiled or a table built at start-up is paid after
// every agent write. Such work belongs where it is used (compiled there,
// or behind sync.OnceValue). The wash gate's lexicon maps are the one
// table still built at start-up (0.02 ms).
var initBudget = map[string]int{
	"github.com/prosewash/prosewash/internal/engine/wash/gate": 120,
}

const defaultInitBudget = 16

// TestStartupInitialisesLittle runs the built binary with
// GODEBUG=inittrace=1 and holds each prosewash package's initialisers to
// its allocation budget.
func TestStartupInitialisesLittle(t *testing.T) {
	cmd := exec.Command(hooktest.Bin(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("prosewash version: %v\n%s", err, stderr.Bytes())
	}
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, T ms clock, N bytes, N allocs
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		seen++
		pkg := f[1]
		if !strings.HasPrefix(pkg, "github.com/prosewash/prosewash/") {
			continue
		}
		allocs, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		budget, ok := initBudget[pkg]
		if !ok {
			budget = defaultInitBudget
		}
		if allocs > budget {
			t.Errorf("%s allocates %d times at start-up (budget %d): build its tables and regular expressions where they are used", pkg, allocs, budget)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines from prosewash version:\n%s", stderr.Bytes())
	}
}
