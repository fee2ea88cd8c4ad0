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

func runWashFull(e *env, args []string) error {
	fs := newFlags("wash full")
	asJSON := fs.Bool("json", false, "")
	judgeName := fs.String("judge", "", "")
	model := fs.String("model", "", "")
	endpoint := fs.String("endpoint", "", "")
	out := fs.String("out", "", "")
	apply := fs.Bool("apply", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usagef("wash full takes no arguments")
	}
	if *judgeName != "" && *judgeName != "local" {
		return usagef("--judge takes only \"local\" (the local model); an agent judges from the brief without --judge")
	}
	if *judgeName == "" && (*model != "" || *endpoint != "" || *out != "" || *apply) {
		return usagef("--model, --endpoint, --out and --apply belong to --judge local")
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	p := l.Project()
	cfg, _, err := p.Config()
	if err != nil {
		return err
	}
	if *judgeName == "" {
		if cfg != nil && cfg.Wash.LocalOnly {
			e.ui.errorf("refused: [wash] local_only is set, and the brief hands the memory to an outside judge; nothing was printed")
			e.ui.hintf("run 'prosewash wash full --judge local' to have the local model judge it")
			return errRefused
		}
		b, err := l.Brief()
		if err != nil {
			return washError(e, err)
		}
		if *asJSON {
			return writeJSON(e, b)
		}
		_, err = io.WriteString(e.stdout, b.Markdown())
		return err
	}
	m, ep := *model, *endpoint
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
	j, err := ollama.NewJudge(ep, m, 0)
	if err != nil {
		return fmt.Errorf("local judge: %w", err)
	}
	e.ui.infof("wash full: local judge %s at %s (loopback only)", j.Name(), ep)
	res, runErr := l.JudgeLocal(e.ctx, j.Chat, j.Name())
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
	b, err := json.MarshalIndent(res.Plan, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	switch {
	case *out != "":
		if err := writeNewFile(userPath(*out), b); err != nil {
			return err
		}
		e.ui.infof("plan written to %s: 'prosewash wash apply %s' applies it", *out, *out)
	case !*apply:
		if _, err := e.stdout.Write(b); err != nil {
			return err
		}
	}
	if !*apply {
		return nil
	}
	applied, err := l.ApplyPlan(*res.Plan, lane.PlanOptions{})
	if err != nil {
		return washError(e, err)
	}
	printReceipt(e, applied.Receipt, applied.Event)
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
