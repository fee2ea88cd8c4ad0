package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/prosewash/prosewash/internal/engine/wash/lane"
	"github.com/prosewash/prosewash/internal/providers/ollama"
)

const washFullHelp = `The full pass: a judgement of what only a judge can cut (superseded facts, point-in-time
entries, duplicates across files, over-verbose passages), made by an outside judge and checked
and applied by prosewash.

Without --judge it prints a judging brief on standard output for an agent (Claude Code's
/prosewash:wash runs it; any agent that can run a command can): the always-loaded set and
every memory file this project owns, each with its sha256 (a plan's "expect"), tokens, quick's
flags, the judgement candidates (superseded facts, point-in-time entries: a date that says when
a rule took effect is no staleness, the same label under two headings two facts) and how many
tokens of each class the fidelity gate checks; the recorded keeps; the adjudication rules; the
plan schema in brief. It is kept well under a tenth of the memory it briefs on, and the band's
break-even counts its cost. --json prints it as JSON. The judge
writes a plan and runs 'prosewash wash apply PLAN.json': a plan that would lose a token is
refused with the exact tokens, and nothing is written.

--judge local asks the local model instead (the shipped Ollama provider, loopback only:
[clean] rewrite_model and rewrite_endpoint, or --model and --endpoint): one file at a time, a
verdict per candidate line. prosewash cuts only prose lines, approves by name only the old
value of a superseded fact whose newer value stays, declines every other cut that would lose a
token, and checks the plan through the same gate (a dry run of 'wash apply'). The plan goes to
--out (default: standard output); --apply applies it at once. With [wash] local_only = true,
only --judge local runs: the brief would hand the memory to an outside judge.`

// washFullFlags is what 'wash full' was asked.
type washFullFlags struct {
	asJSON, apply          bool
	judge, model, endpoint string
	out                    string
}

func runWashFull(e *env, args []string) error {
	fs := newFlags("wash full")
	var o washFullFlags
	fs.BoolVar(&o.asJSON, "json", false, "")
	fs.StringVar(&o.judge, "judge", "", "")
	fs.StringVar(&o.model, "model", "", "")
	fs.StringVar(&o.endpoint, "endpoint", "", "")
	fs.StringVar(&o.out, "out", "", "")
	fs.BoolVar(&o.apply, "apply", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usagef("wash full takes no arguments")
	}
	if o.judge != "" && o.judge != "local" {
		return usagef("--judge takes only \"local\" (the local model); an agent judges from the brief without --judge")
	}
	if o.judge == "" && (o.model != "" || o.endpoint != "" || o.out != "" || o.apply) {
		return usagef("--model, --endpoint, --out and --apply belong to --judge local")
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	cfg, _, err := l.Project().Config()
	if err != nil {
		return err
	}
	if o.judge == "" {
		return printWashBrief(e, l, cfg != nil && cfg.Wash.LocalOnly, o.asJSON)
	}
	m, ep := o.model, o.endpoint
	if cfg != nil {
		if m == "" {
			m = cfg.Clean.RewriteModel
		}
		if ep == "" {
			ep = cfg.Clean.RewriteEndpoint
		}
	}
	if ep == "" {
		ep = "http://127.0.0.1:11434"
	}
	return runLocalJudge(e, l, m, ep, o)
}

// printWashBrief prints the judging brief for an agent, refused under [wash] local_only (the
// brief would hand the memory to an outside judge).
func printWashBrief(e *env, l *lane.Lane, localOnly, asJSON bool) error {
	if localOnly {
		e.ui.errorf("refused: [wash] local_only is set, and the brief hands the memory to an outside judge; nothing was printed")
		e.ui.hintf("run 'prosewash wash full --judge local' to have the local model judge it")
		return errRefused
	}
	b, err := l.Brief()
	if err != nil {
		return washError(e, err)
	}
	if asJSON {
		return writeJSON(e, b)
	}
	_, err = io.WriteString(e.stdout, b.Markdown())
	return err
}

// runLocalJudge has the local model at ep judge the memory, reports what it decided, and
// writes, prints or applies the plan it made.
func runLocalJudge(e *env, l *lane.Lane, model, ep string, o washFullFlags) error {
	j, err := ollama.NewJudge(ep, model, 0)
	if err != nil {
		return fmt.Errorf("local judge: %w", err)
	}
	e.ui.infof("wash full: local judge %s at %s (loopback only)", j.Name(), ep)
	res, runErr := l.JudgeLocal(e.ctx, j.Chat, j.Name())
	reportJudged(e, res)
	if runErr != nil {
		return washError(e, runErr)
	}
	if res.Plan == nil {
		e.ui.infof("wash full: the local judge cut nothing; no plan")
		return nil
	}
	if res.Check != nil {
		e.ui.infof("the plan passes the gate: %s", res.Check.Receipt)
	}
	if err := emitPlan(e, res.Plan, o); err != nil || !o.apply {
		return err
	}
	applied, err := l.ApplyPlan(*res.Plan, lane.PlanOptions{})
	if err != nil {
		return washError(e, err)
	}
	printReceipt(e, applied.Receipt, applied.Event)
	return nil
}

// reportJudged says, per file, what the local judge cut, kept and what prosewash declined,
// then the judge's errors.
func reportJudged(e *env, res lane.JudgeResult) {
	for _, f := range res.Files {
		switch {
		case f.Skipped != "":
			e.ui.infof("  %s: not judged: %s", f.Path, f.Skipped)
		default:
			e.ui.infof("  %s: %d cut, %d kept", f.Path, len(f.Cuts), len(f.Keeps))
		}
		for _, c := range f.Cuts {
			e.ui.infof("    cut line %d: %s", c.Line, c.Reason)
		}
		for _, k := range f.Keeps {
			e.ui.infof("    keep line %d: %s", k.Line, k.Reason)
		}
		for _, d := range f.Declined {
			e.ui.warnf("    declined line %d: %s", d.Line, d.Reason)
		}
	}
	for _, er := range res.Errors {
		e.ui.warnf("%s", er)
	}
}

// emitPlan writes the plan to --out (never over an existing file), or prints it on standard
// output unless it is applied at once.
func emitPlan(e *env, plan *lane.Plan, o washFullFlags) error {
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	switch {
	case o.out != "":
		if err := writeNewFile(userPath(o.out), b); err != nil {
			return err
		}
		e.ui.infof("plan written to %s: 'prosewash wash apply %s' applies it", o.out, o.out)
	case !o.apply:
		_, err = e.stdout.Write(b)
		return err
	}
	return nil
}

// writeNewFile writes a file that must not exist yet (a plan never overwrites anything).
func writeNewFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists; choose another --out", path)
		}
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
