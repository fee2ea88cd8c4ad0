package gate

import "testing"

// FuzzCheckCounts holds Check to what the two inventories say, read
// through the public Inventory API: every value the result carries on
// fewer distinct lines than the original (for code and keys: not at all)
// is reported, and nothing else is, but binding swaps and unverifiable
// front matter. Check(a, a), FuzzCheck's identity, is true by a byte
// comparison before any check runs; this property is not.
func FuzzCheckCounts(f *testing.F) {
	f.Add([]byte("- pass 878 / fail 0\n"), []byte("- pass 0 / fail 878\n"))
	f.Add([]byte("v1.2.3 on 2024-01-02, see [[note]] and `x`\n"), []byte("v1.2.3\n"))
	f.Add([]byte("```\ncode\n```\n    indented\n"), []byte("text\n"))
	f.Add([]byte("[a](http://x.y) 12 km\n12 km\n"), []byte("[a](http://x.y) 12 km\n"))
	f.Add([]byte("\"quoted words\" 3.5%\n"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		o, r := Inventory(a), Inventory(b)
		drops := Check(a, b)
		dropped := map[Token]bool{}
		for _, d := range drops {
			dropped[d.Token] = true
			if d.Type == TypeBindingSwap || d.Type == TypeFrontIncomplete {
				continue
			}
			if o.Count(d.Token) == 0 {
				t.Fatalf("drop %s is not in the original", d)
			}
			if r.Count(d.Token) >= o.Count(d.Token) && !setSemantics(d.Type) {
				t.Fatalf("drop %s, but the result has it %d times, the original %d", d, r.Count(d.Token), o.Count(d.Token))
			}
			if setSemantics(d.Type) && r.Count(d.Token) > 0 {
				t.Fatalf("drop %s, but the result has it", d)
			}
		}
		for _, tc := range o.Tokens() {
			rc := r.Count(tc.Token)
			lost := rc < tc.Count
			if setSemantics(tc.Type) {
				lost = rc == 0
			}
			if lost && !dropped[tc.Token] {
				t.Fatalf("%s is on %d distinct lines of the original, %d of the result, and was not reported:\n%q\n%q", tc.Token.Key(), tc.Count, rc, a, b)
			}
		}
	})
}
