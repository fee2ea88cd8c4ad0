package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// washCommands are the subcommands of "prosewash wash".
func washCommands() []command {
	return []command{
		{name: "gauge", args: "[--platform P]... [--json]", summary: "measure the always-loaded memory: tokens per file, provable fat, band", help: washGaugeHelp, run: runWashGauge},
		{name: "quick", args: "[--dry-run] [--json] [FILE...]", summary: "cut provable fat (duplicates, blank runs, dead index entries, moved links), gated and revertible", help: washQuickHelp, run: runWashQuick},
		{name: "full", args: "[--json] | --judge local [--model M] [--endpoint URL] [--out PLAN.json] [--apply]", summary: "the full pass: print a judging brief for an agent, or have the local model judge; the plan goes through the gate", help: washFullHelp, run: runWashFull},
		{name: "apply", args: "PLAN.json [--dry-run] [--json]", summary: "apply an adjudicated semantic plan (delete, merge, shrink, rewrite) through the gate", help: washApplyHelp, run: runWashApply},
		{name: "bins", args: "[--json]", summary: "list the recovery bins: every cut kept, with the id restore takes", help: washBinsHelp, run: runWashBins},
		{name: "restore", args: "ID[.N]|last [--dry-run] [--stdout] [--json]", summary: "put a banked cut back (through the gate and a transaction)", help: washRestoreHelp, run: runWashRestore},
		{name: "stats", args: "[--json]", summary: "the fuller view: band, footprint history, bins, last receipt, sessions", run: runWashStats},
		{name: "archive", args: "[--dry-run] [--json] [--live-minutes N] | list | restore SESSION", summary: "move old Claude Code transcripts into verified archives (a person on a terminal only), list them, restore one", help: washArchiveHelp, run: runWashArchive},
		{name: "recover", args: "[--json]", summary: "bring an interrupted wash run to a safe end", help: washRecoverHelp, run: runWashRecover},
		{name: "verify", args: "OLD NEW [--json]", summary: "prove no structured token (link, date, version, number, quote, code) was lost between two versions of a file", help: washVerifyHelp, run: runWashVerify},
	}
}

const washVerifyHelp = `For anyone who edits memory by hand: compares OLD with NEW through the same fidelity
gate every wash passes. Exit 0 when nothing was lost; exit 1 with the dropped tokens
listed as type:value and the line in OLD. Each statement of OLD (a paragraph, list
item, table row or heading) is aligned with the statement or statements of NEW that
carry it, and compared with them: its values and units (25 MB to 25 GB), names
(C17 to C99), rules and their strength (must to may; 必须 to 可以), conditions
(only on macOS) and order (first a, then b). A statement with no counterpart is a
drop unless NEW says each of its facts elsewhere; an exact repeat removed is free.
A code fence left unclosed is reported with the line it starts on; one NEW adds
is a drop.`

func runWash(e *env, args []string) error {
	// "wash help COMMAND" is "wash COMMAND --help", as "prosewash help
	// COMMAND" is for the top-level commands.
	if len(args) > 1 && args[0] == "help" {
		args = []string{args[1], "--help"}
	}
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		fmt.Fprintf(e.stdout, "usage: prosewash wash COMMAND [ARGS]\n\nCOMMANDS\n")
		for _, c := range washCommands() {
			fmt.Fprintf(e.stdout, "  %-8s %s\n", c.name, c.summary)
		}
		fmt.Fprintf(e.stdout, "\nRun 'prosewash wash COMMAND --help' for a command's options.\n")
		if len(args) == 0 {
			return usagef("wash needs a command")
		}
		return nil
	}
	for _, c := range washCommands() {
		if c.name == args[0] {
			if wantsHelp(args[1:]) {
				fmt.Fprintf(e.stdout, "usage: prosewash wash %s %s\n\n%s\n", c.name, c.args, c.summary)
				if c.help != "" {
					fmt.Fprintf(e.stdout, "\n%s\n", c.help)
				}
				return nil
			}
			return c.run(e, args[1:])
		}
	}
	return usagef("unknown wash command %q", args[0])
}

func runWashVerify(e *env, args []string) error {
	fs := newFlags("wash verify")
	asJSON := fs.Bool("json", false, "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(paths) != 2 {
		return usagef("wash verify takes OLD and NEW")
	}
	var texts [2][]byte
	for i, p := range paths {
		b, err := readInput(p)
		if err != nil {
			return err
		}
		if err := gate.CheckText(b); err != nil {
			return fmt.Errorf("%s: %w: the gate compares UTF-8 text only (convert it first, e.g. iconv -f GBK -t UTF-8)", p, err)
		}
		texts[i] = b
	}
	drops := gate.Verify(texts[0], texts[1])
	sort.SliceStable(drops, func(i, j int) bool { return drops[i].Line < drops[j].Line })
	type stray struct {
		File string `json:"file"`
		Line int    `json:"line"`
		End  int    `json:"end"`
	}
	strays := []stray{}
	for i, b := range texts {
		for _, s := range mdline.Parse(b).StrayFences() {
			strays = append(strays, stray{paths[i], s.Line, s.End})
		}
	}
	if *asJSON {
		type drop struct {
			Key  string `json:"key"`
			Type string `json:"type"`
			Line int    `json:"line"`
			Note string `json:"note,omitempty"`
		}
		out := struct {
			Old         string  `json:"old"`
			New         string  `json:"new"`
			Lost        bool    `json:"lost"`
			Drops       []drop  `json:"drops"`
			StrayFences []stray `json:"strayFences"`
		}{paths[0], paths[1], len(drops) > 0, []drop{}, strays}
		for _, d := range drops {
			out.Drops = append(out.Drops, drop{Key: d.Key(), Type: d.Type, Line: d.Line, Note: d.String()})
		}
		if err := writeJSON(e, out); err != nil {
			return err
		}
	} else {
		for _, s := range strays {
			swallowed := "nothing after it yet"
			if s.End > s.Line {
				swallowed = fmt.Sprintf("lines %d-%d", s.Line+1, s.End)
			}
			e.ui.warnf("%s:%d: stray code fence: %s read as code (the gate reads their prose as prose)", s.File, s.Line, swallowed)
		}
		if len(drops) == 0 {
			e.ui.infof("wash verify: nothing lost between %s and %s", paths[0], paths[1])
		} else {
			e.ui.warnf("wash verify: %d structured token(s) of %s are missing from %s:", len(drops), paths[0], paths[1])
			for _, l := range strings.Split(strings.TrimRight(gate.Render(drops), "\n"), "\n") {
				fmt.Fprintf(e.stdout, "%s\n", l)
			}
		}
	}
	if len(drops) > 0 {
		return errFindings
	}
	return nil
}
