package gate

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// classCase is one token class with a loss the gate must block and a pure-fat cut it must pass.
type classCase struct {
	class string
	orig  string
	lossy string // must block with a drop of class
	fat   string // must pass
	skip  checks // the single check whose removal lets the loss through
}

var classCases = []classCase{
	{TypeWikilink,
		"See [[Auth Flow|auth]] for details.\nSee [[Auth Flow|auth]] for details.\n",
		"See auth for details.\n",
		"See [[Auth Flow|the auth flow]] for details.   \n",
		checks{skipType: map[string]bool{TypeWikilink: true}}},
	{TypeDate,
		"- Released 2024-03-05 to staging.\n- Released 2024-03-05 to staging.\n",
		"- Released recently to staging.\n",
		"- Released 5-Mar-2024 to staging.\n",
		checks{skipType: map[string]bool{TypeDate: true}}},
	{TypeVersion,
		"Requires go 1.22.3 and node v20.\n\n\n\nRequires go 1.22.3 and node v20.\n",
		"Requires go and node v20.\n",
		"Requires go 1.22.3 and node v20.\n",
		checks{skipType: map[string]bool{TypeVersion: true}}},
	{TypeLink,
		"Read [the docs](https://example.com/guide \"Guide\") first.\n",
		"Read the docs first.\n",
		"Read [the guide](<https://example.com/guide> \"Guide\") first, or https://example.com/guide.\n",
		checks{skipType: map[string]bool{TypeLink: true}}},
	{TypeQuote,
		"The owner said “never force-push main” twice.\n",
		"The owner said never force-push main twice.\n",
		"The owner said \"never force-push main\" twice.\n",
		checks{skipType: map[string]bool{TypeQuote: true}}},
	{TypeNumber,
		"- retry 3 times\n- timeout 30s\n",
		"- retry 5 times\n- timeout 30s\n",
		"- retry 3 times   \n- timeout 30s\n- retry 3 times\n",
		checks{skipType: map[string]bool{TypeNumber: true}}},
	{TypeCode,
		"Run `make test` before pushing.\n",
		"Run `make check` before pushing.\n",
		"Run `make test` before pushing.  \n",
		checks{skipType: map[string]bool{TypeCode: true}}},
	{TypeFenced,
		"```sh\nrm -rf build\nmake all\n```\n",
		"```sh\nmake all\n```\n",
		"```sh\n  rm   -rf build\nmake all\n```\n",
		checks{skipType: map[string]bool{TypeFenced: true}}},
	{TypeIndented,
		"Build:\n\n    make -j4 all\n    make install\n",
		"Build:\n\n    make install\n",
		"Build:\n\n        make   -j4 all\n    make install\n",
		checks{skipType: map[string]bool{TypeIndented: true}}},
	{TypeFrontKey,
		"---\nname: deploy\ntype: feedback\n---\nbody\n",
		"---\nname: deploy\n---\nbody\n",
		"---\ntype: feedback\nname: \"deploy\"\n---\nbody\n",
		checks{skipType: map[string]bool{TypeFrontKey: true}}},
	{TypeBindingSwap,
		"- pass 878 / fail 0\n",
		"- pass 0 / fail 878\n",
		"- fail 0 / pass 878\n",
		checks{noBinding: true}},
}

func hasType(drops []Drop, typ string) bool {
	for _, d := range drops {
		if d.Type == typ {
			return true
		}
	}
	return false
}

func TestClassesBlockLossAndPassFat(t *testing.T) {
	for _, c := range classCases {
		t.Run(c.class, func(t *testing.T) {
			drops := Check([]byte(c.orig), []byte(c.lossy))
			if !hasType(drops, c.class) {
				t.Errorf("loss not blocked: drops %v", drops)
			}
			if d := Check([]byte(c.orig), []byte(c.fat)); len(d) != 0 {
				t.Errorf("pure-fat cut blocked: %v", d)
			}
		})
	}
}

