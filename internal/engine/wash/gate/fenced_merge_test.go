package gate

import "testing"

// TestMergedCodeLines: consecutive code lines said on one new code line with exactly their
// words, in their order, pass; a word left out, a word added, two descriptions traded, or lines
// that were not consecutive are dropped code lines.
func TestMergedCodeLines(t *testing.T) {
	const open, end = "Commit format:\n\n```\n", "```\n"
	list := open + "Kinds:\n- add: new command\n- mend: repair of a defect\n- tidy: cleanup\n" + end
	comments := "```bash\n# Prefixes:\n# - spike/  -> experiment\n# - hotfix/ -> urgent repair\n```\n"
	for _, c := range []editClass{
		{"list said on one line", "", list, open + "Kinds: add (new command), mend (repair of a defect), tidy (cleanup)\n" + end},
		{"comment lines said on one comment line", "", comments, "```bash\n# Prefixes: spike/ (experiment), hotfix/ (urgent repair)\n```\n"},
		{"an item left out of the merged line", TypeFenced, list, open + "Kinds: add (new command), mend (repair of a defect)\n" + end},
		{"a word added to the merged line", TypeFenced, list, open + "Kinds: add (no new command), mend (repair of a defect), tidy (cleanup)\n" + end},
		{"two descriptions traded", TypeFenced, list, open + "Kinds: add (repair of a defect), mend (new command), tidy (cleanup)\n" + end},
		{"lines not consecutive", TypeFenced, open + "- add: new\nmake\n- tidy: cleanup\n" + end, open + "make\n- add: new - tidy: cleanup\n" + end},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}
