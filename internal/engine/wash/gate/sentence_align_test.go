package gate

import "testing"

func TestPolIndexKeepsAndContradicts(t *testing.T) {
	orig := readSentences("Never push directly to the main branch")
	if len(orig.pol) != 1 {
		t.Fatalf("rules: %+v", orig.pol)
	}
	f := orig.pol[0]
	kept := readSentences("Do not push straight to the main branch")
	if x := newPolIndex(kept.pol, kept.clauses); !x.keeps(f) || x.contradicting(f) != 0 {
		t.Errorf("a reworded prohibition keeps the rule")
	}
	stripped := readSentences("Push directly to the main branch")
	if x := newPolIndex(stripped.pol, stripped.clauses); x.keeps(f) || x.contradicting(f) != 1 {
		t.Errorf("the rule stripped of its rule word is not kept and is contradicted")
	}
	if need(3) != 2 || need(4) != 3 {
		t.Errorf("need: two thirds rounded up")
	}
}