// TestMutationEachCheckStopsItsLoss disables one check at a time and shows the very loss it
// blocked now passes: each check is what stops its loss, not some other check by accident.
func TestMutationEachCheckStopsItsLoss(t *testing.T) {
	for _, c := range classCases {
		t.Run(c.class, func(t *testing.T) {
			if !hasType(checkWith([]byte(c.orig), []byte(c.lossy), checks{}), c.class) {
				t.Fatalf("baseline does not block")
			}
			if hasType(checkWith([]byte(c.orig), []byte(c.lossy), c.skip), c.class) {
				t.Fatalf("still blocked with the check disabled")
			}
		})
	}
	t.Run("multiset", func(t *testing.T) {
		// Counted per section: the value leaves the Staging section although Production keeps it.
		orig := "## Production\n- timeout 30s\n## Staging\n- timeout 30s\n## Dev\n- timeout 30s\n"
		lossy := "## Production\n- timeout 30s\n## Staging\n- no timeout\n## Dev\n- timeout 30s\n"
		d := checkWith([]byte(orig), []byte(lossy), checks{})
		if len(d) != 1 || d[0].Key() != "number:30s" || d[0].Occurrences != [2]int{3, 2} || d[0].Line != 4 {
			t.Fatalf("baseline drops %v", d)
		}
		if d := checkWith([]byte(orig), []byte(lossy), checks{noMultiset: true}); len(d) != 0 {
			t.Fatalf("presence-only still blocks: %v", d)
		}
	})
	t.Run("front-incomplete", func(t *testing.T) {
		orig := "---\nname: a\n---\nx\n"
		lossy := "---\rname: a\r---\rx\n"
		if !hasType(checkWith([]byte(orig), []byte(lossy), checks{}), TypeFrontIncomplete) {
			t.Fatal("baseline does not report unverifiable result")
		}
		if hasType(checkWith([]byte(orig), []byte(lossy), checks{noFront: true}), TypeFrontIncomplete) {
			t.Fatal("still reported")
		}
	})
}

