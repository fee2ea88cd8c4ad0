package gate_test

import (
	"fmt"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

// Check is the fidelity gate: a rewrite of a memory file may cut words and
// repetition, never a fact. Deleting a line that says the same again is
// free; losing a command, a number or a "never" is a drop, which blocks
// the rewrite unless someone approves that very key.
func ExampleCheck() {
	orig := []byte("# Build\n\n- Run `make check` before every commit; it takes about 6 min.\n- Run `make check` before every commit; it takes about 6 min.\n- Never push to main.\n")

	shorter := []byte("# Build\n\n- Run `make check` before every commit; it takes about 6 min.\n- Never push to main.\n")
	fmt.Println("repetition cut:", len(gate.Check(orig, shorter)), "drops")

	lossy := []byte("# Build\n\n- Run the checks before committing.\n- Push to main.\n")
	for _, d := range gate.Check(orig, lossy) {
		fmt.Printf("line %d: %s\n", d.Line, d.Key())
	}
	// Output:
	// repetition cut: 0 drops
	// line 3: code:make check
	// line 3: condition:per commit
	// line 3: number:6min
	// line 5: polarity:Never push to main.
}
