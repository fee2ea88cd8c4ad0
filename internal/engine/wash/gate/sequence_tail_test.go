package gate

import "testing"

// TestSequenceTailClasses: a Japanese てから that closes its clause before a comma orders the
// rest of its sentence after it; that order reversed is an order drop, kept it is none.
func TestSequenceTailClasses(t *testing.T) {
	for _, c := range []editClass{
		{"te-kara before a comma reversed", TypeOrder, "- 仕様を確認してから、テストを書く。", "- テストを書いてから、仕様を確認する。"},
		{"te-kara before a comma kept", "", "- 仕様を確認してから、テストを書く。", "- 仕様を確認してからテストを書く。"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}
