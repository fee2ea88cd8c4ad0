package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

func writerEnv() (*env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &env{stdout: &out, stderr: &errb, ui: newUI(&out, &errb, "never"), color: "never"}, &out, &errb
}

// The text writer tells a person what each platform loads, what it never loads and what a
// truncated file loses, on stderr only.
func TestWashTextGauge(t *testing.T) {
	e, out, errb := writerEnv()
	g := lane.Gauge{
		Measure: gauge.Measurement{Platforms: []gauge.PlatformLoad{{Platform: "codex", Footprint: 8192, Files: 1, NeverLoaded: 2274}}},
		Files: []wash.FileReport{{Entry: discover.Entry{Path: "/p/AGENTS.md", Real: "/p/AGENTS.md", Platform: "codex", Kind: discover.Governance, AlwaysLoaded: true, Owned: true, Size: 35000},
			Platforms: []string{"codex"}, Tokens: 10466, Loads: map[string]int64{"codex": 32768}}},
		NeverLoaded: []wash.NeverLoaded{{Unloaded: discover.Unloaded{Path: "/p/AGENTS.md", Platform: "codex", Line: 541, Lines: 140, Reason: "project_doc_max_bytes is spent"}, Tokens: 2274}},
		Recorded:    true,
	}
	if err := (washText{e: e, rel: func(p string) string { return strings.TrimPrefix(p, "/p/") }}).gauge(g, nil); err != nil {
		t.Fatal(err)
	}
	s := errb.String()
	for _, want := range []string{"codex        ~8192 tok every session in 1 file(s)", "~2274 tok written but never loaded",
		"(codex loads 32768 of 35000 bytes)", "never loaded: AGENTS.md:541-680 (codex, ~2274 tok): project_doc_max_bytes is spent"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
	if out.Len() != 0 {
		t.Errorf("the text writer wrote to stdout: %q", out)
	}
}

// The JSON writer puts a refusal inside the document with each blocked drop's approval key,
// and the exit status is a refusal's.
func TestWashJSONRefusal(t *testing.T) {
	e, out, _ := writerEnv()
	d := gate.Drop{Token: gate.Token{Type: "number", Value: "2"}, Line: 14, Source: "AIWG.md", Note: "deleted file; lost for claude-code"}
	err := (washJSON{e: e}).apply(lane.PlanResult{Receipt: "would cut ~0 tok (-0%)"}, true, &lane.BlockedError{Drops: []gate.Drop{d}})
	if !errors.Is(err, errRefused) {
		t.Fatalf("exit error %v, want a refusal", err)
	}
	var doc struct {
		Refused struct {
			Places []string `json:"places"`
		} `json:"refused"`
		Receipt string `json:"receipt"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Refused.Places) != 1 || doc.Refused.Places[0] != "number:2@AIWG.md:14" || doc.Receipt == "" {
		t.Fatalf("refusal %+v", doc)
	}
}
