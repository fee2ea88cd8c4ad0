package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Verdicts a judge gives a flagged line.
const (
	Cut  = "cut"
	Keep = "keep"
)

// Verdict is a judge's decision on one line, with its reason.
type Verdict struct {
	Line    int    `json:"line"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// LocalInstruction is the system prompt of the local model judge: the original's adjudication
// rules, for one file at a time, asking for line verdicts only (a small model is trusted to
// point, never to rewrite).
const LocalInstruction = `You review one memory file that an AI coding agent loads into every session.
Decide, line by line, which lines can go without losing anything the agent still needs:
- superseded: the same fact appears later with another value (the older one goes);
- point-in-time: a finished, dated event that no longer guides work;
- duplicate: the same rule said again in other words.
Every candidate line listed after "candidates:" must get a verdict, "cut" or "keep", with a
concrete one-line reason; when in doubt, keep. Never cut a heading, a code line, or a line
that another line depends on. You may flag other lines too.
Reply with JSON only: {"flags":[{"line":<number>,"verdict":"cut"|"keep","reason":"<one line>"}]}`

// LocalPrompt renders one file for the local judge: the candidate line numbers, a separator,
// then every line numbered "N| text".
func LocalPrompt(path string, content []byte, candidates []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "file: %s\n", path)
	nums := make([]string, 0, len(candidates))
	for _, c := range candidates {
		nums = append(nums, strconv.Itoa(c))
	}
	fmt.Fprintf(&b, "candidates: %s\n---\n", strings.Join(nums, ", "))
	for i, ln := range strings.Split(strings.TrimSuffix(string(content), "\n"), "\n") {
		fmt.Fprintf(&b, "%d| %s\n", i+1, strings.TrimRight(ln, "\r"))
	}
	return b.String()
}

// ParseLocalReply reads a judge's answer: one JSON object with "flags", possibly wrapped in a
// code fence or preceded by a <think> block (as small models do). Lines outside 1..lines,
// unknown verdicts and verdicts without a reason are dropped; a line judged twice keeps its
// first verdict.
func ParseLocalReply(reply string, lines int) ([]Verdict, error) {
	s := reply
	if i := strings.LastIndex(s, "</think>"); i >= 0 {
		s = s[i+len("</think>"):]
	}
	start, end := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if start < 0 || end < start {
		return nil, errors.New("the judge's reply holds no JSON object")
	}
	var r struct {
		Flags []Verdict `json:"flags"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s[start : end+1])))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("the judge's reply is not the JSON asked for: %v", err)
	}
	seen := map[int]bool{}
	var out []Verdict
	for _, v := range r.Flags {
		v.Verdict = strings.ToLower(strings.TrimSpace(v.Verdict))
		v.Reason = strings.Join(strings.Fields(v.Reason), " ")
		if v.Line < 1 || v.Line > lines || seen[v.Line] || (v.Verdict != Cut && v.Verdict != Keep) || v.Reason == "" {
			continue
		}
		seen[v.Line] = true
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}
