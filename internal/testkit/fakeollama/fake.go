package fakeollama

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Mode selects how the server answers /api/chat.
type Mode string

// The modes. A request may pick its own with the header ModeHeader or with
// the magic word "[[fake:MODE]]" anywhere in the prompt (the prompt wins).
const (
	// Paraphrase swaps a fixed set of words (never inside backticks, never
	// numbers or URLs) and, like a real model, loses each line's indentation,
	// trailing spaces and the text's surrounding whitespace.
	Paraphrase Mode = "paraphrase"
	// Echo returns the text unchanged (after the same whitespace loss).
	Echo Mode = "echo"
	// Slow waits Options.Delay (default 30s) before answering, or until the
	// client goes away.
	Slow Mode = "slow"
	// Truncated returns half the paraphrase with done_reason "length".
	Truncated Mode = "truncated"
	// NotDone returns the paraphrase with done false.
	NotDone Mode = "not-done"
	// Empty returns an empty message.
	Empty Mode = "empty"
	// Redirect answers 302 to Options.RedirectTo.
	Redirect Mode = "redirect"
	// RedirectRemote answers 302 to a non-loopback address.
	RedirectRemote Mode = "redirect-remote"
	// Garbage answers 200 with a body that is not JSON.
	Garbage Mode = "garbage"
	// Wrapper prefixes "Here is the rewritten text:" and wraps the
	// paraphrase in a code fence.
	Wrapper Mode = "wrapper"
	// Quoted wraps the paraphrase in double quotes.
	Quoted Mode = "quoted"
	// Think prefixes a <think>...</think> block.
	Think Mode = "think"
	// DropNumber removes the first number from the paraphrase.
	DropNumber Mode = "drop-number"
	// Ramble repeats the paraphrase three times on one line.
	Ramble Mode = "ramble"
	// JoinLines joins the paraphrase's lines with spaces.
	JoinLines Mode = "join-lines"
	// Huge answers with a valid reply whose body is larger than 17 MiB.
	Huge Mode = "huge"
	// Streamed answers NDJSON chunks even when the request asked for no
	// streaming.
	Streamed Mode = "streamed"
	// Fail answers 500 with an Ollama-style error object.
	Fail Mode = "fail"
	// Judge answers a memory judge's prompt (a "candidates: 3, 7" line, then the numbered
	// file "N| text"): every candidate line is cut, except a line holding the word KEEP,
	// which is kept; each verdict with a reason, as JSON.
	Judge Mode = "judge"
)

// Modes lists every mode, for flag help and validation.
func Modes() []Mode {
	return []Mode{Paraphrase, Echo, Slow, Truncated, NotDone, Empty, Redirect, RedirectRemote, Garbage, Wrapper, Quoted, Think, DropNumber, Ramble, JoinLines, Huge, Streamed, Fail, Judge}
}

// ModeHeader is the request header that selects a mode for one request.
const ModeHeader = "X-Fake-Ollama-Mode"

// PromptSeparator divides the instruction from the text in a prompt; the
// fake paraphrases what follows its first occurrence (or the whole prompt
// when it is absent).
const PromptSeparator = "\n---\n"

// HugeSize is the body size of the Huge mode.
const HugeSize = 17 << 20

// RemoteRedirect is where RedirectRemote points.
const RemoteRedirect = "http://10.0.0.1:11434/api/chat"

// Version is what /api/version reports.
const Version = "0.6.8"

