package ccharness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Reply texts of the scripted model, fixed so tests can assert on them.
const (
	// FinalText is the model's closing text once every scripted tool call is done.
	FinalText = "done"
	// ContinuationText answers a request sent after the model had already
	// ended its turn, which only a Stop hook's block causes.
	ContinuationText = "done after stop-hook feedback"
	// SideText answers requests that do not offer the Write tool (title
	// generation, probes): they are not the main agent loop.
	SideText = "ok"
	// SubagentMarker in the prompt of an Agent (Task) tool call makes the
	// request of the subagent it starts end at once with SubagentText, so a
	// scenario can spawn subagents without their loops replaying its steps.
	SubagentMarker = "[[ccharness:subagent]]"
	// SubagentText is a scripted subagent's whole answer.
	SubagentText = "subagent done"
)

// Kind classifies a request the mock received.
type Kind string

// Request kinds recorded in the mock's log.
const (
	KindToolUse          Kind = "tool_use"            // main loop; the model calls Scenario.Steps[Request.Step]
	KindFinal            Kind = "final"               // main loop; all steps done, the model ends its turn
	KindStopContinuation Kind = "after-stop-feedback" // main loop after the model had ended its turn (a Stop hook blocked)
	KindSide             Kind = "side"                // /v1/messages without the Write tool
	KindSubagent         Kind = "subagent"            // a subagent's loop (its first prompt holds SubagentMarker)
	KindCountTokens      Kind = "count_tokens"
	KindModels           Kind = "models"
	KindHead             Kind = "head"
	KindOther            Kind = "other"
)

// maxBody bounds a request body; real CLI requests are about 80 KB.
const maxBody = 32 << 20

// ToolCall is one tool_use the scripted model makes.
type ToolCall struct {
	Name  string         // tool name, e.g. "Write"
	Input map[string]any // tool input; Run makes a relative "file_path" absolute against the project
}

// Write is a Write tool call creating path with exactly content.
func Write(path, content string) ToolCall {
	return ToolCall{Name: "Write", Input: map[string]any{"file_path": path, "content": content}}
}

// Agent is a call of the subagent tool (named Agent or, in older CLIs,
// Task) that starts one subagent of subagentType; the subagent answers
// SubagentText at once (see SubagentMarker).
func Agent(tool, subagentType, description string) ToolCall {
	return ToolCall{Name: tool, Input: map[string]any{"description": description,
		"prompt": SubagentMarker + " " + description, "subagent_type": subagentType}}
}

// Edit is an Edit tool call replacing the single occurrence of oldString.
func Edit(path, oldString, newString string) ToolCall {
	return ToolCall{Name: "Edit", Input: map[string]any{"file_path": path, "old_string": oldString, "new_string": newString}}
}

// Scenario scripts the model: it makes Steps in order, one per turn, then
// ends its turn with FinalText. The script is stateless: each reply depends
// only on the conversation in the request, so side requests, retries and
// version differences cannot desynchronise it.
type Scenario struct {
	Steps []ToolCall
}

// Request is one request the mock received.
type Request struct {
	N      int // 1-based arrival order
	Method string
	Path   string // URL path without the query
	Query  string
	Header http.Header
	Body   []byte
	Kind   Kind
	Step   int  // index into Scenario.Steps for KindToolUse, else -1
	Stream bool // the client asked for SSE
}

