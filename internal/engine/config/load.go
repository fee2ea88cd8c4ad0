package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

// ProjectFile is the name of the project configuration file, at the
// project root.
const ProjectFile = ".prosewash.toml"

// maxConfigSize bounds a configuration file; anything larger is not a
// configuration someone wrote.
const maxConfigSize = 1 << 20

// Warning is a problem that does not stop a run: an unknown key, a project
// value that a user setting overrides, a risky value. Callers show every
// warning; none is silently dropped.
type Warning struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (w Warning) String() string {
	return position(w.File, w.Line, 0) + prefixKey(w.Key) + w.Msg
}

// Error is an invalid configuration: TOML that does not parse, a value of
// the wrong type or out of range. Nothing may run with it.
type Error struct {
	File string
	Line int // 0 when the problem is the file itself
	Col  int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	return position(e.File, e.Line, e.Col) + prefixKey(e.Key) + e.Msg
}

func position(file string, line, col int) string {
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("%s:%d:%d: ", file, line, col)
	case line > 0:
		return fmt.Sprintf("%s:%d: ", file, line)
	}
	return file + ": "
}

func prefixKey(k string) string {
	if k == "" {
		return ""
	}
	return k + ": "
}

// UserPath returns the user configuration file: on Windows
// %APPDATA%\prosewash\config.toml, elsewhere
// $XDG_CONFIG_HOME/prosewash/config.toml (when set and absolute), else
// ~/.config/prosewash/config.toml. It returns "" when neither the
// environment nor home says where that is.
func UserPath(getenv func(string) string, home string) string {
	return userPath(runtime.GOOS, getenv, home)
}

func userPath(goos string, getenv func(string) string, home string) string {
	if goos == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "prosewash", "config.toml")
		}
		if home != "" {
			return filepath.Join(home, "AppData", "Roaming", "prosewash", "config.toml")
		}
		return ""
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "prosewash", "config.toml")
	}
	if home != "" {
		return filepath.Join(home, ".config", "prosewash", "config.toml")
	}
	return ""
}

// Load reads the user configuration and the project's .prosewash.toml under
// root (either may be missing) and merges them over the defaults. A nil
// getenv means os.Getenv; an empty root skips the project file. On error
// the Config is nil and nothing may run; warnings are returned either way.
func Load(root string, getenv func(string) string, home string) (*Config, []Warning, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	project := ""
	if root != "" {
		project = filepath.Join(root, ProjectFile)
	}
	return LoadFiles(UserPath(getenv, home), project)
}

// LoadFiles is Load with explicit file paths; an empty path is skipped, a
// missing file is not an error.
func LoadFiles(userFile, projectFile string) (*Config, []Warning, error) {
	cfg := Default()
	all := specs()
	var (
		warns  []Warning
		errs   []error
		layers [2]layer
	)
	for i, path := range []string{userFile, projectFile} {
		if path == "" {
			continue
		}
		data, found, err := readConfig(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !found {
			continue
		}
		cfg.Sources = append(cfg.Sources, path)
		l, w, e := parse(path, data, all)
		layers[i] = l
		warns = append(warns, w...)
		errs = append(errs, e...)
	}
	if len(errs) > 0 {
		return nil, warns, errors.Join(errs...)
	}
	warns = append(warns, cfg.merge(all, layers[0], layers[1])...)
	w, err := cfg.check()
	warns = append(warns, w...)
	if err != nil {
		return nil, warns, err
	}
	return cfg, warns, nil
}

func readConfig(path string) ([]byte, bool, error) {
	// Every hook reads the configuration: a FIFO or device in its place
	// must be an error, never a wait (fsx.ReadRegular never blocks).
	data, err := fsx.ReadRegular(path, maxConfigSize, true)
	var re *fsx.RefusedError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case errors.As(err, &re) && re.Kind == fsx.TooLarge:
		return nil, false, &Error{File: path, Msg: fmt.Sprintf("larger than %d bytes", maxConfigSize)}
	case errors.As(err, &re):
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return nil, false, &Error{File: path, Msg: "is a directory, not a configuration file"}
		}
		return nil, false, &Error{File: path, Msg: re.Kind.String() + ", not a configuration file"}
	case err != nil:
		return nil, false, &Error{File: path, Msg: "cannot read: " + fsx.Cause(err).Error()}
	}
	return tomlx.StripBOM(data), true, nil
}