// Options configure a server.
type Options struct {
	// Addr to listen on; default "127.0.0.1:0". Must be a loopback address.
	Addr string
	// Mode is the default mode; default Paraphrase.
	Mode Mode
	// Models, when set, are the only models /api/chat accepts; others get
	// Ollama's 404 "model not found" error. /api/tags lists them.
	Models []string
	// Delay is how long Slow waits; default 30s.
	Delay time.Duration
	// RedirectTo is where Redirect points.
	RedirectTo string
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is the body of POST /api/chat as the fake decodes it.
type ChatRequest struct {
	Model    string         `json:"model"`
	Stream   *bool          `json:"stream"`
	Messages []Message      `json:"messages"`
	Options  map[string]any `json:"options"`
}

// Request is one recorded HTTP request, whatever its path.
type Request struct {
	Method     string
	RequestURI string // absolute ("http://...") when the client used this server as a proxy
	Host       string
	Header     http.Header
	Body       []byte
	Chat       *ChatRequest // decoded body of a /api/chat request
	Mode       Mode         // the mode that answered a /api/chat request
}

// Server is a running fake.
type Server struct {
	// URL is the base URL, "http://127.0.0.1:PORT".
	URL string

	opts Options
	ln   net.Listener
	srv  *http.Server
	done chan error

	mu    sync.Mutex
	mode  Mode
	reqs  []Request
	close sync.Once
}

// New starts a server on a loopback address.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Mode == "" {
		opts.Mode = Paraphrase
	}
	if !validMode(opts.Mode) {
		return nil, fmt.Errorf("unknown mode %q", opts.Mode)
	}
	if opts.Delay <= 0 {
		opts.Delay = 30 * time.Second
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", opts.Addr, err)
	}
	if ip, err := netip.ParseAddr(host); err != nil || !ip.Unmap().IsLoopback() {
		return nil, fmt.Errorf("listen address %q: the fake listens on loopback only", opts.Addr)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), opts: opts, ln: ln, mode: opts.Mode, done: make(chan error, 1)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// TB is the part of testing.TB that Start needs.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Start is New for tests: it fails the test on error and closes the server
// when the test ends.
func Start(tb TB, opts Options) *Server {
	tb.Helper()
	s, err := New(opts)
	if err != nil {
		tb.Fatalf("start fake ollama: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Addr is the listening address, "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, drops open connections (a Slow handler returns)
// and waits until nothing listens on the port any more.
func (s *Server) Close() error {
	var err error
	s.close.Do(func() {
		err = s.srv.Close()
		// http.Server.Close misses a listener that Serve has not registered
		// yet; closing it here makes the port refuse connections at once.
		s.ln.Close()
		s.Wait()
	})
	return err
}

// Wait blocks until the server stops and returns why.
func (s *Server) Wait() error {
	err := <-s.done
	s.done <- err
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// SetMode changes the default mode.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// ChatRequests returns the recorded /api/chat requests.
func (s *Server) ChatRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Chat != nil {
			out = append(out, r)
		}
	}
	return out
}

func validMode(m Mode) bool {
	for _, k := range Modes() {
		if k == m {
			return true
		}
	}
	return false
}

var magic = regexp.MustCompile(`\[\[fake:([a-z-]+)\]\]`)

// ServeHTTP records every request, then answers like Ollama.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := Request{Method: r.Method, RequestURI: r.RequestURI, Host: r.Host, Header: r.Header.Clone(), Body: body}
	idx := s.record(rec)
	// A proxied request carries an absolute URI: answer nothing useful.
	if !strings.HasPrefix(r.RequestURI, "/") {
		http.Error(w, "not a proxy", http.StatusBadGateway)
		return
	}
	switch {
	case r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		io.WriteString(w, "Ollama is running")
	case r.URL.Path == "/api/version" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]string{"version": Version})
	case r.URL.Path == "/api/tags" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"models": s.tags()})
	case r.URL.Path == "/api/chat" && r.Method == http.MethodPost:
		s.chat(w, r, idx, body)
	case r.URL.Path == "/api/chat":
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method not allowed"})
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) record(r Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	return len(s.reqs) - 1
}

func (s *Server) tags() []map[string]any {
	models := s.opts.Models
	if len(models) == 0 {
		models = []string{"fake:latest"}
	}
	out := make([]map[string]any, len(models))
	for i, m := range models {
		out[i] = map[string]any{
			"name": m, "model": m, "modified_at": "2025-01-01T00:00:00Z", "size": 1 << 30,
			"digest":  strings.Repeat("0", 64),
			"details": map[string]any{"format": "gguf", "family": "fake", "parameter_size": "1B", "quantization_level": "Q4_0"},
		}
	}
	return out
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, idx int, body []byte) {
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid character in request body"})
		return
	}
	if req.Model == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "model is required"})
		return
	}
	prompt := ""
	if n := len(req.Messages); n > 0 {
		prompt = req.Messages[n-1].Content
	}
	mode := s.chatMode(r, prompt)
	s.mu.Lock()
	s.reqs[idx].Chat = &req
	s.reqs[idx].Mode = mode
	s.mu.Unlock()

	if len(s.opts.Models) > 0 && !contains(s.opts.Models, req.Model) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
		return
	}
	if s.answerInstead(w, r, mode, req.Model) {
		return
	}
	content, doneReason, done := replyText(mode, prompt)
	if req.Stream == nil || *req.Stream || mode == Streamed {
		s.stream(w, req.Model, prompt, content, doneReason, done)
		return
	}
	writeJSON(w, http.StatusOK, reply(req.Model, prompt, content, doneReason, done))
}

