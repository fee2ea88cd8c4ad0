package agentharness

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Request is one request a mock answered.
type Request struct {
	Path string
	Kind string // write, final, continuation, side
	Body []byte
}

// Mentions reports whether the request body holds s (JSON-escaped as the
// client sends it).
func (r Request) Mentions(s string) bool {
	b, _ := json.Marshal(s)
	return strings.Contains(string(r.Body), strings.Trim(string(b), `"`))
}

// Mock is a scripted model API on 127.0.0.1. Its script is stateless,
// keyed on what the client sends: the first turn asks the tool to write
// the file, a turn after the tool's output ends with "done", a turn after
// a stop hook's block (the model's last message already said "done")
// ends with "done after hook feedback".
type Mock struct {
	srv  *http.Server
	ln   net.Listener
	mu   sync.Mutex
	reqs []Request
}

// Kinds of request the script tells apart.
const (
	KindWrite        = "write"
	KindFinal        = "final"
	KindContinuation = "continuation"
	KindSide         = "side"
)

func newMock(h func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte)) (*Mock, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Mock{ln: ln}
	m.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		h(m, w, r, body)
	})}
	go m.srv.Serve(ln)
	return m, nil
}

// URL is the mock's base URL.
func (m *Mock) URL() string { return "http://" + m.ln.Addr().String() }

// Close stops the mock.
func (m *Mock) Close() error { return m.srv.Close() }

// Requests returns what the mock answered, in order.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Of returns the requests of one kind.
func (m *Mock) Of(kind string) []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func (m *Mock) log(r *http.Request, kind string, body []byte) {
	m.mu.Lock()
	m.reqs = append(m.reqs, Request{Path: r.URL.Path, Kind: kind, Body: body})
	m.mu.Unlock()
}

func sse(w http.ResponseWriter, chunks []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	for _, c := range chunks {
		io.WriteString(w, c)
	}
}