// entry is one value read from a file.
type entry struct {
	val  any
	file string
	line int
	col  int
}

// layer is what one file sets, by key.
type layer map[string]entry

type pos struct{ line, col int }

// parse decodes one file into a layer. Syntax errors stop at the first;
// type errors are all collected.
func parse(file string, data []byte, all []spec) (layer, []Warning, []error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			// de.Key() is relative to the current table, so it is left out
			// rather than shown as a misleading partial key.
			return nil, nil, []error{&Error{File: file, Line: line, Col: col,
				Msg: "invalid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}}
		}
		return nil, nil, []error{&Error{File: file, Msg: "invalid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}}
	}
	at := keyPositions(data)
	where := func(parts ...string) pos { return at[strings.Join(parts, "\x00")] }
	l := layer{}
	var warns []Warning
	var errs []error
	for _, t := range sortedKeys(doc, func(k string) pos { return where(k) }) {
		p := where(t)
		if !slices.Contains(tables(), t) {
			warns = append(warns, Warning{File: file, Line: p.line, Key: t, Msg: unknownMsg(t, tables(), "table")})
			continue
		}
		m, ok := doc[t].(map[string]any)
		if !ok {
			errs = append(errs, &Error{File: file, Line: p.line, Col: p.col, Key: t,
				Msg: fmt.Sprintf("want a table ([%s]), got a %s", t, tomlType(doc[t]))})
			continue
		}
		for _, k := range sortedKeys(m, func(k string) pos { return where(t, k) }) {
			key := t + "." + k
			p := where(t, k)
			sp, ok := specFor(all, key)
			if !ok {
				warns = append(warns, Warning{File: file, Line: p.line, Key: key, Msg: unknownMsg(k, keysOf(all, t), "key")})
				continue
			}
			v, msg := sp.decode(m[k])
			if msg != "" {
				errs = append(errs, &Error{File: file, Line: p.line, Col: p.col, Key: key, Msg: msg})
				continue
			}
			l[key] = entry{val: v, file: file, line: p.line, col: p.col}
		}
	}
	return l, warns, errs
}

func sortedKeys(m map[string]any, at func(string) pos) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		pa, pb := at(a), at(b)
		if pa.line != pb.line {
			return pa.line - pb.line
		}
		if pa.col != pb.col {
			return pa.col - pb.col
		}
		return strings.Compare(a, b)
	})
	return keys
}

func keysOf(all []spec, table string) []string {
	var out []string
	for _, s := range all {
		if t, k, _ := strings.Cut(s.key, "."); t == table {
			out = append(out, k)
		}
	}
	return out
}

func unknownMsg(name string, known []string, what string) string {
	msg := "unknown " + what + ", ignored"
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		msg += "; did you mean " + strconv.Quote(best) + "?"
	}
	return msg
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keyPositions maps every key path (parts joined by NUL) to the position
// of its first definition, using the parser go-toml exposes. It runs only
// on documents that already decoded, so it does not report errors; a
// missing position is line 0.
func keyPositions(data []byte) (m map[string]pos) {
	m = map[string]pos{}
	defer func() {
		// The AST API is marked unstable; a surprise there must cost line
		// numbers, never the run.
		if recover() != nil {
			return
		}
	}()
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = recordKey(&p, m, nil, e.Key())
		case unstable.KeyValue:
			recordKeyValue(&p, m, table, e)
		}
	}
	return m
}

