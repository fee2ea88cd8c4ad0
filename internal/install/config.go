package install

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

// ConfigFile is the project configuration, relative to the root.
const ConfigFile = ".prosewash.toml"

// The patterns are compiled when used, not at package init: every hook
// process links this package and must not pay for them.
const (
	tablePattern    = `^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$`
	modeLinePattern = `^(\s*mode\s*=\s*)("[^"]*"|'[^']*'|[^#\s]+)(\s*#.*)?$`
	dottedPattern   = `^(\s*clean\s*\.\s*mode\s*=\s*)("[^"]*"|'[^']*'|[^#\s]+)(\s*#.*)?$`
)

// ModeChange is the [clean] mode edit of the project's .prosewash.toml,
// read and checked before anything is written.
type ModeChange struct {
	path    string
	next    []byte
	existed bool
	// Action is what Apply does: Installed, Updated or Unchanged.
	Action Action
}

// PlanMode computes [clean] mode set in the project's .prosewash.toml,
// changing nothing else in it: comments, order and every other key stay as
// they are. The edit is checked by parsing both versions; when the file is
// laid out in a way the edit cannot handle safely, it is refused and the
// caller prints the line to add by hand. Nothing is written.
func PlanMode(root, mode string) (*ModeChange, error) {
	path := filepath.Join(root, ConfigFile)
	old, existed, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	before := map[string]any{}
	// A byte order mark stays where it is; the edit works on the text.
	text := tomlx.StripBOM(old)
	bom := string(old[:len(old)-len(text)])
	if err := toml.Unmarshal(text, &before); err != nil {
		return nil, fmt.Errorf("%s is not valid TOML (%v); not touched", path, err)
	}
	next := bom + editMode(string(text), mode)
	after := map[string]any{}
	if err := toml.Unmarshal(tomlx.StripBOM([]byte(next)), &after); err != nil {
		return nil, fmt.Errorf("%s: cannot set [clean] mode safely; not touched", path)
	}
	want := before
	cleanTable, _ := want["clean"].(map[string]any)
	if cleanTable == nil {
		if _, ok := want["clean"]; ok {
			return nil, fmt.Errorf("%s: clean is not a table; not touched", path)
		}
		cleanTable = map[string]any{}
		want["clean"] = cleanTable
	}
	cleanTable["mode"] = mode
	if !reflect.DeepEqual(want, after) {
		return nil, fmt.Errorf("%s: cannot set [clean] mode safely; not touched", path)
	}
	c := &ModeChange{path: path, next: []byte(next), existed: existed, Action: Installed}
	switch {
	case next == string(old) && existed:
		c.Action = Unchanged
	case existed:
		c.Action = Updated
	}
	return c, nil
}

// Apply writes the edit.
func (c *ModeChange) Apply() (Action, error) {
	if c.Action == Unchanged {
		return Unchanged, nil
	}
	if err := writeFile(c.path, c.next, 0o644); err != nil {
		return "", err
	}
	return c.Action, nil
}

// SetMode writes [clean] mode into the project's .prosewash.toml (see
// PlanMode).
func SetMode(root, mode string) (Action, error) {
	c, err := PlanMode(root, mode)
	if err != nil {
		return "", err
	}
	return c.Apply()
}

// editMode returns text with [clean] mode set, by lines: replace an
// existing mode key in [clean] (or a top-level clean.mode), else add one
// under the [clean] header, else append the table.
func editMode(text, mode string) string {
	val := fmt.Sprintf("%q", mode)
	tableRE := regexp.MustCompile(tablePattern)
	modeLineRE := regexp.MustCompile(modeLinePattern)
	dottedRE := regexp.MustCompile(dottedPattern)
	lines := strings.SplitAfter(text, "\n")
	table := ""
	headerAt := -1
	inMulti := ""
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		if inMulti != "" {
			if strings.Count(body, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(body, q)%2 == 1 {
				inMulti = q
			}
		}
		if m := tableRE.FindStringSubmatch(body); m != nil && !strings.HasPrefix(strings.TrimSpace(body), "[[") {
			table = strings.Join(strings.Fields(strings.ReplaceAll(m[1], " ", "")), "")
			if table == "clean" && headerAt < 0 {
				headerAt = i
			}
			continue
		}
		re := modeLineRE
		if table == "" {
			re = dottedRE
		} else if table != "clean" {
			continue
		}
		if m := re.FindStringSubmatch(body); m != nil {
			lines[i] = m[1] + val + m[3] + l[len(body):]
			return strings.Join(lines, "")
		}
	}
	if headerAt >= 0 {
		eol := lines[headerAt][len(strings.TrimRight(lines[headerAt], "\r\n")):]
		if eol == "" {
			lines[headerAt] += "\n"
			eol = "\n"
		}
		ins := "mode = " + val + eol
		lines = append(lines[:headerAt+1], append([]string{ins}, lines[headerAt+1:]...)...)
		return strings.Join(lines, "")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if text != "" {
		text += "\n"
	}
	return text + "[clean]\nmode = " + val + "\n"
}
