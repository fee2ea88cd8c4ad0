package lane

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/providers/ollama"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

// heavyClaude is memory a judge could shrink though Quick finds nothing: a superseded port,
// old dated entries, one of them marked for keeping.
const heavyClaude = `# Project rules

- The API listens on port 5432.
- Run ` + "`make test`" + ` before you push.
- 2024-01-15: migrated the orders table to the new cluster.
- The API listens on port 5433.
- KEEP 2024-02-01: the freeze window rule still applies to the billing service.
`

func TestBrief(t *testing.T) {
	f := newFixture(t)
	f.clock = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	claude := f.write("CLAUDE.md", heavyClaude)
	f.memFile("MEMORY.md", "- [Deploy](deploy.md): the deploy notes\n")
	f.memFile("deploy.md", "---\npinned: true\n---\nDeploy with `make ship`.\n")
	pinnedRule := f.write(".claude/CLAUDE.md", "---\npinned: true\n---\n- Never force-push to main.\n")
	f.write("CLAUDE.local.md", "- my checkout uses port 7000\n")
	if err := f.lane.recordKeep(Keep{Target: "CLAUDE.md:4", Reason: "the CI reads it"}); err != nil {
		t.Fatal(err)
	}
	b, err := f.lane.Brief()
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]BriefFile{}
	for _, bf := range b.Files {
		byPath[bf.Path] = bf
	}
	c, ok := byPath["CLAUDE.md"]
	if !ok || c.SHA256 != fsx.SHA256([]byte(f.read(claude))).String() || !c.Owned || !c.AlwaysLoaded {
		t.Fatalf("CLAUDE.md in the brief: %+v", c)
	}
	kinds := map[int]string{}
	for _, fd := range c.Findings {
		kinds[fd.Line] = fd.Kind
	}
	if kinds[3] != judge.Superseded || kinds[5] != judge.StaleDated || kinds[7] != judge.StaleDated {
		t.Errorf("findings %+v", c.Findings)
	}
	if c.Checks["number"] < 2 {
		t.Errorf("checks %v: the numbers of CLAUDE.md are not counted", c.Checks)
	}
	if d := byPath[".claude/CLAUDE.md"]; d.Pinned == "" || d.Real != pinnedRule {
		t.Errorf("the pinned file is not marked: %+v", d)
	}
	recall := map[string]bool{}
	for _, r := range b.Recall {
		recall[r.Path] = true
	}
	if !recall["memory:deploy.md"] {
		t.Errorf("the recall-only note is not listed: %+v", b.Recall)
	}
	if _, ok := byPath["memory:MEMORY.md"]; !ok {
		t.Errorf("the memory index is missing: %v", b.Files)
	}
	if len(b.Keeps) != 1 || b.Keeps[0].Target != "CLAUDE.md:4" {
		t.Errorf("keeps %+v", b.Keeps)
	}
	if b.Verdict.Superseded == 0 || b.Verdict.Stale == 0 || len(b.Rules) < 4 {
		t.Errorf("verdict %+v rules %d", b.Verdict, len(b.Rules))
	}
}

