package config

import (
	"fmt"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Clean modes: what the Stop hook does with the session's files.
const (
	ModeAutomatic = "automatic" // clean them (needs a valid approval)
	ModeConfirm   = "confirm"   // ask the agent to ask the user
	ModeManual    = "manual"    // nothing; only explicit runs clean
)

// Wash modes: what the memory lane does on its own.
const (
	WashAuto   = "auto"   // gauge at session start, one nudge at Stop when fat
	WashManual = "manual" // gauge stays silent; only explicit runs
	WashOff    = "off"    // the memory lane does nothing
)

// Config is the effective configuration: defaults, then the user file,
// then the project file, merged key by key.
type Config struct {
	Check    Check
	Clean    Clean
	Commands validate.Commands
	Wash     Wash
	// Sources are the files that were read, user file first.
	Sources []string

	origins map[string]Origin
}

// Check is the [check] table: what prosewash check reports.
type Check struct {
	Exclude []string // doublestar patterns of paths check does not walk into
}

// Clean is the [clean] table: the prose lane.
type Clean struct {
	Mode              string
	Pipeline          string
	Profile           carrier.Profile
	Validation        validate.Level
	ValidationTimeout time.Duration
	Include           []string
	Exclude           []string
	Allow             []string // [clean] allow entries, checked by carrier.ParseAllow
	MaxRewriteStages  int
	RewriteModel      string
	RewriteEndpoint   string
	MaxFileSize       int64
}

// Wash is the [wash] table: the memory lane.
type Wash struct {
	Mode      string
	LocalOnly bool
	// FatArmTokens arms the OBESE band; FatDisarmTokens (lower) disarms it.
	FatArmTokens    int
	FatDisarmTokens int
	// CapacityTokens, IndexMaxBytes and IndexMaxLines are the capacity wall.
	CapacityTokens int
	IndexMaxBytes  int
	IndexMaxLines  int
	// BudgetTokens overrides the platforms' budgets (0: each platform's own); StaleDays is
	// the staleness horizon of the judgement candidates.
	BudgetTokens int
	StaleDays    int
	// ArchiveAfterDays and ArchiveDir configure the transcript archive.
	ArchiveAfterDays int
	ArchiveDir       string
}

// Origin says where an effective value came from.
type Origin struct {
	File string // "" for the built-in default
	Line int
	Note string // e.g. why a project value was not taken
}

func (o Origin) String() string {
	s := "default"
	if o.File != "" {
		s = fmt.Sprintf("%s:%d", o.File, o.Line)
	}
	if o.Note != "" {
		s += " (" + o.Note + ")"
	}
	return s
}

// Default returns the built-in configuration.
func Default() *Config {
	c := &Config{
		Clean: Clean{
			Mode:              ModeManual,
			Pipeline:          "safe",
			Profile:           carrier.Standard,
			Validation:        validate.Syntax,
			ValidationTimeout: 600 * time.Second,
			MaxRewriteStages:  1,
			RewriteEndpoint:   "http://127.0.0.1:11434",
			MaxFileSize:       4 << 20,
		},
		Wash: Wash{
			Mode:             WashAuto,
			FatArmTokens:     500,
			FatDisarmTokens:  200,
			CapacityTokens:   600000,
			IndexMaxBytes:    25 * 1024,
			IndexMaxLines:    200,
			StaleDays:        180,
			ArchiveAfterDays: 14,
		},
		origins: map[string]Origin{},
	}
	return c
}

// CleanMode is the clean mode to act on. It is safe on a nil Config, so a
// hook can write cfg.CleanMode() after a failed Load: a configuration that
// is missing or cannot be read means manual.
func (c *Config) CleanMode() string {
	if c == nil || c.Clean.Mode == "" {
		return ModeManual
	}
	return c.Clean.Mode
}

// AllowRules is [clean] allow, parsed (Load already refused entries that
// do not parse). Safe on a nil Config.
func (c *Config) AllowRules() []carrier.Allow {
	if c == nil {
		return nil
	}
	var out []carrier.Allow
	for _, s := range c.Clean.Allow {
		if a, err := carrier.ParseAllow(s); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// Origin returns where the effective value of key (e.g. "clean.mode") came
// from.
func (c *Config) Origin(key string) Origin {
	if c == nil {
		return Origin{}
	}
	return c.origins[key]
}
