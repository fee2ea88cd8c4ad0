package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wash-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sessions := fs.Int("sessions", 60, "sessions to simulate")
	seed := fs.Int64("seed", 1, "generator seed")
	hours := fs.Float64("hours", 8, "hours between sessions (the bins age by this clock)")
	arm := fs.Int("arm", 0, "fat_arm_tokens (0: the configured default, 500)")
	disarm := fs.Int("disarm", 0, "fat_disarm_tokens (with -arm; default arm/2.5)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	perSession := fs.Bool("per-session", false, "also print the footprint of every session")
	verbose := fs.Bool("verbose-growth", false, "grow memory mostly by semantic bloat: long restatements, changed settings, dated entries")
	judgeRuns := fs.Bool("judge", false, "arm A runs the full pass (a simulated judge) whenever the Stop hook asks for one")
	staleDays := fs.Int("stale-days", 0, "[wash] stale_days for both arms (0: the default, 180)")
	budget := fs.Int("budget", 0, "[wash] budget_tokens for both arms (0: the platform's own, 10000)")
	mistakes := fs.Float64("judge-mistakes", 0.1, "share of judge passes that also cut a live rule without approving its tokens")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg := Config{Sessions: *sessions, Seed: *seed, Every: time.Duration(*hours * float64(time.Hour)), ArmTokens: *arm, DisarmTokens: *disarm,
		Verbose: *verbose, Judge: *judgeRuns, StaleDays: *staleDays, BudgetTokens: *budget, JudgeMistakes: *mistakes}
	if cfg.ArmTokens > 0 && cfg.DisarmTokens == 0 {
		cfg.DisarmTokens = int(float64(cfg.ArmTokens) / 2.5)
	}
	res, err := Run(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "wash-sim: %v\n", err)
		return 1
	}
	if *asJSON {
		if !*perSession {
			res.PerSession = nil
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		arm := "default (500)"
		if cfg.ArmTokens > 0 {
			arm = fmt.Sprintf("%d (disarm %d)", cfg.ArmTokens, cfg.DisarmTokens)
		}
		fmt.Fprintf(stdout, "wash-sim: %d sessions, seed %d, one every %.0fh, fat_arm_tokens %s\n", res.Sessions, res.Seed, *hours, arm)
		fmt.Fprintf(stdout, "  always-loaded tokens carried, without washing: %d\n", res.CarriedNoWash)
		fmt.Fprintf(stdout, "  always-loaded tokens carried, with washing:    %d (+%d tok of directives and receipts)\n", res.CarriedWash, res.OverheadWash)
		fmt.Fprintf(stdout, "  cumulative saving: %d tok (%.1f%%)\n", res.SavingTokens, res.SavingPercent)
		fmt.Fprintf(stdout, "  last session footprint: %d tok with washing, %d without\n", res.LastFootprint[0], res.LastFootprint[1])
		fmt.Fprintf(stdout, "  stop-hook blocks: %d, quick runs: %d, tokens cut: %d, gate-refused plans: %d; bands: %s\n", res.Blocks, res.Washes, res.CutTokens, res.GateRefused, sortedBands(res.Bands))
		if cfg.Judge {
			fmt.Fprintf(stdout, "  judge runs: %d, tokens cut by the judge: %d, judge plans refused by the gate (then fixed): %d\n", res.Judged, res.JudgeCut, res.JudgeRefused)
		}
		fmt.Fprintf(stdout, "  facts checked: %d live facts after every session; lost from memory and bins: %d (without washing: %d); only in bins: %d\n",
			res.FactsChecked, res.FactsLost, res.FactsLostNoWash, res.FactsInBinsOnly)
		fmt.Fprintf(stdout, "  bin events kept: %d, destroyed by retention: %d\n", res.BinEvents, res.Destroyed)
		worst := 0
		for _, n := range res.LostPerSession {
			worst = max(worst, n)
		}
		fmt.Fprintf(stdout, "  facts lost per session: at most %d\n", worst)
		if *perSession {
			for i, p := range res.PerSession {
				fmt.Fprintf(stdout, "  session %2d: %6d %6d  lost %d\n", i+1, p[0], p[1], res.LostPerSession[i])
			}
		}
	}
	if res.FactsLost > 0 {
		return 1
	}
	return 0
}
