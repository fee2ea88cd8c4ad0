package lane

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/testtool"
)

// The brief pays for itself: on every real repository of the held-out corpus whose memory
// loads 5,000 tokens or more (a full pass is worth it on memory of that size, not smaller), the
// rendered brief costs under a tenth of the memory it briefs on; on every repository its cost
// is a fixed part and a few tokens a file and a candidate, and the band's run cost counts it.
func TestBriefUnderATenthOfTheMemory(t *testing.T) {
	dir := filepath.Join(testtool.RepoRoot(t), "testdata", "corpus", "memory-heldout")
	idx, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	byRepo := map[string][][2]string{}
	sc := bufio.NewScanner(idx)
	sc.Scan() // header
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 2 {
			continue
		}
		stored := strings.ReplaceAll(f[0], "/", "__") + "__" + strings.ReplaceAll(f[1], "/", "__")
		byRepo[f[0]] = append(byRepo[f[0]], [2]string{f[1], stored})
	}
	measured := 0
	for repo, files := range byRepo {
		f := newFixture(t)
		for _, p := range files {
			b, err := os.ReadFile(filepath.Join(dir, p[1]))
			if err != nil {
				continue
			}
			f.write(p[0], string(b))
		}
		b, err := f.lane.Brief()
		if err != nil {
			t.Fatalf("%s: %v", repo, err)
		}
		memory := b.Verdict.Footprint
		cost := gauge.Estimate([]byte(b.Markdown()))
		findings := 0
		for _, bf := range b.Files {
			findings += len(bf.Findings) + len(bf.Flags)
		}
		if bound := 400 + 40*len(b.Files) + 15*findings + 15*len(b.Recall); cost > bound {
			t.Errorf("%s: the brief costs ~%d tok for %d file(s), %d on demand and %d candidate(s): over %d", repo, cost, len(b.Files), len(b.Recall), findings, bound)
		}
		if memory < 5000 {
			continue
		}
		measured++
		t.Logf("%s: memory ~%d tok, brief ~%d tok (%.1f%%)", repo, memory, cost, 100*float64(cost)/float64(memory))
		if cost*10 > memory {
			t.Errorf("%s: the brief costs ~%d tok for ~%d tok of memory: over a tenth", repo, cost, memory)
		}
		g, err := f.lane.Gauge(GaugeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Measure.BriefTokens <= 0 || g.Verdict.RunCost < g.Measure.BriefTokens {
			t.Errorf("%s: the run cost %d does not count the brief (%d)", repo, g.Verdict.RunCost, g.Measure.BriefTokens)
		}
	}
	if measured < 3 {
		t.Fatalf("only %d repositories with 5,000 tokens of memory: the check proves nothing", measured)
	}
}
