package gate

import "testing"

// TestNominalBase: a noun in -ification stems as its verb does; other nouns are left alone.
func TestNominalBase(t *testing.T) {
	for _, c := range [][2]string{
		{"modifications", "modify"},
		{"verification", "verifying"},
		{"notifications", "notify"},
		{"specification", "specify"},
	} {
		t.Run(c[0], func(t *testing.T) {
			if a, b := wordStem(c[0]), wordStem(c[1]); a != b {
				t.Errorf("%s stems %q, %s %q", c[0], a, c[1], b)
			}
		})
	}
	if a, b := wordStem("application"), wordStem("apply"); a == b {
		t.Errorf("application and apply stem alike: %q", a)
	}
	checkEditClasses(t, []editClass{
		{"condition reworded by its verb", "", "- Back up the database before modifications to the schema.", "- Back up the database before modifying the schema."},
		{"condition dropped", TypeCondition, "- Back up the database before modifications to the schema.", "- Back up the database."},
	})
}
