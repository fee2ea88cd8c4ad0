package discover

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// geminiFileNames returns the context file names a Gemini CLI family member loads
// (context.fileName: a string or a list; its default when unset) and the settings file that
// named them. Settings layer as the CLI merges them, later wins: the user's settings.json in
// cfg, the workspace's settings.json (.gemini/ or .qwen/) in the start directory (read in a
// trusted folder; a project that carries one is taken to trust it), then the system settings
// (the CLI's variable naming them, else its /etc path).
func (r *run) geminiFileNames(k geminiKind, cfg string) ([]string, string) {
	names, from := k.names, ""
	sys := r.opts.Getenv(k.sysEnv)
	if !filepath.IsAbs(sys) {
		sys = k.sysPath
	}
	for _, p := range []string{filepath.Join(cfg, "settings.json"), filepath.Join(r.start, k.home, "settings.json"), sys} {
		b, err := fsx.ReadRegular(p, 1<<20, true)
		if err != nil {
			continue
		}
		v, ok, err := geminiContextFileName(b)
		if err != nil {
			r.problem(p, k.platform, "unreadable settings.json (context.fileName not read): "+err.Error())
			continue
		}
		if ok {
			names, from = v, p
		}
	}
	return names, from
}

// geminiContextFileName reads context.fileName from a settings file (JSON with comments).
func geminiContextFileName(b []byte) ([]string, bool, error) {
	var s struct {
		Context struct {
			FileName json.RawMessage `json:"fileName"`
		} `json:"context"`
	}
	if err := json.Unmarshal(stripJSONComments(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})), &s); err != nil {
		return nil, false, err
	}
	raw := bytes.TrimSpace(s.Context.FileName)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	var one string
	var list []string
	if json.Unmarshal(raw, &one) == nil {
		list = []string{one}
	} else if err := json.Unmarshal(raw, &list); err != nil {
		return nil, false, err
	}
	var out []string
	for _, n := range list {
		n = strings.TrimSpace(n)
		if n != "" && filepath.IsLocal(n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, false, nil
	}
	return out, true, nil
}

// stripJSONComments blanks // and /* */ comments outside strings, as Gemini CLI's settings
// reader does before parsing.
func stripJSONComments(b []byte) []byte {
	out := append([]byte(nil), b...)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// frontList returns a front matter key's globs: an inline value (a comma list, or a flow
// sequence ["a", "b"]) or a block sequence of "- item" lines under the key; has reports that
// the key is present.
func frontList(content []byte, key string) ([]string, bool) {
	v, has := frontValue(content, key)
	if !has {
		return nil, false
	}
	if v = strings.TrimSpace(v); v != "" {
		return splitGlobs(strings.Trim(v, "[]")), true
	}
	content = bytes.TrimPrefix(content, []byte{0xEF, 0xBB, 0xBF})
	lines := strings.Split(string(content), "\n")
	var out []string
	found := false
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r")
		if strings.TrimRight(l, " \t") == "---" {
			break
		}
		if !found {
			found = strings.HasPrefix(l, key+":")
			continue
		}
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "- ") {
			break
		}
		out = append(out, splitGlobs(strings.TrimPrefix(t, "- "))...)
	}
	return out, true
}
