package config

import (
	"fmt"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/loopback"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// plainLoopbackURL accepts http:// URLs to a loopback address only.
func plainLoopbackURL(s string) error {
	if !strings.HasPrefix(strings.ToLower(s), "http://") {
		return fmt.Errorf("URL %q: only http:// is supported (TLS to a loopback address protects nothing)", s)
	}
	return loopback.CheckURL(s)
}

// kind is the type of a key's value.
type kind uint8

const (
	kindString   kind = iota // any string
	kindEnum                 // one of spec.enum
	kindPipeline             // safe, full or custom/<id>
	kindInt                  // an integer in [min, max]
	kindBool                 // true or false
	kindPatterns             // an array of doublestar patterns
	kindCommand              // an argv array, or a string split into words
	kindStrings              // an array of strings, each checked by spec.check
)

// merge is how a project value combines with a user value.
type merge uint8

const (
	projectWins merge = iota // the project value replaces the user value
	safestOf                 // the safer by spec.safety (safest first); a project may only tighten
	smallerOf                // the smaller integer; a project may only tighten
	eitherTrue               // true in either file wins; a project may only tighten
	unionOf                  // both lists; a project may add, never remove
)

// spec describes one key: its type, its limits, how it merges, how it is
// applied to a Config and shown, and its documentation.
type spec struct {
	key    string
	kind   kind
	enum   []string // allowed values, in the order shown
	safety []string // for safestOf: the enum, safest first
	min    int64
	max    int64
	unit   string
	merge  merge
	doc    string
	check  func(string) error // extra validation of a string value
	apply  func(c *Config, v any)
	show   func(c *Config) string
}

// tables are the known top-level tables, in document order.
func tables() []string { return []string{"check", "clean", "commands", "wash"} }

func specs() []spec {
	return []spec{
		{key: "check.exclude", kind: kindPatterns, merge: unionOf,
			doc:   "Paths `prosewash check` does not walk into, as doublestar patterns relative to the project root (`testdata/**`, `**/fixtures/**`): test fixtures and vendored code whose carriers are there on purpose. A file named on the command line is still checked. `check --exclude GLOB` adds to the list.",
			apply: func(c *Config, v any) { c.Check.Exclude = v.([]string) },
			show:  func(c *Config) string { return showList(c.Check.Exclude) }},
		{key: "clean.mode", kind: kindEnum, enum: []string{ModeAutomatic, ModeConfirm, ModeManual},
			safety: []string{ModeManual, ModeConfirm, ModeAutomatic}, merge: safestOf,
			doc:   "What the Stop hook does with this session's files: `automatic` cleans them (only with a valid approval, see `prosewash approve`), `confirm` asks the agent to ask you, `manual` does nothing. A missing or unreadable configuration means `manual`.",
			apply: func(c *Config, v any) { c.Clean.Mode = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Clean.Mode) }},
		{key: "clean.pipeline", kind: kindPipeline,
			doc:   "Pipeline for runs without `--pipeline`: `safe`, `full` (needs an explicit target, never automatic) or `custom/<id>` from `.prosewash/pipelines/`.",
			apply: func(c *Config, v any) { c.Clean.Pipeline = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Clean.Pipeline) }},
		{key: "clean.profile", kind: kindEnum, enum: []string{string(carrier.Standard), string(carrier.Strict)},
			doc:   "Carrier policy: `standard` keeps legitimate uses (emoji joiners, Persian ZWNJ, French NBSP, ...); `strict` removes every carrier.",
			apply: func(c *Config, v any) { c.Clean.Profile = carrier.Profile(v.(string)) },
			show:  func(c *Config) string { return strconv.Quote(string(c.Clean.Profile)) }},
		{key: "clean.validation", kind: kindEnum, enum: levelNames(),
			safety: []string{"tests", "project", "format", "syntax"}, merge: safestOf,
			doc:   "Minimum validation level, `syntax < format < project < tests`; a change may demand more (touching non-prose or a rewrite stage demands `tests`). A level whose command is not set is a refusal, never a silent downgrade.",
			apply: func(c *Config, v any) { c.Clean.Validation, _ = validate.ParseLevel(v.(string)) },
			show:  func(c *Config) string { return strconv.Quote(c.Clean.Validation.String()) }},
		{key: "clean.validation_timeout", kind: kindInt, min: 1, max: 86400, unit: "seconds",
			doc:   "Each validation command is killed, with its whole process group, after this many seconds.",
			apply: func(c *Config, v any) { c.Clean.ValidationTimeout = time.Duration(v.(int64)) * time.Second },
			show:  func(c *Config) string { return strconv.FormatInt(int64(c.Clean.ValidationTimeout/time.Second), 10) }},
		{key: "clean.include", kind: kindPatterns,
			doc:   "Only session files matching one of these doublestar patterns (relative to the project root, `/`-separated) are eligible; empty means every file with a classifier.",
			apply: func(c *Config, v any) { c.Clean.Include = v.([]string) },
			show:  func(c *Config) string { return showList(c.Clean.Include) }},
		{key: "clean.exclude", kind: kindPatterns, merge: unionOf,
			doc:   "Session files matching any of these doublestar patterns are skipped and reported.",
			apply: func(c *Config, v any) { c.Clean.Exclude = v.([]string) },
			show:  func(c *Config) string { return showList(c.Clean.Exclude) }},
		{key: "clean.allow", kind: kindStrings, merge: unionOf, check: checkAllow,
			doc:   "Carriers people mean to keep, never removed and never reported as left: `\"U+00A0\"`, a range `\"U+FE00..U+FE0F\"`, either followed by ` in GLOB` to keep them only in matching files (`\"U+200B in docs/th/**\"`). A comment can keep one carrier on its own line and the next: `prosewash: keep U+200B`.",
			apply: func(c *Config, v any) { c.Clean.Allow = v.([]string) },
			show:  func(c *Config) string { return showList(c.Clean.Allow) }},
		{key: "clean.max_rewrite_stages", kind: kindInt, min: 0, max: 8, merge: smallerOf,
			doc:   "Most statistical-rewrite stages a pipeline may have; more is refused. Raising it above 1 is allowed with a warning.",
			apply: func(c *Config, v any) { c.Clean.MaxRewriteStages = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Clean.MaxRewriteStages) }},
		{key: "clean.rewrite_model", kind: kindString,
			doc:   "Ollama model for the rewrite stage of `full`. No default: without it the stage refuses and names this key.",
			apply: func(c *Config, v any) { c.Clean.RewriteModel = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Clean.RewriteModel) }},
		{key: "clean.rewrite_endpoint", kind: kindString, check: plainLoopbackURL,
			doc:   "Ollama endpoint for the rewrite stage: `http://` to a loopback address (`127.0.0.1`, `::1`, `localhost`); anything else is refused (TLS to loopback protects nothing).",
			apply: func(c *Config, v any) { c.Clean.RewriteEndpoint = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Clean.RewriteEndpoint) }},
		{key: "clean.max_file_size", kind: kindInt, min: 1, max: 1 << 30, unit: "bytes",
			doc:   "Larger files are refused and reported, never read whole.",
			apply: func(c *Config, v any) { c.Clean.MaxFileSize = v.(int64) },
			show:  func(c *Config) string { return strconv.FormatInt(c.Clean.MaxFileSize, 10) }},

		{key: "commands.format", kind: kindCommand,
			doc:   "Command for the `format` level. It must **check**, not rewrite: it fails when it exits non-zero, and a command that modifies a file being validated fails too. Use a check mode (`prettier --check .`, `black --check .`) or a script around `gofmt -l` that exits 1 when it lists files.",
			apply: func(c *Config, v any) { c.Commands.Format = v.([]string) },
			show:  func(c *Config) string { return showCommand(c.Commands.Format) }},
		{key: "commands.build", kind: kindCommand,
			doc:   "Command for the `project` level, e.g. `[\"go\", \"build\", \"./...\"]`.",
			apply: func(c *Config, v any) { c.Commands.Build = v.([]string) },
			show:  func(c *Config) string { return showCommand(c.Commands.Build) }},
		{key: "commands.test", kind: kindCommand,
			doc:   "Command for the `tests` level, e.g. `[\"go\", \"test\", \"./...\"]`.",
			apply: func(c *Config, v any) { c.Commands.Test = v.([]string) },
			show:  func(c *Config) string { return showCommand(c.Commands.Test) }},

		{key: "wash.mode", kind: kindEnum, enum: []string{WashAuto, WashManual, WashOff},
			safety: []string{WashOff, WashManual, WashAuto}, merge: safestOf,
			doc:   "Memory lane: `auto` gauges at session start and nudges once at Stop when there is fat; `manual` stays silent until you run `prosewash wash`; `off` does nothing.",
			apply: func(c *Config, v any) { c.Wash.Mode = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Wash.Mode) }},
		{key: "wash.local_only", kind: kindBool, merge: eitherTrue,
			doc:   "Semantic plans may only come from a local judge (the local model provider), never from an outside one.",
			apply: func(c *Config, v any) { c.Wash.LocalOnly = v.(bool) },
			show:  func(c *Config) string { return strconv.FormatBool(c.Wash.LocalOnly) }},
		{key: "wash.fat_arm_tokens", kind: kindInt, min: 1, max: math.MaxInt32, unit: "tokens",
			doc:   "Fat at or above this arms the OBESE band.",
			apply: func(c *Config, v any) { c.Wash.FatArmTokens = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.FatArmTokens) }},
		{key: "wash.fat_disarm_tokens", kind: kindInt, min: 0, max: math.MaxInt32, unit: "tokens",
			doc:   "Once armed, OBESE disarms only when fat drops to this or below (hysteresis); must be below `fat_arm_tokens`.",
			apply: func(c *Config, v any) { c.Wash.FatDisarmTokens = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.FatDisarmTokens) }},
		{key: "wash.capacity_tokens", kind: kindInt, min: 1, max: math.MaxInt32, unit: "tokens",
			doc:   "Always-loaded footprint at which the capacity wall is reached.",
			apply: func(c *Config, v any) { c.Wash.CapacityTokens = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.CapacityTokens) }},
		{key: "wash.index_max_bytes", kind: kindInt, min: 1, max: math.MaxInt32, unit: "bytes",
			doc:   "A MEMORY.md index this large reaches the capacity wall.",
			apply: func(c *Config, v any) { c.Wash.IndexMaxBytes = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.IndexMaxBytes) }},
		{key: "wash.index_max_lines", kind: kindInt, min: 1, max: math.MaxInt32, unit: "lines",
			doc:   "A MEMORY.md index with this many lines reaches the capacity wall.",
			apply: func(c *Config, v any) { c.Wash.IndexMaxLines = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.IndexMaxLines) }},
		{key: "wash.budget_tokens", kind: kindInt, min: 0, max: math.MaxInt32, unit: "tokens",
			doc:   "Footprint one platform's always-loaded memory should stay under; above it a judgement pass (`prosewash wash full`) arms the band even without mechanical fat. 0 means the platform's own: 10000 (Claude Code warns about a memory file over 40,000 characters), 8192 for Codex (its 32 KiB AGENTS.md cap).",
			apply: func(c *Config, v any) { c.Wash.BudgetTokens = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.BudgetTokens) }},
		{key: "wash.stale_days", kind: kindInt, min: 1, max: 36500, unit: "days",
			doc:   "An always-loaded entry dated (or, undated, first seen) longer ago than this is a staleness candidate for the judgement pass; candidates count toward the band.",
			apply: func(c *Config, v any) { c.Wash.StaleDays = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.StaleDays) }},
		{key: "wash.archive_after_days", kind: kindInt, min: 1, max: 36500, unit: "days",
			doc:   "`prosewash wash archive` takes Claude Code sessions whose newest file is older than this (and that no live session holds).",
			apply: func(c *Config, v any) { c.Wash.ArchiveAfterDays = int(v.(int64)) },
			show:  func(c *Config) string { return strconv.Itoa(c.Wash.ArchiveAfterDays) }},
		{key: "wash.archive_dir", kind: kindString, check: absolutePath,
			doc:   "Where archived transcripts go (an absolute path; one directory per Claude Code project under it). Empty means `$XDG_DATA_HOME/prosewash/transcripts` (`~/.local/share/prosewash/transcripts`).",
			apply: func(c *Config, v any) { c.Wash.ArchiveDir = v.(string) },
			show:  func(c *Config) string { return strconv.Quote(c.Wash.ArchiveDir) }},
	}
}