// Mentions reports whether s occurs in any string of the request's messages
// or system prompt, after JSON decoding, so escaping cannot hide or fake a
// match. Use it to prove hook feedback reached the model.
func (r Request) Mentions(s string) bool {
	var body struct {
		System   any `json:"system"`
		Messages any `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return false
	}
	return anyStringContains(body.System, s) || anyStringContains(body.Messages, s)
}

func anyStringContains(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, s)
	case []any:
		for _, e := range x {
			if anyStringContains(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if anyStringContains(e, s) {
				return true
			}
		}
	}
	return false
}

// Mock is a loopback Anthropic Messages API that plays a Scenario.
type Mock struct {
	scenario Scenario
	ln       net.Listener
	srv      *http.Server
	done     chan struct{}

	mu   sync.Mutex
	reqs []Request
}

// NewMock starts a mock on 127.0.0.1 with a free port. Close it when done.
func NewMock(sc Scenario) (*Mock, error) {
	for i, st := range sc.Steps {
		if st.Name == "" {
			return nil, fmt.Errorf("scenario step %d: empty tool name", i)
		}
		if _, err := json.Marshal(st.Input); err != nil {
			return nil, fmt.Errorf("scenario step %d: input: %w", i, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mock listen: %w", err)
	}
	m := &Mock{scenario: sc, ln: ln, done: make(chan struct{})}
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(m.done)
		_ = m.srv.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	return m, nil
}

// URL is the base URL to put in ANTHROPIC_BASE_URL.
func (m *Mock) URL() string { return "http://" + m.ln.Addr().String() }

// Close stops the server and waits for it.
func (m *Mock) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := m.srv.Shutdown(ctx)
	if err != nil {
		err = errors.Join(err, m.srv.Close())
	}
	<-m.done
	if err != nil {
		return fmt.Errorf("mock close: %w", err)
	}
	return nil
}

// Requests returns a copy of the request log in arrival order.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

func (m *Mock) record(r *http.Request, body []byte, kind Kind, step int, stream bool) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.reqs) + 1
	m.reqs = append(m.reqs, Request{
		N: n, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, Kind: kind, Step: step, Stream: stream,
	})
	return n
}

// ServeHTTP implements http.Handler.
func (m *Mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		m.record(r, body, KindOther, -1, false)
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"body too large"}}`, http.StatusRequestEntityTooLarge)
		return
	}
	w.Header().Set("request-id", "req_mock")
	switch {
	case r.Method == http.MethodHead:
		m.record(r, body, KindHead, -1, false)
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		m.serveMessages(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		m.record(r, body, KindCountTokens, -1, false)
		writeJSON(w, "application/json", []byte(`{"input_tokens":42}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/models"):
		m.record(r, body, KindModels, -1, false)
		writeJSON(w, "application/json", []byte(`{"data":[{"type":"model","id":"claude-sonnet-4-5","display_name":"mock","created_at":"2025-01-01T00:00:00Z"}],"has_more":false,"first_id":"claude-sonnet-4-5","last_id":"claude-sonnet-4-5"}`))
	default:
		m.record(r, body, KindOther, -1, false)
		writeJSON(w, "application/json", []byte(`{}`))
	}
}

func writeJSON(w http.ResponseWriter, ctype string, b []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b) // a client that hung up is not the mock's problem
}

// messagesRequest is the part of a Messages API request the script reads.
type messagesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// block is one content block of a reply.
type block struct {
	Type  string
	Text  string
	ID    string
	Name  string
	Input map[string]any
}

// wire is the block as the non-streaming API returns it.
func (b block) wire() map[string]any {
	if b.Type == "tool_use" {
		in := b.Input
		if in == nil {
			in = map[string]any{} // the API always sends an input object
		}
		return map[string]any{"type": b.Type, "id": b.ID, "name": b.Name, "input": in}
	}
	return map[string]any{"type": b.Type, "text": b.Text}
}

func (m *Mock) serveMessages(w http.ResponseWriter, r *http.Request, body []byte) {
	var req messagesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.record(r, body, KindOther, -1, false)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"body is not JSON"}}`)
		return
	}
	kind, step := plan(m.scenario, req)
	n := m.record(r, body, kind, step, req.Stream)
	var blocks []block
	stop := "end_turn"
	switch kind {
	case KindToolUse:
		call := m.scenario.Steps[step]
		blocks = []block{
			{Type: "text", Text: "Calling " + call.Name + "."},
			{Type: "tool_use", ID: fmt.Sprintf("toolu_mock_%d_%d", step, n), Name: call.Name, Input: call.Input},
		}
		stop = "tool_use"
	case KindFinal:
		blocks = []block{{Type: "text", Text: FinalText}}
	case KindStopContinuation:
		blocks = []block{{Type: "text", Text: ContinuationText}}
	case KindSubagent:
		blocks = []block{{Type: "text", Text: SubagentText}}
	default:
		blocks = []block{{Type: "text", Text: SideText}}
	}
	model := req.Model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	id := fmt.Sprintf("msg_mock_%d", n)
	if req.Stream {
		out, err := streamBody(id, model, blocks, stop)
		if err != nil {
			http.Error(w, `{"type":"error","error":{"type":"api_error","message":"mock encode"}}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		writeJSON(w, "text/event-stream", out)
		return
	}
	content := make([]map[string]any, len(blocks))
	for i, b := range blocks {
		content[i] = b.wire()
	}
	out, err := marshal(map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": usage(10, 20),
	})
	if err != nil {
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"mock encode"}}`, http.StatusInternalServerError)
		return
	}
	writeJSON(w, "application/json", out)
}

// plan decides the reply from the conversation alone.
func plan(sc Scenario, req messagesRequest) (Kind, int) {
	hasWrite := false
	for _, t := range req.Tools {
		if t.Name == "Write" {
			hasWrite = true
			break
		}
	}
	if !hasWrite {
		return KindSide, -1
	}
	if len(req.Messages) > 0 && req.Messages[0].Role == "user" && rawContains(req.Messages[0].Content, SubagentMarker) {
		return KindSubagent, -1
	}
	// Messages may hold role "system" entries between turns, so look for
	// the last assistant turn instead of assuming strict alternation.
	lastAsst := -1
	results := 0
	for i, msg := range req.Messages {
		switch msg.Role {
		case "assistant":
			lastAsst = i
		case "user":
			results += countBlocks(msg.Content, "tool_result")
		}
	}
	if lastAsst >= 0 && countBlocks(req.Messages[lastAsst].Content, "tool_use") == 0 {
		// The model had already ended its turn yet is asked again: a Stop
		// hook blocked and its feedback follows as user or system text.
		return KindStopContinuation, -1
	}
	if results < len(sc.Steps) {
		return KindToolUse, results
	}
	return KindFinal, -1
}

// rawContains reports whether a message's content, a string or blocks,
// holds s in any of its strings.
func rawContains(content json.RawMessage, s string) bool {
	var v any
	if json.Unmarshal(content, &v) != nil {
		return false
	}
	return anyStringContains(v, s)
}

func countBlocks(content json.RawMessage, typ string) int {
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return 0 // plain string content has no blocks
	}
	n := 0
	for _, b := range blocks {
		if b.Type == typ {
			n++
		}
	}
	return n
}

func usage(in, out int) map[string]any {
	return map[string]any{
		"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}
}

// marshal encodes without HTML escaping so payload bytes travel as written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// streamBody renders a reply as the SSE event sequence the CLI consumes.
func streamBody(id, model string, blocks []block, stop string) ([]byte, error) {
	var out bytes.Buffer
	emit := func(event string, data any) error {
		b, err := marshal(data)
		if err != nil {
			return fmt.Errorf("sse %s: %w", event, err)
		}
		fmt.Fprintf(&out, "event: %s\ndata: %s\n\n", event, b)
		return nil
	}
	if err := emit("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage(10, 1),
	}}); err != nil {
		return nil, err
	}
	if err := emit("ping", map[string]any{"type": "ping"}); err != nil {
		return nil, err
	}
	for i, b := range blocks {
		var start map[string]any
		var deltas []map[string]any
		switch b.Type {
		case "text":
			start = map[string]any{"type": "text", "text": ""}
			for _, part := range splitUTF8(b.Text, 2) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": part})
			}
		case "tool_use":
			start = map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}
			js, err := marshal(b.wire()["input"])
			if err != nil {
				return nil, fmt.Errorf("tool input: %w", err)
			}
			// Several chunks exercise the client's partial_json accumulation.
			for _, part := range splitUTF8(string(js), 3) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
			}
		default:
			return nil, fmt.Errorf("unknown block type %q", b.Type)
		}
		if err := emit("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}); err != nil {
			return nil, err
		}
		for _, d := range deltas {
			if err := emit("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}); err != nil {
				return nil, err
			}
		}
		if err := emit("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}); err != nil {
			return nil, err
		}
	}
	if err := emit("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}}); err != nil {
		return nil, err
	}
	if err := emit("message_stop", map[string]any{"type": "message_stop"}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// splitUTF8 cuts s into at most n non-empty pieces on rune boundaries; a cut
// inside a rune would turn into U+FFFD when the piece is JSON-encoded.
func splitUTF8(s string, n int) []string {
	if n < 1 || len(s) == 0 {
		return []string{s}
	}
	var parts []string
	rest := s
	for k := n; k > 1 && len(rest) > 0; k-- {
		cut := len(rest) / k
		for cut > 0 && cut < len(rest) && !utf8.RuneStart(rest[cut]) {
			cut++
		}
		if cut <= 0 || cut >= len(rest) {
			continue
		}
		parts = append(parts, rest[:cut])
		rest = rest[cut:]
	}
	return append(parts, rest)
}