func TestDistinctLineSemantics(t *testing.T) {
	tests := []struct {
		name, orig, result string
		want               []string
	}{
		{"dup line free", "a 12\nb\na 12\n", "a 12\nb\n", nil},
		{"dup line with trailing space free", "a 12  \nb\na 12\n", "a 12\nb\n", nil},
		{"two on one line", "pass 878 fail 878\n", "pass 878 fail 0\n", []string{"number:878"}},
		{"fewer mentions in one section", "x 5 b\nz 5 c\n", "x and z 5\n", nil},
		{"value merged into another section's statement with its subject", "# A\nx 5 b\n# B\nz 5 c\n", "# A\nx and z 5\n# B\nz c\n", nil},
		{"value dropped from its statement, still said elsewhere in the section", "# A\n- dev port 3003\n- prod port 3003\n", "# A\n- dev port 3000\n- prod port 3003\n", []string{"number:3003"}},
		{"exact repeat removed", "# A\n- run `make` first\n- lint\n- run `make` first\n", "# A\n- run `make` first\n- lint\n", nil},
		{"a mention replaced", "# A\npoll every 30 min\nwait 30 minutes\n", "# A\npoll every 3 min\nwait 30 minutes\n", []string{"number:30min"}},
		{"split into two lines", "pass 7 and fail 7\n", "pass 7\nfail 7\n", nil},
		{"same heading path merges", "# A\nx 5\n# A\nz 5\n", "# A\nx 5 z\n", nil},
		{"moved within file", "a 1\nb 2\n", "b 2\na 1\n", nil},
		{"renumbered list", "2. second\n3. third\n", "1. second\n2. third\n", nil},
		{"an item dropped from a renumbered list", "1. first\n2. second\n3. third\n", "1. first\n2. third\n", []string{"name:second"}},
		{"heading number", "## 2. Setup\n", "## 3. Setup\n", nil},
		{"heading year is a number", "## 2024 Plans\n", "## Plans\n", []string{"number:2024"}},
		{"range not sign", "use 15-20 workers\n", "use 15-20 workers\n", nil},
		{"sign matters", "delta -43%\n", "delta 43%\n", []string{"number:-43%"}},
		{"unit matters", "timeout 30s\n", "timeout 30m\n", []string{"number:30s"}},
		{"comma grouping restyle", "rows 44,192\n", "rows 44192\n", nil},
		{"date inside url not date", "see https://x.io/2024-01-02/a\n", "see https://x.io/2024-01-02/a\n", nil},
		{"url digits not numbers", "[a](https://x.io/p/123)\n", "<https://x.io/p/123>\n", nil},
		{"version not number", "v1.2.3\n", "v1.2.4\n", []string{"version:v1.2.3"}},
		{"glued digits are names, not numbers", "use sha256 on x86\n", "use sha1 on arm\n", []string{"name:sha256", "name:x86"}},
		{"cjk glued number", "在庫は5件\n", "在庫は6件\n", []string{"number:5"}},
		{"footnote label", "fact[^1]\n\n[^1]: note\n", "fact[^2]\n\n[^2]: note\n", nil},
		{"code digits not numbers", "`port 8080`\n", "`port 8080`\n", nil},
		{"month precision date", "since March 2024\n", "since 2024-03\n", nil},
		{"slash date verbatim", "on 01/02/2025\n", "on 02/01/2025\n", []string{"number:01/02/2025"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Check([]byte(tt.orig), []byte(tt.result)) {
				got = append(got, d.Key())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("drops %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBindingSwap(t *testing.T) {
	tests := []struct {
		name, orig, result string
		swap               bool
	}{
		{"subject after value", "878 passed, 0 failed\n", "0 passed, 878 failed\n", true},
		{"dates swapped", "created 2024-01-02, expires 2025-01-02\n", "created 2025-01-02, expires 2024-01-02\n", true},
		{"reordered pairs", "pass 878 / fail 0\n", "fail 0 / pass 878\n", false},
		{"stopword inserted", "878 passed, 0 failed\n", "878 passed and 0 failed\n", false},
		{"different words", "pass 878 / fail 0\n", "ok 878 / ko 0\n", false},
		{"same value twice", "min 5 max 5\n", "max 5 min 5\n", false},
		{"added contradicting line", "pass 878 / fail 0\n", "pass 878 / fail 0\npass 0 / fail 878\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Check([]byte(tt.orig), []byte(tt.result))
			if got := hasType(d, TypeBindingSwap); got != tt.swap {
				t.Errorf("swap = %v, want %v (%v)", got, tt.swap, d)
			}
		})
	}
	d := Check([]byte("x\n- pass 878 / fail 0\n"), []byte("x\n- pass 0 / fail 878\n"))
	if len(d) != 1 || d[0].Key() != "binding-swap:pass=878,fail=0" || d[0].Line != 2 || !strings.Contains(d[0].Note, "pass=0,fail=878") {
		t.Errorf("swap drop = %+v", d)
	}
}

func TestRenderAndVerify(t *testing.T) {
	d := Verify([]byte("# A\na 12\n# B\nb 12\n"), []byte("# A\na 12\n# B\nb\n"))
	got := Render(d)
	want := "number:12 (line 4 \"b 12\" → line 4 \"b\"; 12 missing)\n"
	if got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	if len(Verify([]byte("same\n"), []byte("same\n"))) != 0 {
		t.Error("identical files report drops")
	}
}

func TestCheckSet(t *testing.T) {
	a := []byte("# A\n- deploy on 2024-05-01\n")
	b := []byte("# B\n- owner [[Ops]] since v2\n")
	t.Run("merge and delete pass", func(t *testing.T) {
		v := CheckSet([]Change{
			{Path: "A.md", Kind: Rewrite, Orig: a, Sources: []Source{{"B.md", b}}, Result: []byte("# A\n- deploy on 2024-05-01\n- owner [[Ops]] since v2\n")},
			{Path: "B.md", Kind: Delete, Orig: b},
		}, nil)
		if !v.OK {
			t.Fatalf("blocked: %v", v.Blocking())
		}
	})
	t.Run("merge loses a source token", func(t *testing.T) {
		v := CheckSet([]Change{
			{Path: "A.md", Kind: Rewrite, Orig: a, Sources: []Source{{"B.md", b}}, Result: []byte("# A\n- deploy on 2024-05-01\n- owner [[Ops]]\n")},
			{Path: "B.md", Kind: Delete, Orig: b},
		}, nil)
		bl := v.Blocking()
		if v.OK || len(bl) != 2 {
			t.Fatalf("want 2 blocking drops, got %v", bl)
		}
		for _, d := range bl {
			if d.Key() != "version:v2" || d.Source != "B.md" {
				t.Errorf("unexpected drop %+v", d)
			}
		}
		if checkSet([]Change{
			{Path: "A.md", Kind: Rewrite, Orig: a, Sources: []Source{{"B.md", b}}, Result: a},
		}, nil, checks{noUnion: true}).OK != true {
			t.Error("noUnion hook does not disable the union check")
		}
	})
	t.Run("delete must reappear or be approved", func(t *testing.T) {
		ch := []Change{{Path: "B.md", Kind: Delete, Orig: b}}
		v := CheckSet(ch, nil)
		if v.OK {
			t.Fatal("delete of unique tokens passed")
		}
		keys := map[string]bool{}
		for _, d := range v.Blocking() {
			keys[d.Key()] = true
		}
		if !keys["wikilink:Ops"] || !keys["version:v2"] {
			t.Fatalf("missing keys: %v", keys)
		}
		if !CheckSet(ch, keys).OK {
			t.Fatal("approved delete still blocked")
		}
		if !checkSet(ch, nil, checks{noDelete: true}).OK {
			t.Fatal("noDelete hook does not disable the delete check")
		}
	})
	t.Run("verbatim move across files", func(t *testing.T) {
		orig := []byte("# Index\n- note 42 about caches\n")
		ch := []Change{
			{Path: "MEMORY.md", Kind: Rewrite, Orig: orig, Result: []byte("# Index\n")},
			{Path: "overflow.md", Kind: Create, Result: []byte("- note 42 about caches\n")},
		}
		if v := CheckSet(ch, nil); !v.OK {
			t.Fatalf("verbatim move blocked: %v", v.Blocking())
		}
		if checkSet(ch, nil, checks{noMoved: true}).OK {
			t.Fatal("without move accounting the move should block")
		}
		ch[1].Result = []byte("- note 43 about caches\n")
		if CheckSet(ch, nil).OK {
			t.Fatal("altered move passed")
		}
	})
	t.Run("scoped approval", func(t *testing.T) {
		ch := []Change{
			{Path: "x.md", Kind: Rewrite, Orig: []byte("[a](old.md)\n"), Result: []byte("[a](new/old.md)\n"), Approved: map[string]bool{"link:old.md": true}},
			{Path: "y.md", Kind: Rewrite, Orig: []byte("[b](old.md)\n"), Result: []byte("b\n")},
		}
		v := CheckSet(ch, nil)
		if v.OK || len(v.Files[0].Blocking) != 0 || len(v.Files[0].Approved) != 1 || len(v.Files[1].Blocking) != 1 {
			t.Fatalf("scoped approval leaked or failed: %+v", v)
		}
	})
}

// genMemory builds a realistic random memory file: headings, bullets with numbers, dates,
// versions, links, code spans, quotes, fences, indented code, tables and duplicates.
func genMemory(r *rand.Rand, n int) string {
	words := []string{"deploy", "cache", "owner", "retry", "timeout", "build", "test", "lint", "auth", "index", "the", "and", "uses"}
	vals := []string{"3", "42", "878", "0", "-12%", "30s", "2024-03-05", "v1.2.3", "0.92", "44,192", "12:30", "5k"}
	var b strings.Builder
	if r.Intn(3) == 0 {
		b.WriteString("---\nname: note\ndescription: \"a note\"\n---\n")
	}
	var lines []string
	for i := 0; i < n; i++ {
		var l string
		switch r.Intn(16) {
		case 0:
			l = "## " + words[r.Intn(len(words))] + " " + vals[r.Intn(3)]
		case 1:
			l = ""
		case 2:
			l = "```sh\n" + words[r.Intn(len(words))] + " --n " + vals[r.Intn(len(vals))] + "\n```"
		case 3:
			l = "\n    " + words[r.Intn(len(words))] + " " + vals[r.Intn(len(vals))] + "\n"
		case 4:
			l = "| k | v |\n|---|---|\n| " + words[r.Intn(len(words))] + " | " + vals[r.Intn(len(vals))] + " |"
		case 5:
			if len(lines) > 0 {
				l = lines[r.Intn(len(lines))]
			}
		case 6:
			l = fmt.Sprintf("%d. %s `%s` see [doc](docs/%s.md)", r.Intn(9)+1, words[r.Intn(len(words))], words[r.Intn(len(words))], words[r.Intn(len(words))])
		case 7:
			l = fmt.Sprintf("- “%s %s” per [[%s]] on %s", words[r.Intn(len(words))], words[r.Intn(len(words))], words[r.Intn(len(words))], vals[6])
		case 8:
			rules := []string{"Never %s the %s.", "ONLY %s with %s, NEVER npm", "Prefer `%s` over `%s`", "必须先%s `%s`。", "- `%s` を%sしない。", "Use Vite for %s, webpack for %s", "wait ~3-5 minutes before %s %s", "%s: E-023 at example.chat/%s, ask @mira"}
			l = fmt.Sprintf(rules[r.Intn(len(rules))], words[r.Intn(len(words))], words[r.Intn(len(words))])
		case 9:
			if r.Intn(4) == 0 {
				l = "```" // sometimes stray
			}
		default:
			l = fmt.Sprintf("- %s %s %s %s", words[r.Intn(len(words))], vals[r.Intn(len(vals))], words[r.Intn(len(words))], vals[r.Intn(len(vals))])
			if r.Intn(4) == 0 {
				l += "  "
			}
		}
		lines = append(lines, l)
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestPropertyDeterministic: the same comparison gives the same drops, in the same order, every
// time (map iteration must never leak into a verdict), and an identical copy of a file never
// blocks, over generated memory and over the real excerpts of the hand-edit set with lines
// deleted at random.
func TestPropertyDeterministic(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	var texts []string
	for i := 0; i < 60; i++ {
		texts = append(texts, genMemory(r, 5+r.Intn(40)))
	}
	seen := map[string]bool{}
	for _, c := range loadEdits(t) {
		if !seen[string(c.old)] {
			seen[string(c.old)] = true
			texts = append(texts, string(c.old))
		}
	}
	for _, x := range texts {
		if d := checkWith([]byte(x), []byte(strings.Clone(x)), checks{noFront: true}); len(d) != 0 {
			t.Fatalf("an identical copy blocks: %v\n%s", d, x)
		}
		lines := strings.SplitAfter(x, "\n")
		for k := 0; k < 2 && len(lines) > 1; k++ {
			cut := append([]string(nil), lines...)
			i := r.Intn(len(cut))
			cut = append(cut[:i], cut[i+1:]...)
			y := strings.Join(cut, "")
			first := Render(Check([]byte(x), []byte(y)))
			for n := 0; n < 2; n++ {
				if again := Render(Check([]byte(x), []byte(y))); again != first {
					t.Fatalf("drops differ between runs:\n%s\n%s", first, again)
				}
			}
			if inv1, inv2 := Render(Inventory([]byte(y)).tokensForTest()), Render(Inventory([]byte(y)).tokensForTest()); inv1 != inv2 {
				t.Fatal("inventory not deterministic")
			}
		}
	}
}

// tokensForTest renders an inventory's tokens as drops, for comparing two inventories.
func (inv *Inv) tokensForTest() []Drop {
	var d []Drop
	for _, tc := range inv.Tokens() {
		d = append(d, Drop{Token: tc.Token, Occurrences: [2]int{tc.Count, tc.Count}})
	}
	return d
}

func TestPropertySelfAndDuplicateRemoval(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		x := genMemory(r, 5+r.Intn(40))
		if d := Check([]byte(x), []byte(x)); len(d) != 0 {
			t.Fatalf("Check(x, x) = %v for\n%s", d, x)
		}
		// Duplicate some prose lines right after themselves, then remove the duplicates again:
		// the gate must call the removal free.
		lines := strings.SplitAfter(x, "\n")
		var dup strings.Builder
		for _, l := range lines {
			dup.WriteString(l)
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "- ") && r.Intn(2) == 0 {
				dup.WriteString(l)
			}
		}
		if d := Check([]byte(dup.String()), []byte(x)); len(d) != 0 {
			t.Fatalf("duplicate removal blocked: %v", d)
		}
	}
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte("- pass 878 / fail 0\n"), []byte("- pass 0 / fail 878\n"))
	f.Add([]byte("ONLY use pnpm, NEVER npm.\nPrefer `a` over `b`; wait ~3-5 minutes (E-023).\n"), []byte("use npm. Prefer `b` over `a`.\n"))
	f.Add([]byte("---\nglobs: **/*\nalwaysApply: false\n---\n- Windows から直接 `git commit` しない。\n- 必须先调用 `context7`\n"), []byte("x\n```\n- example.chat/team @mira\n"))
	f.Add([]byte("- a\n  ```svelte\n  <br />\n\nNext **Label:** Vite for docs, C17\n"), []byte("```\n```bash\nnpm i\n```\n"))
	f.Add([]byte("---\nname: x\n---\n```\na\n```\n    b\n"), []byte("`x` [[y]] \"q\" 2024-01-02 v1.2.3"))
	f.Add([]byte("[a](<b c>) <http://x> www.y.z 1,234.5% -3 12:00"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if d := Check(a, a); len(d) != 0 {
			t.Fatalf("Check(a, a) = %v", d)
		}
		if d := checkWith(a, append([]byte(nil), a...), checks{noFront: true}); len(d) != 0 {
			t.Fatalf("an identical copy blocks: %v", d)
		}
		d := Check(a, b)
		if again := Render(Check(a, b)); again != Render(d) {
			t.Fatalf("not deterministic:\n%s\n%s", Render(d), again)
		}
		for i := 1; i < len(d); i++ {
			if d[i].Line < d[i-1].Line && d[i].Source == d[i-1].Source {
				t.Fatalf("drops not sorted: %v", d)
			}
		}
		_ = Render(d)
		_ = CheckSet([]Change{{Path: "a", Kind: Rewrite, Orig: a, Result: b}, {Path: "b", Kind: Delete, Orig: b}}, nil)
	})
}

func bigFile(size int) []byte {
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(genMemory(r, 200))
	}
	return []byte(b.String())
}

func BenchmarkCheck1MB(b *testing.B) {
	orig := bigFile(1 << 20)
	result := append([]byte(nil), orig[:len(orig)/2]...)
	b.SetBytes(int64(len(orig)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Check(orig, result)
	}
}

func BenchmarkInventory1MB(b *testing.B) {
	orig := bigFile(1 << 20)
	b.SetBytes(int64(len(orig)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Inventory(orig)
	}
}
