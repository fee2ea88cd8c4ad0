package agentharness

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Call is one tool call a chat mock's script makes: the first of Tools the
// request offers is called with its arguments. Agent CLIs name the same
// work differently (Copilot CLI's create, Qwen Code's write_file), so one
// step lists every spelling.
type Call struct {
	Tools []Tool
}

// Tool is one spelling of a call: the tool's name and its arguments.
type Tool struct {
	Name string
	Args map[string]any
}

// NewChatMock mocks an OpenAI-compatible chat-completions API (POST
// .../chat/completions, streamed or not; GET .../models) as the Copilot
// CLI in its bring-your-own-model mode, Qwen Code and opencode call it.
// Its script is stateless, keyed on what the client sends: with i tool
// results in the conversation it makes calls[i] (KindWrite), after the
// last one it answers "done" (KindFinal); a request whose last message is
// a user's after the model already answered is an end-of-turn hook's
// prompt or a new turn (KindContinuation), answered "done after hook
// feedback"; a request offering no tools (a title, a summary) is
// KindSide. A step none of whose tools the client offers ends the script
// with "done".
func NewChatMock(calls ...Call) (*Mock, error) {
	return newMock(func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
		if r.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/models") {
			m.log(r, KindSide, body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4.1","object":"model","owned_by":"mock"}]}`)
			return
		}
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			m.log(r, KindSide, body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"not mocked"}}`)
			return
		}
		var req chatRequest
		json.Unmarshal(body, &req)
		kind, call, text := req.answer(calls)
		m.log(r, kind, body)
		id := fmt.Sprintf("chatcmpl-mock-%d", len(m.Requests()))
		if req.Stream {
			sse(w, chatStream(id, req.Model, call, text))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(chatCompletion(id, req.Model, call, text))
		w.Write(b)
	})
}

type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role string `json:"role"`
	} `json:"messages"`
	Tools []struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// answer is the script's reply: a tool call, or text.
func (req *chatRequest) answer(calls []Call) (kind string, call *Tool, text string) {
	offered := map[string]bool{}
	for _, t := range req.Tools {
		offered[t.Function.Name+t.Name] = true
	}
	if len(offered) == 0 {
		return KindSide, nil, "ok"
	}
	done, answered := 0, false
	for _, m := range req.Messages {
		switch m.Role {
		case "tool":
			done++
		case "assistant":
			answered = true
		}
	}
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" && answered {
		return KindContinuation, nil, "done after hook feedback"
	}
	if done < len(calls) {
		for _, t := range calls[done].Tools {
			if offered[t.Name] {
				return KindWrite, &t, ""
			}
		}
	}
	return KindFinal, nil, "done"
}

func chatMessage(id string, call *Tool, text string) (map[string]any, string) {
	if call == nil {
		return map[string]any{"role": "assistant", "content": text}, "stop"
	}
	args, _ := json.Marshal(call.Args)
	return map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"id": "call_" + id, "type": "function", "function": map[string]any{"name": call.Name, "arguments": string(args)}}}}, "tool_calls"
}

var chatUsage = map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}

func chatCompletion(id, model string, call *Tool, text string) map[string]any {
	msg, finish := chatMessage(id, call, text)
	return map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": chatUsage}
}

// chatStream is the same answer as server-sent chunks: the role and the
// call's name (or the text), the call's arguments, the finish reason, the
// usage, [DONE].
func chatStream(id, model string, call *Tool, text string) []string {
	chunk := func(delta map[string]any, finish any) string {
		choices := []any{}
		if delta != nil {
			choices = append(choices, map[string]any{"index": 0, "delta": delta, "finish_reason": finish})
		}
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model, "choices": choices}
		if delta == nil {
			c["usage"] = chatUsage
		}
		b, _ := json.Marshal(c)
		return "data: " + string(b) + "\n\n"
	}
	var out []string
	finish := "stop"
	if call == nil {
		out = append(out, chunk(map[string]any{"role": "assistant", "content": text}, nil))
	} else {
		finish = "tool_calls"
		args, _ := json.Marshal(call.Args)
		out = append(out,
			chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"index": 0, "id": "call_" + id, "type": "function", "function": map[string]any{"name": call.Name, "arguments": ""}}}}, nil),
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": string(args)}}}}, nil))
	}
	return append(out, chunk(map[string]any{}, finish), chunk(nil, nil), "data: [DONE]\n\n")
}