// absolutePath accepts an empty string or an absolute path.
func absolutePath(s string) error {
	if s != "" && !filepath.IsAbs(s) {
		return fmt.Errorf("%q is not an absolute path", s)
	}
	return nil
}

func levelNames() []string {
	var names []string
	for _, l := range validate.Levels() {
		names = append(names, l.String())
	}
	return names
}

func specFor(all []spec, key string) (spec, bool) {
	for _, s := range all {
		if s.key == key {
			return s, true
		}
	}
	return spec{}, false
}

func showList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func showCommand(argv []string) string {
	if len(argv) == 0 {
		return "(not set)"
	}
	return showList(argv)
}

// tomlType names the TOML type of a decoded value for messages.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "table"
	case nil:
		return "nothing"
	}
	return "date or time"
}

// isCustomID reports whether s is custom/<id> with id made of lower-case
// letters, digits, '.', '_' and '-', starting with a letter or digit.
func isCustomID(s string) bool {
	id, ok := strings.CutPrefix(s, "custom/")
	if !ok || id == "" || len(id) > 64 {
		return false
	}
	for i, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case i > 0 && (r == '.' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// decode checks a raw TOML value against the spec and returns the value
// apply expects, or a message saying what is wrong (never the value of a
// command, which may be long).
func (s spec) decode(v any) (any, string) {
	switch s.kind {
	case kindString, kindEnum, kindPipeline:
		return s.decodeString(v)
	case kindInt:
		return s.decodeInt(v)
	case kindBool:
		b, ok := v.(bool)
		if !ok {
			return nil, "want true or false, got a " + tomlType(v)
		}
		return b, ""
	case kindPatterns:
		return decodeArray(v, "patterns", "a string pattern", func(p string) string {
			if msg := checkPattern(p); msg != "" {
				return " " + quoteShort(p) + ": " + msg
			}
			return ""
		})
	case kindStrings:
		return decodeArray(v, "strings", "a string", func(str string) string {
			if err := s.check(str); err != nil {
				return ": " + err.Error()
			}
			return ""
		})
	case kindCommand:
		argv, err := ParseCommand(v)
		if err != nil {
			return nil, err.Error()
		}
		if argv == nil {
			argv = []string{} // set to nothing: it overrides a user command
		}
		return argv, ""
	}
	return nil, "unsupported key type"
}

// decodeString decodes a string, an enum member or a pipeline name.
func (s spec) decodeString(v any) (any, string) {
	str, ok := v.(string)
	if !ok {
		return nil, "want a string, got a " + tomlType(v)
	}
	switch s.kind {
	case kindEnum:
		if slices.Contains(s.enum, str) {
			return str, ""
		}
		return nil, fmt.Sprintf("got %s; want one of %s", quoteShort(str), strings.Join(s.enum, ", "))
	case kindPipeline:
		if str != "safe" && str != "full" && !isCustomID(str) {
			return nil, fmt.Sprintf("got %s; want safe, full or custom/<id> (lower-case letters, digits, '.', '_', '-')", quoteShort(str))
		}
	}
	if s.check != nil {
		if err := s.check(str); err != nil {
			return nil, err.Error()
		}
	}
	return str, ""
}

// decodeInt decodes an integer within the spec's range.
func (s spec) decodeInt(v any) (any, string) {
	n, ok := v.(int64)
	if !ok {
		what := "an integer"
		if s.unit != "" {
			what = "an integer number of " + s.unit
		}
		return nil, fmt.Sprintf("want %s, got a %s", what, tomlType(v))
	}
	if n < s.min || n > s.max {
		return nil, fmt.Sprintf("got %d; want %d to %d", n, s.min, s.max)
	}
	return n, ""
}

// decodeArray decodes an array of strings ("an array of " + what), each
// one (want) checked by check, which returns what follows "element N" in
// the message when it is wrong.
func decodeArray(v any, what, want string, check func(string) string) (any, string) {
	arr, ok := v.([]any)
	if !ok {
		return nil, "want an array of " + what + ", got a " + tomlType(v)
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		str, ok := e.(string)
		if !ok {
			return nil, fmt.Sprintf("element %d is a %s; want %s", i+1, tomlType(e), want)
		}
		if msg := check(str); msg != "" {
			return nil, fmt.Sprintf("element %d%s", i+1, msg)
		}
		out = append(out, str)
	}
	return out, ""
}

func checkAllow(s string) error {
	a, err := carrier.ParseAllow(s)
	if err != nil {
		return err
	}
	if a.Glob != "" {
		if msg := checkPattern(a.Glob); msg != "" {
			return fmt.Errorf("%q: %s", s, msg)
		}
	}
	return nil
}

func checkPattern(p string) string {
	switch {
	case p == "":
		return "empty pattern"
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return "patterns are relative to the project root"
	case !doublestar.ValidatePattern(p):
		return "not a valid doublestar pattern"
	}
	for _, seg := range strings.Split(path.Clean(p), "/") {
		if seg == ".." {
			return "patterns cannot leave the project root"
		}
	}
	return ""
}

// quoteShort quotes a configured value for a message, cut to a sane length.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strconv.Quote(s)
}