// NewCodexMock mocks the OpenAI Responses API (POST /v1/responses, SSE) as
// Codex 0.169 calls it for a custom provider. target is the file the
// apply_patch Add File writes (relative to the session cwd), with content.
func NewCodexMock(target, content string) (*Mock, error) {
	return newMock(func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			m.log(r, KindSide, body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[]}`)
			return
		}
		var req struct {
			Model string            `json:"model"`
			Tools []json.RawMessage `json:"tools"`
			Input []json.RawMessage `json:"input"`
		}
		json.Unmarshal(body, &req)
		tools := map[string]string{}
		for _, t := range req.Tools {
			var x struct {
				Type, Name string
			}
			json.Unmarshal(t, &x)
			tools[x.Name] = x.Type
		}
		lastOut, lastAsst := -1, -1
		for i, it := range req.Input {
			var x struct{ Type, Role string }
			json.Unmarshal(it, &x)
			switch {
			case x.Type == "function_call_output" || x.Type == "custom_tool_call_output":
				lastOut = i
			case x.Type == "message" && x.Role == "assistant":
				lastAsst = i
			}
		}
		id := fmt.Sprintf("call_mock_%d", time.Now().UnixNano())
		var item map[string]any
		kind := KindFinal
		switch {
		case len(tools) == 0:
			kind, item = KindSide, codexMsg("ok")
		case lastOut >= 0 && lastAsst > lastOut:
			kind, item = KindContinuation, codexMsg("done after hook feedback")
		case lastOut >= 0:
			item = codexMsg("done")
		default:
			kind = KindWrite
			var b strings.Builder
			for _, l := range strings.SplitAfter(strings.TrimSuffix(content, "\n"), "\n") {
				b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
			}
			patch := "*** Begin Patch\n*** Add File: " + target + "\n" + b.String() + "*** End Patch\n"
			if tools["apply_patch"] == "custom" {
				item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "status": "completed", "call_id": id, "name": "apply_patch", "input": patch}
			} else {
				args, _ := json.Marshal(map[string]string{"input": patch})
				item = map[string]any{"type": "function_call", "id": "fc_" + id, "status": "completed", "call_id": id, "name": "apply_patch", "arguments": string(args)}
			}
		}
		m.log(r, kind, body)
		sse(w, codexStream(req.Model, item))
	})
}

func codexMsg(text string) map[string]any {
	return map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_%d", time.Now().UnixNano()), "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
}

func codexStream(model string, item map[string]any) []string {
	rid := fmt.Sprintf("resp_%d", time.Now().UnixNano())
	base := func(status string, output []any) map[string]any {
		return map[string]any{"id": rid, "object": "response", "created_at": time.Now().Unix(), "model": model, "status": status, "output": output}
	}
	ev := func(v map[string]any) string {
		b, _ := json.Marshal(v)
		return "event: " + v["type"].(string) + "\ndata: " + string(b) + "\n\n"
	}
	out := []string{ev(map[string]any{"type": "response.created", "sequence_number": 0, "response": base("in_progress", []any{})})}
	added := item
	if item["type"] == "message" {
		added = map[string]any{}
		for k, v := range item {
			added[k] = v
		}
		added["status"], added["content"] = "in_progress", []any{}
	}
	out = append(out, ev(map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": added}))
	if item["type"] == "message" {
		text := item["content"].([]any)[0].(map[string]any)["text"]
		out = append(out, ev(map[string]any{"type": "response.output_text.delta", "sequence_number": 2, "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": text}))
	}
	out = append(out, ev(map[string]any{"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item}))
	done := base("completed", []any{item})
	done["usage"] = map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 20,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 30}
	out = append(out, ev(map[string]any{"type": "response.completed", "sequence_number": 4, "response": done}))
	return out
}

// NewGeminiMock mocks the Gemini API (POST
// /v1beta/models/<m>:streamGenerateContent?alt=sse) as Gemini CLI 0.61
// calls it. target is the absolute path write_file writes, with content.
func NewGeminiMock(target, content string) (*Mock, error) {
	return newMock(func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
		p := r.URL.Path
		method := ""
		if i := strings.LastIndex(p, ":"); i >= 0 {
			method = p[i+1:]
		}
		if r.Method != http.MethodPost || (method != "streamGenerateContent" && method != "generateContent") {
			m.log(r, KindSide, body)
			w.Header().Set("Content-Type", "application/json")
			if method == "countTokens" {
				io.WriteString(w, `{"totalTokens":42}`)
				return
			}
			io.WriteString(w, `{}`)
			return
		}
		var req struct {
			Contents []struct {
				Role  string            `json:"role"`
				Parts []json.RawMessage `json:"parts"`
			} `json:"contents"`
			Tools []struct {
				FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
			} `json:"tools"`
			GenerationConfig struct {
				ResponseMimeType   string          `json:"responseMimeType"`
				ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
				ResponseSchema     json.RawMessage `json:"responseSchema"`
			} `json:"generationConfig"`
		}
		json.Unmarshal(body, &req)
		write := false
		for _, t := range req.Tools {
			for _, fd := range t.FunctionDeclarations {
				write = write || fd.Name == "write_file"
			}
		}
		nResp, lastModelCall, sawModel := 0, false, false
		for _, c := range req.Contents {
			for _, part := range c.Parts {
				if strings.Contains(string(part), `"functionResponse"`) {
					nResp++
				}
			}
			if c.Role == "model" {
				sawModel = true
				lastModelCall = false
				for _, part := range c.Parts {
					lastModelCall = lastModelCall || strings.Contains(string(part), `"functionCall"`)
				}
			}
		}
		var parts []any
		kind := KindFinal
		switch {
		case !write:
			kind = KindSide
			text := "ok"
			if req.GenerationConfig.ResponseMimeType == "application/json" {
				schema := req.GenerationConfig.ResponseJSONSchema
				if len(schema) == 0 {
					schema = req.GenerationConfig.ResponseSchema
				}
				var s any
				json.Unmarshal(schema, &s)
				b, _ := json.Marshal(fromSchema(s))
				text = string(b)
			}
			parts = []any{map[string]any{"text": text}}
		case sawModel && !lastModelCall:
			kind, parts = KindContinuation, []any{map[string]any{"text": "done after hook feedback"}}
		case nResp == 0:
			kind = KindWrite
			parts = []any{map[string]any{"text": "I'll write the file."},
				map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": target, "content": content}}}}
		default:
			parts = []any{map[string]any{"text": "done"}}
		}
		m.log(r, kind, body)
		var chunks []string
		for i, pt := range parts {
			c := map[string]any{"content": map[string]any{"role": "model", "parts": []any{pt}}, "index": 0}
			obj := map[string]any{"candidates": []any{c}, "modelVersion": "gemini-2.5-pro", "responseId": fmt.Sprintf("mock-%d", time.Now().UnixNano())}
			if i == len(parts)-1 {
				c["finishReason"] = "STOP"
				obj["usageMetadata"] = map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 20, "totalTokenCount": 30}
			}
			b, _ := json.Marshal(obj)
			chunks = append(chunks, "data: "+string(b)+"\r\n\r\n")
		}
		if method == "generateContent" {
			w.Header().Set("Content-Type", "application/json")
			b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}}})
			w.Write(b)
			return
		}
		sse(w, chunks)
	})
}

// fromSchema builds a value a JSON schema accepts: the first enum value,
// "mock" strings, zeros, empty arrays.
func fromSchema(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		return "mock"
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	t, _ := m["type"].(string)
	if ts, ok := m["type"].([]any); ok {
		for _, x := range ts {
			if s, _ := x.(string); s != "null" {
				t = s
				break
			}
		}
	}
	switch strings.ToLower(t) {
	case "object":
	case "array":
		return []any{}
	case "integer", "number":
		return 0
	case "boolean":
		return false
	default:
		if _, ok := m["properties"]; !ok {
			return "mock"
		}
	}
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	for k, v := range props {
		out[k] = fromSchema(v)
	}
	return out
}