// chatMode is the mode one chat request is answered in: the server's,
// unless the request's header or a magic word in its prompt names another.
func (s *Server) chatMode(r *http.Request, prompt string) Mode {
	s.mu.Lock()
	mode := s.mode
	s.mu.Unlock()
	if h := Mode(r.Header.Get(ModeHeader)); validMode(h) {
		mode = h
	}
	if m := magic.FindStringSubmatch(prompt); m != nil && validMode(Mode(m[1])) {
		mode = Mode(m[1])
	}
	return mode
}

// answerInstead answers for the modes that are no chat reply (a redirect,
// garbage, a huge body, a server error) and reports that it did; Slow
// waits out its delay first and answers nothing when the client gives up.
func (s *Server) answerInstead(w http.ResponseWriter, r *http.Request, mode Mode, model string) bool {
	switch mode {
	case Slow:
		t := time.NewTimer(s.opts.Delay)
		defer t.Stop()
		select {
		case <-t.C:
			return false
		case <-r.Context().Done():
			return true
		}
	case Redirect:
		if s.opts.RedirectTo == "" {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "fake: redirect mode needs RedirectTo"})
			return true
		}
		http.Redirect(w, r, s.opts.RedirectTo, http.StatusFound)
	case RedirectRemote:
		http.Redirect(w, r, RemoteRedirect, http.StatusFound)
	case Garbage:
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, `{"model": "`+model+`", "message": {"role": "assistant", "content": <html>oops`)
	case Huge:
		s.huge(w, model)
	case Fail:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "llama runner process has terminated: exit status 2"})
	default:
		return false
	}
	return true
}

// replyText is what the model answers to prompt in mode: the rewrite of
// the prompt's text, shaped the way mode breaks it.
func replyText(mode Mode, prompt string) (content, doneReason string, done bool) {
	text := PromptText(prompt)
	content, doneReason, done = Rewrite(text), "stop", true
	switch mode {
	case Echo:
		content = loseWhitespace(text)
	case Truncated:
		content, doneReason = firstHalf(content), "length"
	case NotDone:
		done, doneReason = false, ""
	case Empty:
		content = ""
	case Wrapper:
		content = "Here is the rewritten text:\n\n```\n" + content + "\n```"
	case Quoted:
		content = `"` + content + `"`
	case Think:
		content = "<think>\nThe user wants a paraphrase.\n</think>\n\n" + content
	case DropNumber:
		if loc := number.FindStringIndex(content); loc != nil {
			content = strings.Join(strings.Fields(content[:loc[0]]+content[loc[1]:]), " ")
		}
	case Ramble:
		one := strings.Join(strings.Fields(content), " ")
		content = one + " " + one + " " + one
	case JoinLines:
		content = strings.Join(strings.Fields(content), " ")
	case Judge:
		content = judgeReply(prompt)
	}
	return content, doneReason, done
}

func reply(model, prompt, content, doneReason string, done bool) map[string]any {
	m := map[string]any{
		"model":      model,
		"created_at": time.Now().UTC().Format(time.RFC3339Nano),
		"message":    Message{Role: "assistant", Content: content},
		"done":       done,
	}
	if done {
		m["done_reason"] = doneReason
		m["total_duration"] = 1_500_000_000
		m["load_duration"] = 20_000_000
		m["prompt_eval_count"] = len(prompt)/4 + 1
		m["prompt_eval_duration"] = 300_000_000
		m["eval_count"] = len(content)/4 + 1
		m["eval_duration"] = 1_100_000_000
	}
	return m
}

// stream answers like Ollama does when "stream" is absent or true: one JSON
// object per line, a word at a time, then a final object with done true.
func (s *Server) stream(w http.ResponseWriter, model, prompt, content, doneReason string, done bool) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	for _, word := range strings.SplitAfter(content, " ") {
		enc.Encode(map[string]any{"model": model, "created_at": time.Now().UTC().Format(time.RFC3339Nano), "message": Message{Role: "assistant", Content: word}, "done": false})
	}
	if done {
		enc.Encode(reply(model, prompt, "", doneReason, true))
	}
}