func recordKey(p *unstable.Parser, m map[string]pos, prefix []string, it unstable.Iterator) []string {
	path := slices.Clone(prefix)
	for it.Next() {
		k := it.Node()
		path = append(path, string(k.Data))
		id := strings.Join(path, "\x00")
		if _, seen := m[id]; !seen {
			sh := p.Shape(k.Raw)
			m[id] = pos{line: sh.Start.Line, col: sh.Start.Column}
		}
	}
	return path
}

func recordKeyValue(p *unstable.Parser, m map[string]pos, prefix []string, kv *unstable.Node) {
	path := recordKey(p, m, prefix, kv.Key())
	if v := kv.Value(); v != nil && v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				recordKeyValue(p, m, path, c)
			}
		}
	}
}

// merge applies the user layer, then the project layer, key by key, and
// records where each value came from.
func (c *Config) merge(all []spec, user, project layer) []Warning {
	var warns []Warning
	for _, s := range all {
		u, hasU := user[s.key]
		p, hasP := project[s.key]
		switch {
		case !hasU && !hasP:
			c.origins[s.key] = Origin{}
		case !hasP:
			c.set(s, u, "")
		case !hasU || s.merge == projectWins:
			c.set(s, p, "")
		case s.merge == unionOf:
			both := slices.Clone(u.val.([]string))
			for _, x := range p.val.([]string) {
				if !slices.Contains(both, x) {
					both = append(both, x)
				}
			}
			c.set(s, entry{val: both, file: p.file, line: p.line}, fmt.Sprintf("plus %s:%d", u.file, u.line))
		default:
			if s.looser(p.val, u.val) {
				c.set(s, u, fmt.Sprintf("%s:%d asks for %s, which a project may not loosen", p.file, p.line, showValue(p.val)))
				warns = append(warns, Warning{File: p.file, Line: p.line, Key: s.key,
					Msg: fmt.Sprintf("a project may only tighten this key: %s stays as the user configuration sets it (%s:%d)",
						showValue(u.val), u.file, u.line)})
			} else {
				c.set(s, p, "")
			}
		}
	}
	return warns
}

func (c *Config) set(s spec, e entry, note string) {
	s.apply(c, e.val)
	c.origins[s.key] = Origin{File: e.file, Line: e.line, Note: note}
}

// looser reports whether value a is less safe than value b for a
// tighten-only key.
func (s spec) looser(a, b any) bool {
	switch s.merge {
	case safestOf:
		return slices.Index(s.safety, a.(string)) > slices.Index(s.safety, b.(string))
	case smallerOf:
		return a.(int64) > b.(int64)
	case eitherTrue:
		return !a.(bool) && b.(bool)
	}
	return false
}

func showValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []string:
		return showList(x)
	}
	return fmt.Sprint(v)
}

// check validates relations between keys after the merge.
func (c *Config) check() ([]Warning, error) {
	var warns []Warning
	if c.Clean.MaxRewriteStages > 1 {
		o := c.origins["clean.max_rewrite_stages"]
		warns = append(warns, Warning{File: o.File, Line: o.Line, Key: "clean.max_rewrite_stages",
			Msg: fmt.Sprintf("%d rewrite stages allowed; each is a non-deterministic pass over your prose and demands the tests level", c.Clean.MaxRewriteStages)})
	}
	if c.Wash.FatDisarmTokens >= c.Wash.FatArmTokens {
		o := c.origins["wash.fat_disarm_tokens"]
		if o.File == "" {
			o = c.origins["wash.fat_arm_tokens"]
		}
		return warns, &Error{File: o.File, Line: o.Line, Key: "wash.fat_disarm_tokens",
			Msg: fmt.Sprintf("%d must be below wash.fat_arm_tokens (%d), or the band never disarms", c.Wash.FatDisarmTokens, c.Wash.FatArmTokens)}
	}
	return warns, nil
}
