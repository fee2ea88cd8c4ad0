package gate

import "testing"

// TestSplitComment: a code line is cut at the first comment marker of its fence's language
// that stands at the start or after whitespace, outside quotes; a step number stays with the
// code.
func TestSplitComment(t *testing.T) {
	for _, c := range []struct {
		lang, line, code, comment string
	}{
		{"bash", "make lint # fast, no network", "make lint", "fast, no network"},
		{"bash", `echo "a # b" # prints a hash`, `echo "a # b"`, "prints a hash"},
		{"bash", "echo ${#list[@]}", "echo ${#list[@]}", ""},
		{"bash", "# 3. push the tag", " #3.", "push the tag"},
		{"python", "n = total // size  # pages", "n = total // size", "pages"},
		{"go", "x := f() // never nil", "x := f()", "never nil"},
		{"go", `url := "http://host/x"`, `url := "http://host/x"`, ""},
		{"sql", "SELECT 1 -- probe", "SELECT 1", "probe"},
		{"ini", "port = 80 ; default", "port = 80", "default"},
		{"markdown", "# Title", "# Title", ""},
		{"", "run --fast // quick mode", "run --fast", "quick mode"},
	} {
		t.Run(c.lang+" "+c.line, func(t *testing.T) {
			code, comment := splitComment(c.line, commentMarkers(c.lang))
			if code != c.code || comment != c.comment {
				t.Errorf("split %q, %q; want %q, %q", code, comment, c.code, c.comment)
			}
		})
	}
}

// TestFencedCommentClasses: a code line whose code is kept and whose comment is reworded in
// place is compared as a statement: the rewording keeping its facts passes; a comment that
// loses a value, a condition or its order, a changed command, a renumbered step and two
// steps' comments traded block.
func TestFencedCommentClasses(t *testing.T) {
	const open, end = "Run:\n\n```bash\n", "```\n"
	for _, c := range []editClass{
		{"trailing comment reworded", "", open + "npm test # runs the unit tests with Vitest\n" + end, open + "npm test # unit tests (Vitest)\n" + end},
		{"line comment reworded", "", open + "# pick the ref of the release commit (main by default)\ngit fetch origin\n" + end,
			open + "# the release commit's ref, main by default\ngit fetch origin\n" + end},
		{"comment added", "", open + "make build\n" + end, open + "make build # release binary\n" + end},
		{"go comment reworded", "", "```go\nctx := context.Background() // the root context, never cancelled\n```\n",
			"```go\nctx := context.Background() // root context: never cancelled\n```\n"},
		{"value lost from the comment", TypeNumber, open + "sleep 5 # give the database 30 seconds to start\n" + end, open + "sleep 5 # give the database time to start\n" + end},
		{"condition lost from the comment", TypeCondition, open + "make seed # only on a fresh database\n" + end, open + "make seed # on a fresh database\n" + end},
		{"order lost from the comment", TypeOrder, open + "# build first, then sign, then upload\nmake release\n" + end,
			open + "# upload first, then build, then sign\nmake release\n" + end},
		{"command changed, comment kept", TypeFenced, open + "npm test # unit tests\n" + end, open + "npm run test:e2e # unit tests\n" + end},
		{"step renumbered", TypeFenced, open + "# 1. build\nmake\n# 2. test\nmake test\n" + end, open + "# 2. build\nmake\n# 1. test\nmake test\n" + end},
		{"two steps' comments traded", TypeFenced, "```python\n# 1. standard library\nimport os\n\n# 2. third-party packages\nimport requests\n```\n",
			"```python\n# 1. third-party packages\nimport os\n\n# 2. standard library\nimport requests\n```\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			drops := Check([]byte(c.old), []byte(c.new))
			switch {
			case c.typ == "" && len(drops) > 0:
				t.Errorf("honest edit blocked: %v", drops)
			case c.typ != "" && !hasType(drops, c.typ):
				t.Errorf("not blocked by %s; drops %v", c.typ, drops)
			}
		})
	}
}