func (s *Server) huge(w http.ResponseWriter, model string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	io.WriteString(w, `{"model":"`+model+`","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"`)
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for i := 0; i < HugeSize>>20; i++ {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	io.WriteString(w, `"},"done":true,"done_reason":"stop"}`)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// PromptText is the part of a prompt the fake rewrites: what follows the
// first PromptSeparator, or the whole prompt.
func PromptText(prompt string) string {
	if _, text, ok := strings.Cut(prompt, PromptSeparator); ok {
		return text
	}
	return prompt
}

var (
	number   = regexp.MustCompile(`\d+(?:[.,]\d+)*`)
	wordSwap = map[string]string{
		"about": "regarding", "after": "following", "also": "additionally", "because": "since",
		"before": "ahead of", "big": "large", "check": "verify", "checks": "verifies",
		"get": "obtain", "gets": "obtains", "help": "assist", "helps": "assists",
		"make": "create", "makes": "creates", "need": "require", "needs": "requires",
		"often": "frequently", "quick": "fast", "quickly": "rapidly", "return": "yield",
		"returns": "yields", "show": "display", "shows": "displays", "simple": "plain",
		"small": "little", "start": "begin", "starts": "begins", "use": "employ",
		"used": "employed", "uses": "employs", "usually": "typically",
	}
)

// Rewrite is the deterministic paraphrase: words from a fixed table are
// swapped (keeping an initial capital) outside backtick spans and URLs;
// numbers, URLs and code spans stay. Like a real model it drops each line's
// indentation and trailing spaces and the text's surrounding whitespace.
func Rewrite(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = swapLine(line)
	}
	return loseWhitespace(strings.Join(lines, "\n"))
}

func loseWhitespace(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimSpace(line)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func swapLine(line string) string {
	var b strings.Builder
	inCode := false
	for i := 0; i < len(line); {
		c := line[i]
		if c == '`' {
			inCode = !inCode
			b.WriteByte(c)
			i++
			continue
		}
		if !inCode && (strings.HasPrefix(line[i:], "http://") || strings.HasPrefix(line[i:], "https://")) {
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			b.WriteString(line[i:j])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if inCode || !unicode.IsLetter(r) {
			b.WriteString(line[i : i+size])
			i += size
			continue
		}
		j := i
		for j < len(line) {
			r, size := utf8.DecodeRuneInString(line[j:])
			if !unicode.IsLetter(r) {
				break
			}
			j += size
		}
		word := line[i:j]
		// A word glued to digits, brackets or underscores is an identifier.
		glued := (i > 0 && isIdentByte(line[i-1])) || (j < len(line) && isIdentByte(line[j]))
		if repl, ok := wordSwap[strings.ToLower(word)]; ok && !glued {
			if first, _ := utf8.DecodeRuneInString(word); unicode.IsUpper(first) {
				r0, n := utf8.DecodeRuneInString(repl)
				repl = string(unicode.ToUpper(r0)) + repl[n:]
			}
			word = repl
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '[' || c == ']' || (c >= '0' && c <= '9')
}

func firstHalf(s string) string {
	n := utf8.RuneCountInString(s) / 2
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// judgeReply answers a memory judge's prompt: cut every candidate, keep the ones holding KEEP.
func judgeReply(prompt string) string {
	lines := map[int]string{}
	var cands []int
	for _, ln := range strings.Split(prompt, "\n") {
		if rest, ok := strings.CutPrefix(ln, "candidates:"); ok {
			for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' }) {
				var n int
				if _, err := fmt.Sscanf(f, "%d", &n); err == nil {
					cands = append(cands, n)
				}
			}
			continue
		}
		if i := strings.Index(ln, "| "); i > 0 {
			var n int
			if _, err := fmt.Sscanf(ln[:i], "%d", &n); err == nil {
				lines[n] = ln[i+2:]
			}
		}
	}
	type flag struct {
		Line    int    `json:"line"`
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	}
	out := struct {
		Flags []flag `json:"flags"`
	}{Flags: []flag{}}
	for _, n := range cands {
		if strings.Contains(lines[n], "KEEP") {
			out.Flags = append(out.Flags, flag{n, "keep", "fake judge: the line says KEEP"})
			continue
		}
		out.Flags = append(out.Flags, flag{n, "cut", "fake judge: a listed candidate"})
	}
	b, _ := json.Marshal(out)
	return string(b)
}