// The local judge runs over real HTTP against the fake Ollama: the superseded line is cut with
// its old value approved by name, the stale entry that would lose a date is declined for a
// person, the KEEP line is recorded as a keep, and the plan passes the gate and applies.
func TestJudgeLocalAgainstFakeOllama(t *testing.T) {
	f := newFixture(t)
	f.clock = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	claude := f.write("CLAUDE.md", heavyClaude)
	srv := fakeollama.Start(t, fakeollama.Options{Mode: fakeollama.Judge})
	j, err := ollama.NewJudge(srv.URL, "judge-model", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.lane.JudgeLocal(context.Background(), j.Chat, j.Name())
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan == nil || res.Judge != "local:ollama/judge-model" || res.Plan.Judge != res.Judge {
		t.Fatalf("result %+v", res)
	}
	if got := strings.Join(res.Plan.ApprovedDrops, ","); got != "number:5432@CLAUDE.md:3" {
		t.Errorf("approved drops %q, want exactly number:5432", got)
	}
	if len(res.Files) != 1 || len(res.Files[0].Cuts) != 1 || res.Files[0].Cuts[0].Line != 3 || len(res.Files[0].Declined) != 1 || res.Files[0].Declined[0].Line != 5 {
		t.Fatalf("files %+v", res.Files)
	}
	if len(res.Plan.Keeps) != 1 || res.Plan.Keeps[0].Target != "CLAUDE.md:7" {
		t.Errorf("keeps %+v", res.Plan.Keeps)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 || reqs[0].Chat.Messages[0].Role != "system" || !strings.Contains(reqs[0].Chat.Messages[1].Content, "candidates: 3, 5, 7") {
		t.Fatalf("requests %+v", reqs)
	}
	if res.Check == nil || !res.Check.DryRun {
		t.Fatalf("the plan was not checked: %+v", res.Check)
	}
	if f.read(claude) != heavyClaude {
		t.Fatal("JudgeLocal wrote")
	}
	applied, err := f.lane.ApplyPlan(*res.Plan, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.read(claude); strings.Contains(got, "5432") || !strings.Contains(got, "5433") || !strings.Contains(got, "2024-01-15") {
		t.Errorf("after apply:\n%s", got)
	}
	if applied.Keeps != 1 {
		t.Errorf("keeps recorded %d", applied.Keeps)
	}
	// The kept line is settled: the next brief does not offer it again.
	b, err := f.lane.Brief()
	if err != nil {
		t.Fatal(err)
	}
	for _, bf := range b.Files {
		for _, fd := range bf.Findings {
			if strings.Contains(fd.Reason, "2024-02-01") {
				t.Errorf("a kept line is a candidate again: %+v", fd)
			}
		}
	}
	// local_only lets the local judge's plan through and keeps an outside one out.
	f.config("[wash]\nlocal_only = true\n")
	outside := *res.Plan
	outside.Judge = "agent:claude-code"
	var lo *LocalOnlyError
	if _, err := f.lane.ApplyPlan(outside, PlanOptions{DryRun: true}); !errors.As(err, &lo) {
		t.Errorf("an outside judge under local_only: %v", err)
	}
}

// A model that answers garbage, or cuts a heading, gets nothing into a plan.
func TestJudgeLocalRefusesBadAnswers(t *testing.T) {
	f := newFixture(t)
	f.clock = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	f.write("CLAUDE.md", heavyClaude)
	for name, reply := range map[string]string{
		"not json":        "I think line 3 can go.",
		"heading":         `{"flags":[{"line":1,"verdict":"cut","reason":"short"}]}`,
		"no reason":       `{"flags":[{"line":3,"verdict":"cut","reason":""}]}`,
		"out of range":    `{"flags":[{"line":99,"verdict":"cut","reason":"x"}]}`,
		"unknown verdict": `{"flags":[{"line":3,"verdict":"maybe","reason":"x"}]}`,
	} {
		chat := func(context.Context, string, string) (string, error) { return reply, nil }
		res, err := f.lane.JudgeLocal(context.Background(), chat, "test")
		if err != nil || res.Plan != nil {
			t.Errorf("%s: plan %+v err %v", name, res.Plan, err)
		}
	}
	// Wrapped JSON (a fence, a think block) is still read.
	chat := func(context.Context, string, string) (string, error) {
		return "<think>hm</think>\n```json\n{\"flags\":[{\"line\":3,\"verdict\":\"cut\",\"reason\":\"superseded by line 6\"}]}\n```", nil
	}
	if res, err := f.lane.JudgeLocal(context.Background(), chat, "test"); err != nil || res.Plan == nil {
		t.Errorf("wrapped answer: %+v %v", res, err)
	}
}

// The band of a heavy, duplicate-free memory is not LEAN, and the Stop hook asks for consent
// to a judgement pass instead of directing Quick.
func TestJudgeArmedBandAsksForConsent(t *testing.T) {
	f := newFixture(t)
	f.write(".prosewash.toml", "[wash]\nbudget_tokens = 1000\n")
	f.reopen()
	var b strings.Builder
	for i := range 150 {
		b.WriteString("- The service number " + itoa(i) + " handles its own queue and retries on its own schedule.\n")
	}
	f.write("CLAUDE.md", b.String())
	r, err := f.lane.Measure("s1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Band == gauge.Lean || !judgeOnly(*r.Verdict) || !strings.Contains(r.Context, "wash full") {
		t.Fatalf("session start %+v", r)
	}
	if err := f.lane.RecordSpawn("s1", "general-purpose", "a1", ViaSubagentStart); err != nil {
		t.Fatal(err)
	}
	reason, err := f.lane.Recheck("s1")
	if err != nil || !strings.Contains(reason, "Ask the user") || strings.Contains(reason, "Run `prosewash wash quick`") ||
		!strings.Contains(reason, "rode 1 subagent(s)") {
		t.Fatalf("stop: %q %v", reason, err)
	}
}

// recordKeep upserts one keep, as a plan would.
func (l *Lane) recordKeep(k Keep) error {
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	kf, err := loadKeeps(stateDir)
	if err != nil {
		return err
	}
	kf.Keeps = append(kf.Keeps, k)
	b, err := json.Marshal(kf)
	if err != nil {
		return err
	}
	return writePrivate(keepsPath(stateDir), b)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// Below its break-even a judgement pass is never asked for: OBESE by judgement potential alone
// says so at session start and stays silent at Stop (nothing mechanical to run).
func TestJudgeArmedObeseDoesNotAsk(t *testing.T) {
	f := newFixture(t)
	f.write(".prosewash.toml", "[wash]\nbudget_tokens = 1000\n")
	f.reopen()
	var b strings.Builder
	for i := range 110 {
		b.WriteString("- The service number " + itoa(i) + " handles its own queue and retries on its own schedule.\n")
	}
	f.write("CLAUDE.md", b.String())
	// A large recall-only store makes one full pass expensive.
	for i := range 40 {
		f.memFile("note-"+itoa(i)+".md", strings.Repeat("- a recalled detail about subsystem "+itoa(i)+" that the agent reads on demand only.\n", 60))
	}
	f.memFile("MEMORY.md", "- [Notes](note-0.md): the notes\n")
	r, err := f.lane.Measure("s1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Band != gauge.Obese || !judgeOnly(*r.Verdict) || !strings.Contains(r.Context, "wash full") {
		t.Fatalf("session start %+v %+v", r, r.Verdict)
	}
	if reason, err := f.lane.Recheck("s1"); err != nil || reason != "" {
		t.Fatalf("stop asked below break-even: %q %v", reason, err)
	}
}
