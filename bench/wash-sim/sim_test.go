package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestSimulationLosesNoFact runs the full 60-session benchmark: washing must save tokens and
// lose no fact, and the same feed without washing must lose none either (the check itself
// is sound).
func TestSimulationLosesNoFact(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 60-session simulation takes a few seconds")
	}
	for _, cfg := range []Config{
		{Sessions: 60, Seed: 1, Every: 8 * time.Hour},
		{Sessions: 60, Seed: 2, Every: 24 * time.Hour, ArmTokens: 200, DisarmTokens: 80},
	} {
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.FactsLost != 0 || res.FactsLostNoWash != 0 {
			t.Fatalf("seed %d: facts lost %d (without washing %d)", cfg.Seed, res.FactsLost, res.FactsLostNoWash)
		}
		if res.Washes == 0 || res.SavingTokens <= 0 || res.CarriedWash >= res.CarriedNoWash {
			t.Fatalf("seed %d: no saving: %+v", cfg.Seed, res)
		}
		if res.FactsChecked < 100 {
			t.Fatalf("seed %d: only %d facts checked", cfg.Seed, res.FactsChecked)
		}
	}
}

// Verbose growth and a judge that is sometimes wrong: the judge's plans go through the gate,
// which refuses every mistaken cut (the judge fixes it and applies again); no live fact is lost
// in any session, and the judge cuts what Quick cannot.
func TestSimulationJudgeLosesNoFact(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the simulation takes a few seconds")
	}
	cfg := Config{Sessions: 40, Seed: 3, Every: 8 * time.Hour, Verbose: true, Judge: true, StaleDays: 30, BudgetTokens: 3000, JudgeMistakes: 1}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for s, n := range res.LostPerSession {
		if n != 0 {
			t.Fatalf("session %d: %d facts lost", s+1, n)
		}
	}
	if res.FactsLost != 0 || res.FactsInBinsOnly != 0 {
		t.Fatalf("facts lost %d, only in bins %d", res.FactsLost, res.FactsInBinsOnly)
	}
	if res.Judged == 0 || res.JudgeCut <= 0 || res.JudgeRefused != res.Judged {
		t.Fatalf("judge runs %d, cut %d, refused %d: every pass made a mistake and the gate must have refused each", res.Judged, res.JudgeCut, res.JudgeRefused)
	}
	if res.LastFootprint[0] >= res.LastFootprint[1] {
		t.Fatalf("the judge did not shrink the memory: %v", res.LastFootprint)
	}
}

func TestCommandOutput(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-sessions", "5", "-arm", "50"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"cumulative saving:", "lost from memory and bins: 0"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
}
