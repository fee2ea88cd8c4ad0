package agent

import "github.com/prosewash/prosewash/internal/engine/jsonfast"

// The readers below fill Claude Code's payload types as encoding/json
// fills them from the compact members slim keeps, without its reflection;
// a member they do not name exactly, or anything else they are not sure
// of, leaves the payload to encoding/json (slim_test.go proves them against
// it on the CLI's own payloads and fuzzed ones).

func readClaudeInput(r *jsonfast.Reader, in *claudeInput) {
	strs := map[string]*string{
		"session_id": &in.SessionID, "conversation_id": &in.ConversationID, "cursor_version": &in.CursorVersion,
		"transcript_path": &in.TranscriptPath, "cwd": &in.Cwd, "tool_name": &in.ToolName,
		"file_path": &in.FilePath, "memory_type": &in.MemoryType, "load_reason": &in.LoadReason,
		"parent_file_path": &in.ParentFilePath, "agent_id": &in.AgentID, "agent_type": &in.AgentType,
	}
	r.Object(func(k string) bool {
		if p, ok := strs[k]; ok {
			*p = r.Str()
			return true
		}
		switch k {
		case "tool_input":
			in.ToolInput = r.Raw()
		case "tool_response":
			in.ToolResponse = r.Raw()
		case "stop_hook_active":
			in.StopHookActive = r.Bool()
		default:
			return false
		}
		return true
	})
}

// claudeFileInput is what a write tool's tool_input names.
type claudeFileInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

func readClaudeFileInput(r *jsonfast.Reader, ti *claudeFileInput) {
	r.Object(func(k string) bool {
		switch k {
		case "file_path":
			ti.FilePath = r.Str()
		case "notebook_path":
			ti.NotebookPath = r.Str()
		default:
			return false
		}
		return true
	})
}

// claudeAgentInput and claudeAgentResponse are what the subagent tool's
// tool_input and tool_response say of the subagent.
type claudeAgentInput struct {
	SubagentType string `json:"subagent_type"`
}

type claudeAgentResponse struct {
	AgentID string `json:"agentId"`
}

func readClaudeAgentInput(r *jsonfast.Reader, ti *claudeAgentInput) {
	r.Object(func(k string) bool {
		if k != "subagent_type" {
			return false
		}
		ti.SubagentType = r.Str()
		return true
	})
}

func readClaudeAgentResponse(r *jsonfast.Reader, tr *claudeAgentResponse) {
	r.Object(func(k string) bool {
		if k != "agentId" {
			return false
		}
		tr.AgentID = r.Str()
		return true
	})
}
