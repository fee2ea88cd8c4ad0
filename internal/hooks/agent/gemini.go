package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// gemini is Gemini CLI (docs/hooks/reference.md, 0.61.0): project hooks in
// .gemini/settings.json, Claude Code's protocol with its own event and
// tool names, GEMINI_PROJECT_DIR set for every hook, and JSON on stdout
// every time ({} for no opinion).
func gemini() Platform {
	// A regex on Gemini's own tool names (Claude's names do not alias there).
	const writes = "^(write_file|replace)$"
	return Platform{
		Name: "gemini", Title: "Gemini CLI", Memory: "gemini",
		// Timeouts in milliseconds.
		Events: []Event{
			{Arg: "session-start", Name: "SessionStart", Kind: SessionStart, Hooks: []Hook{{"", 30000}}},
			{Arg: "before-agent", Name: "BeforeAgent", Kind: TurnStart, Hooks: []Hook{{"", 30000}}},
			{Arg: "before-tool", Name: "BeforeTool", Kind: BeforeWrite, Hooks: []Hook{{writes, 30000}}},
			{Arg: "after-tool", Name: "AfterTool", Kind: AfterWrite, Hooks: []Hook{{writes, 30000}}},
			// AfterAgent's "deny" retries the turn with reason as the prompt.
			{Arg: "after-agent", Name: "AfterAgent", Kind: TurnEnd, Hooks: []Hook{{"", 600000}}},
		},
		Decode:    fileToolDecoder("GEMINI_PROJECT_DIR", map[string]int{"write_file": toolFile, "replace": toolFile}),
		Encode:    hookProtocol("deny", false),
		NoOpinion: "{}",
		Config: Config{File: ".gemini/settings.json", Markers: []string{".gemini", "GEMINI.md"}, Base: "{}", Grouped: true,
			Handler: func(ev Event, h Hook, command string) any {
				return geminiHandler{Type: "command", Name: "prosewash-" + ev.Arg, Command: command, Timeout: h.Timeout}
			}},
	}
}

type geminiHandler struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// geminiInput is the JSON Gemini CLI (and its fork Qwen Code) sends on a
// hook's stdin. tool_response is an object; it is not read.
type geminiInput struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	StopHookActive bool            `json:"stop_hook_active"`
}

// What a write tool's tool_input names: the file it writes, a notebook, or
// a shell command whose redirect targets it writes.
const (
	toolFile = iota + 1
	toolNotebook
	toolShell
	toolPatch // an apply_patch envelope (opencode's patchText)
)

// fileToolDecoder reads the payloads of Gemini CLI and the CLIs that share
// its payload (Qwen Code, a fork): session_id, cwd, tool_name and a
// tool_input; tools maps the platform's write tools to what their input
// names, projectVar is the environment variable the CLI sets to the
// project directory.
func fileToolDecoder(projectVar string, tools map[string]int) func([]byte, Kind, func(string) string) (*Payload, error) {
	return func(data []byte, k Kind, getenv func(string) string) (*Payload, error) {
		var in geminiInput
		if err := unmarshal(data, &in); err != nil {
			return nil, err
		}
		if in.SessionID == "" {
			return nil, errors.New("hook input has no session_id")
		}
		p := &Payload{Session: in.SessionID, Cwd: in.Cwd, ProjectDir: getenv(projectVar)}
		switch k {
		case BeforeWrite, AfterWrite:
			if in.ToolName == "" {
				return nil, errors.New("hook input has no tool_name")
			}
			ws, err := in.written(tools[in.ToolName], k == BeforeWrite)
			if err != nil {
				return nil, err
			}
			p.Writes = ws
		case TurnEnd:
			p.Again = in.StopHookActive
		}
		return p, nil
	}
}

// written is what a write tool wrote: tool_input.file_path (or
// notebook_path, or opencode's filePath), absolute as the CLI sends it (a
// relative one is taken against cwd), the literal redirect and tee targets
// of a shell command (in its workdir, for opencode), or the files of a
// patch envelope (with deletes, also those it deletes); nothing for a tool
// that writes no file.
func (in *geminiInput) written(what int, deletes bool) ([]session.Written, error) {
	if what == 0 {
		return nil, nil
	}
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Command      string `json:"command"`
		// opencode's names for them, and where its shell command runs.
		FilePathCamel string `json:"filePath"`
		PatchText     string `json:"patchText"`
		Workdir       string `json:"workdir"`
	}
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
		return nil, fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	if what == toolShell || what == toolPatch {
		if in.Cwd == "" || !filepath.IsAbs(in.Cwd) {
			return nil, fmt.Errorf("%s hook input has no absolute cwd to resolve its command's paths against", in.ToolName)
		}
		dir := in.Cwd
		if ti.Workdir != "" {
			dir = abs(ti.Workdir, in.Cwd)
		}
		if what == toolShell {
			return ShellPaths(ti.Command, dir), nil
		}
		ws := PatchPaths(ti.PatchText, dir)
		if deletes {
			ws = append(ws, PatchDeleted(ti.PatchText, dir)...)
		}
		return ws, nil
	}
	p := ti.FilePath
	if p == "" {
		p = ti.FilePathCamel
	}
	if what == toolNotebook && p == "" {
		p = ti.NotebookPath
	}
	if p == "" {
		return nil, fmt.Errorf("%s hook input names no file", in.ToolName)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		if in.Cwd == "" {
			return nil, fmt.Errorf("%s hook input path %q is relative and there is no cwd", in.ToolName, p)
		}
		abs = filepath.Join(in.Cwd, abs)
	}
	return []session.Written{{Path: filepath.Clean(abs), Raw: p}}, nil
}
