package gate

import "testing"

// TestRepeatAcrossSectionsClasses: a whole statement removed because a statement of another
// section says it again is no drop; one whose rule the other does not restate, one of whose
// facts the other does not say, and a fact cut from a statement that stays while another
// section still says it all block.
func TestRepeatAcrossSectionsClasses(t *testing.T) {
	const setup = "## Setup\n\n- Run `make bootstrap` once after cloning the repository.\n\n"
	for _, c := range []struct {
		name, typ, old, new string
	}{
		{"repeat removed", "",
			setup + "## Workflow\n\n- After a fresh clone, run `make bootstrap` before anything else.\n- Keep commits small.\n",
			setup + "## Workflow\n\n- Keep commits small.\n"},
		{"its rule not restated", TypePolarity,
			setup + "## CI\n\n- Never run `make bootstrap` on the CI runners.\n- Cache the modules.\n",
			setup + "## CI\n\n- Cache the modules.\n"},
		{"a fact not repeated", TypeCode,
			setup + "## Workflow\n\n- After a fresh clone, run `make bootstrap` and then `make hooks`.\n- Keep commits small.\n",
			setup + "## Workflow\n\n- Keep commits small.\n"},
		{"a fact cut from a statement that stays", TypeCode,
			setup + "## Workflow\n\n- After a fresh clone, run `make bootstrap` before anything else.\n",
			setup + "## Workflow\n\n- After a fresh clone, run it before anything else.\n"},
	} {
		drops := Check([]byte(c.old), []byte(c.new))
		switch {
		case c.typ == "" && len(drops) > 0:
			t.Errorf("%s: honest edit blocked: %v", c.name, drops)
		case c.typ != "" && !hasType(drops, c.typ):
			t.Errorf("%s: not blocked by %s; drops %v", c.name, c.typ, drops)
		}
	}
}
