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
// or behind sync.OnceValue). The wash gate holds some thirty word tables,
// each behind a sync.OnceValue (its small sets share one, wordsets.go),
// which costs two allocations at start-up and builds the table on first
// use: 55 in all, where the tables built at start-up made 133.
var initBudget = map[string]int{
	"github.com/prosewash/prosewash/internal/engine/wash/gate": 64,
}

const defaultInitBudget = 16

// goldmarkInitBudget holds each package of goldmark (the clean engine's
// GFM reader, linked into every hook) to what its copy under
// third_party/goldmark allocates once its regular expressions and its
// case-folding table, its attribute filters and its default Markdown are
// built where they are used: upstream v1.8.7 allocates 2,049 times in
// extension, 935 in parser and 437 in util at start-up, which made every
// hook start slower; the copy's most is parser's 37.
const goldmarkInitBudget = 40

// TestStartupInitialisesLittle runs the built binary with
// GODEBUG=inittrace=1 and holds each prosewash package's initialisers,
// goldmark's and mvdan.cc/sh's (both patched copies under third_party),
// to its allocation budget.
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
		budget, ok := initBudget[pkg]
		switch {
		case ok:
		case strings.HasPrefix(pkg, "github.com/prosewash/prosewash/"):
			budget = defaultInitBudget
		case strings.HasPrefix(pkg, "github.com/yuin/goldmark"):
			budget = goldmarkInitBudget
		case strings.HasPrefix(pkg, "mvdan.cc/sh/"):
			budget = defaultInitBudget // upstream v3.14.1's fileutil: 104, its two regexps
		default:
			continue
		}
		allocs, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		if allocs > budget {
			t.Errorf("%s allocates %d times at start-up (budget %d): build its tables and regular expressions where they are used", pkg, allocs, budget)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines from prosewash version:\n%s", stderr.Bytes())
	}
}
