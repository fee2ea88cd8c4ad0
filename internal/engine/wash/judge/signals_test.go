package judge

import (
	"testing"
	"time"
)

func TestScanSuperseded(t *testing.T) {
	files := []File{
		{Path: "CLAUDE.md", Content: []byte("# Project\n\n- The API listens on port 5432.\n- Default branch: main\n- Run `make test` before you push.\n")},
		{Path: "memory:MEMORY.md", Content: []byte("- The API listens on port 5433.\n- Default branch: develop\n- Note: keep it short\n- Note: never force-push\n")},
	}
	s := Scan(files, Options{Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)})
	got := map[string]bool{}
	for _, f := range s.Findings {
		got[f.Kind+" "+f.Path+":"+itoa(f.Line)+" -> "+f.Other] = true
	}
	for _, want := range []string{
		"superseded CLAUDE.md:3 -> memory:MEMORY.md:1",
		"superseded CLAUDE.md:4 -> memory:MEMORY.md:2",
	} {
		if !got[want] {
			t.Errorf("missing finding %q; got %v", want, got)
		}
	}
	if len(s.Findings) != 2 {
		t.Errorf("findings = %v, want exactly the two superseded lines (discourse labels are not facts)", s.Findings)
	}
	if s.Superseded <= 0 || s.Stale != 0 {
		t.Errorf("signals = %+v", s)
	}
}

func TestScanTemplatesAreNotSuperseded(t *testing.T) {
	// The same sentence filled for two subjects: the first value names the subject.
	files := []File{{Path: "m.md", Content: []byte(
		"- Deploy it with `make deploy-billing-3`; the pinned client is v4.3.103.\n" +
			"- Deploy it with `make deploy-search-7`; the pinned client is v2.7.107.\n" +
			"- The billing service 3 listens on port 20021 since 2029-03-04.\n" +
			"- The search service 7 listens on port 20049 since 2029-05-06.\n")}}
	s := Scan(files, Options{Now: time.Date(2029, 6, 1, 0, 0, 0, 0, time.UTC)})
	if s.Superseded != 0 {
		t.Errorf("templated lines flagged superseded: %+v", s.Findings)
	}
}

func TestScanStale(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	old := now.AddDate(-1, 0, 0)
	content := []byte("- 2029-03-01: migrated the orders table to the new cluster\n- always run the linter before pushing\n- keep the changelog in sync with releases\n```\nold code line here 2020-01-01\n```\n")
	seen := map[string]time.Time{LineHash([]byte("- always run the linter before pushing")): old}
	files := []File{{Path: "CLAUDE.md", Content: content, FirstSeen: func(h string) (time.Time, bool) { t, ok := seen[h]; return t, ok }}}
	s := Scan(files, Options{Now: now})
	kinds := map[int]string{}
	for _, f := range s.Findings {
		kinds[f.Line] = f.Kind
	}
	if kinds[1] != StaleDated || kinds[2] != StaleUndated || len(kinds) != 2 {
		t.Errorf("findings = %+v, want line 1 stale-dated, line 2 stale-undated, nothing in code or unseen lines", s.Findings)
	}
	if s.Stale <= 0 {
		t.Errorf("stale tokens = %d", s.Stale)
	}
	// Inside the horizon nothing is stale.
	if s := Scan(files, Options{Now: now, StaleAfter: 2 * 365 * 24 * time.Hour}); s.Stale != 0 {
		t.Errorf("inside the horizon: %+v", s)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// A dated memory index entry points at its note: not a point-in-time event.
func TestScanIndexEntriesAreNotStale(t *testing.T) {
	files := []File{{Path: "MEMORY.md", Content: []byte("- [Billing notes](billing.md): service on port 20021, reviewed 2024-03-01\n- [[search]] notes reviewed 2024-03-02 by the team\n")}}
	if s := Scan(files, Options{Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}); s.Stale != 0 || len(s.Findings) != 0 {
		t.Errorf("index entries flagged: %+v", s.Findings)
	}
}

// A date that says when a rule took effect is not staleness; the same label under two
// headings is two facts, not one with two values.
func TestScanEffectiveDatesAndSections(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	files := []File{{Path: "CLAUDE.md", Content: []byte("# Ops\n\n" +
		"- Effective 2026-03-04, every release needs two approvals.\n" +
		"- The alert threshold was recalibrated 2026-03-15 to 0.8 of capacity.\n" +
		"- 2026-02-01: rolled back the cache change after the outage.\n\n" +
		"## Production\n\n- See [the runbook](https://wiki.example.com/prod) before any deploy.\n\n" +
		"## Staging\n\n- See [the runbook](https://wiki.example.com/staging) before any deploy.\n")}}
	s := Scan(files, Options{Now: now})
	for _, f := range s.Findings {
		if f.Line == 3 || f.Line == 4 {
			t.Errorf("an effective date flagged as a point-in-time entry: %+v", f)
		}
		if f.Kind == Superseded {
			t.Errorf("the same label in two sections flagged superseded: %+v", f)
		}
	}
	found := false
	for _, f := range s.Findings {
		found = found || f.Line == 5 && f.Kind == StaleDated
	}
	if !found {
		t.Errorf("a dated event is still a stale candidate: %+v", s.Findings)
	}
}

// "Runbook: see `x`" under two headings, with two targets, is two keys (each section's pointer); the
// same label twice under one heading with two targets is still one key superseded.
func TestScanSeeLabelsPerSection(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	two := []File{{Path: "AGENTS.md", Content: []byte("# Repo\n\n## Frontend\n\n- Runbook: see `ops/web.md`\n\n" +
		"## Backend\n\n- Runbook: see `ops/api.md`\n")}}
	for _, f := range Scan(two, Options{Now: now}).Findings {
		if f.Kind == Superseded {
			t.Errorf("one label in two sections flagged superseded: %+v", f)
		}
	}
	one := []File{{Path: "AGENTS.md", Content: []byte("# Repo\n\n## Frontend\n\n- Runbook: see `ops/web.md`\n" +
		"- Runbook: see `ops/api.md`\n")}}
	found := false
	for _, f := range Scan(one, Options{Now: now}).Findings {
		found = found || f.Kind == Superseded && f.Line == 5
	}
	if !found {
		t.Errorf("the same key with two values under one heading is not superseded: %+v", Scan(one, Options{Now: now}).Findings)
	}
}
