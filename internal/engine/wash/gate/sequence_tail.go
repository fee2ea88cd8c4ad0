package gate

import "strings"

// A Japanese sequence ending closes its clause when a comma follows it ("実装を行ってから、
// ドキュメントを分析する": implement, then analyse): what it orders after it is the rest of its
// sentence, not the rest of its clause.

// seqSegsOf returns the parts clause ci of cls orders: its own (clauseInfo.seqSegs), or, for a
// sequence word that ends a run of Chinese or Japanese at the end of its clause, the words
// before the word and the words of the clauses after it in its sentence.
func seqSegsOf(cls []clauseInfo, ci int) [][]string {
	cl := cls[ci]
	if cl.seqWord == "" || len(cl.seqSegs) != 1 || cl.seqAt != len(cl.toks)-1 {
		return cl.seqSegs
	}
	t := cl.toks[cl.seqAt]
	body := strings.TrimRight(t.text, "、，,。 ")
	if t.kind != tCJK || !strings.HasSuffix(body, cl.seqWord) {
		return cl.seqSegs
	}
	var after []string
	for _, n := range cls[ci+1:] {
		if n.sentence != cl.sentence {
			break
		}
		after = append(after, n.stems...)
	}
	if len(after) == 0 {
		return cl.seqSegs
	}
	return [][]string{cl.seqSegs[0], after}
}
