package gate

import (
	"slices"
	"strings"
	"testing"
)

// TestFrenchNePlus: "plus" after a "ne" or an elided "n'" up to three words before it is the
// negation "ne … plus"; "plus" alone is "more".
func TestFrenchNePlus(t *testing.T) {
	for _, c := range []struct {
		words []string
		neg   bool
	}{
		{[]string{"ne", "plus", "pousser"}, true},
		{[]string{"on", "ne", "le", "fait", "plus"}, true},
		{[]string{"n'utilise", "plus", "npm"}, true},
		{[]string{"ne", "le", "lui", "dis", "plus"}, false}, // four words apart: another clause's
		{[]string{"ajoute", "plus", "de", "tests"}, false},
	} {
		t.Run(strings.Join(c.words, " "), func(t *testing.T) {
			if got := frenchNePlus(c.words, slices.Index(c.words, "plus")); got != c.neg {
				t.Errorf("frenchNePlus(%v) = %v, want %v", c.words, got, c.neg)
			}
		})
	}
}

// TestJaZuNegation: "-ず" on a verb's negative stem (godan a-row, ichidan e-row) at the end of a
// run or before に negates; まず (first), はず (should), かならず (always), ずつ (each) and
// ずっと (all along) do not.
func TestJaZuNegation(t *testing.T) {
	for _, c := range []struct {
		run  string
		verb string // the kanji jaZuVerb returns, "" for no negation
	}{
		{"ファイルは読み込まず", "込"}, // ま: the kanji before the ending
		{"依頼を断らず", "断"},     // ら
		{"確認を忘れずに", "忘"},    // れ, before に
		{"説明を使わず", "使"},     // わ
		{"設定を変えず", "変"},     // え
		{"これはまず", ""},       // まず after a particle: first
		{"動くはず", ""},        // はず: should be
		{"かならず", ""},        // 必ず in kana
		{"一つずつ", ""},        // ずつ: each
		{"ずっと待つ", ""},       // ずっと: all along
	} {
		t.Run(c.run, func(t *testing.T) {
			cl := clauseInfo{toks: []ctok{{tCJK, c.run}}}
			if got := jaZuNegation(c.run); got != (c.verb != "") {
				t.Errorf("jaZuNegation(%q) = %v", c.run, got)
			}
			if got := jaZuVerb(cl); got != c.verb {
				t.Errorf("jaZuVerb(%q) = %q, want %q", c.run, got, c.verb)
			}
		})
	}
}

// TestNegationFormClasses: a "ne … plus" or a "-ず" negation dropped or turned into a binding
// word is a polarity drop; the negation kept, or moved with its verb reworded into another
// clause, is none.
func TestNegationFormClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"fr ne plus dropped", TypePolarity, "- Ne plus pousser directement sur la branche main.", "- Pousser directement sur la branche main."},
		{"fr ne … plus dropped", TypePolarity, "- On ne modifie plus le fichier de configuration à la main.", "- On modifie le fichier de configuration à la main."},
		{"fr ne plus kept", "", "- Ne plus pousser directement sur la branche main.", "- Ne jamais pousser directement sur la branche main."},
		{"ja ず → 必ず", TypePolarity, "- 本番のデータベースには絶対に接続せず、ステージングで確認する。", "- 本番のデータベースには必ず接続し、ステージングで確認する。"},
		{"ja 読まず dropped", TypePolarity, "- ログファイルは読まず、要約だけを使う。", "- ログファイルを読み、要約だけを使う。"},
		{"ja ず kept as ない", "", "- ログファイルは読まず、要約だけを使う。", "- ログファイルは読まないで、要約だけを使う。"},
		{"ja ず moved with its verb reworded", "", "- 依頼が長くても断らず、小さな単位に分けて進める。\n- どんな質問でも拒否しないでください。", "- どんな依頼も拒否せず、長い作業は小さな単位に分けて進める。"},
	})
}
