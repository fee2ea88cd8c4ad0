package fakeollama

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

func post(t *testing.T, url string, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

func chatBody(model, text string, stream bool) string {
	b, _ := json.Marshal(map[string]any{
		"model": model, "stream": stream, "options": map[string]any{"temperature": 0.3},
		"messages": []map[string]string{{"role": "user", "content": "Paraphrase.\n\n---\n" + text}},
	})
	return string(b)
}

type chatReply struct {
	Model      string  `json:"model"`
	CreatedAt  string  `json:"created_at"`
	Message    Message `json:"message"`
	Done       bool    `json:"done"`
	DoneReason string  `json:"done_reason"`
	EvalCount  int     `json:"eval_count"`
}

func TestChatLikeOllama(t *testing.T) {
	s := Start(t, Options{})
	resp, data := post(t, s.URL+"/api/chat", chatBody("m:1", "  Use `use` 3 times\n    because https://x.test/use helps.  ", false))
	var r chatReply
	if resp.StatusCode != 200 || json.Unmarshal(data, &r) != nil {
		t.Fatalf("%s: %s", resp.Status, data)
	}
	if r.Model != "m:1" || r.Message.Role != "assistant" || !r.Done || r.DoneReason != "stop" || r.EvalCount == 0 || r.CreatedAt == "" {
		t.Fatalf("reply %+v", r)
	}
	if want := "Employ `use` 3 times\nsince https://x.test/use assists."; r.Message.Content != want {
		t.Fatalf("content %q, want %q", r.Message.Content, want)
	}
	reqs := s.ChatRequests()
	if len(reqs) != 1 || reqs[0].Chat.Model != "m:1" || reqs[0].Chat.Options["temperature"] != 0.3 || reqs[0].Mode != Paraphrase {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestStreamsWhenAsked(t *testing.T) {
	s := Start(t, Options{})
	resp, data := post(t, s.URL+"/api/chat", chatBody("m", "Use it now.", true))
	if resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	var content strings.Builder
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, l := range lines {
		var r chatReply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		content.WriteString(r.Message.Content)
		if r.Done != (i == len(lines)-1) {
			t.Fatalf("chunk %d done=%v", i, r.Done)
		}
	}
	if content.String() != "Employ it now." || len(lines) < 3 {
		t.Fatalf("streamed %q in %d lines", content.String(), len(lines))
	}
}

func TestModeSelection(t *testing.T) {
	s := Start(t, Options{Mode: Empty})
	content := func(body string, header ...string) string {
		_, data := post(t, s.URL+"/api/chat", body, header...)
		var r chatReply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		return r.Message.Content
	}
	if got := content(chatBody("m", "Use it.", false)); got != "" {
		t.Fatalf("server mode empty gave %q", got)
	}
	if got := content(chatBody("m", "Use it.", false), ModeHeader, "echo"); got != "Use it." {
		t.Fatalf("header mode echo gave %q", got)
	}
	if got := content(chatBody("m", "Use it [[fake:quoted]].", false), ModeHeader, "echo"); got != `"Employ it [[fake:quoted]]."` {
		t.Fatalf("magic word beats header: %q", got)
	}
	s.SetMode(DropNumber)
	if got := content(chatBody("m", "Use 42 of 7.", false)); got != "Employ of 7." {
		t.Fatalf("drop-number gave %q", got)
	}
}

func TestOtherEndpoints(t *testing.T) {
	s := Start(t, Options{Models: []string{"a:1", "b:2"}, Mode: Redirect, RedirectTo: "http://127.0.0.1:9/api/chat"})
	get := func(path string) (int, string) {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/api/version"); code != 200 || !strings.Contains(body, `"version":"`+Version+`"`) {
		t.Fatalf("version: %d %s", code, body)
	}
	var tags struct {
		Models []struct{ Name string } `json:"models"`
	}
	if code, body := get("/api/tags"); code != 200 || json.Unmarshal([]byte(body), &tags) != nil || len(tags.Models) != 2 || tags.Models[1].Name != "b:2" {
		t.Fatalf("tags: %d %s", code, body)
	}
	if code, body := get("/"); code != 200 || body != "Ollama is running" {
		t.Fatalf("root: %d %s", code, body)
	}
	if code, _ := get("/api/chat"); code != http.StatusMethodNotAllowed {
		t.Fatalf("GET /api/chat: %d", code)
	}
	resp, data := post(t, s.URL+"/api/chat", chatBody("c:3", "x", false))
	if resp.StatusCode != 404 || !strings.Contains(string(data), `model \"c:3\" not found, try pulling it first`) {
		t.Fatalf("unknown model: %s %s", resp.Status, data)
	}
	resp, _ = post(t, s.URL+"/api/chat", chatBody("a:1", "x", false))
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://127.0.0.1:9/api/chat" {
		t.Fatalf("redirect: %s %s", resp.Status, resp.Header.Get("Location"))
	}
	if n := len(s.Requests()); n != 6 {
		t.Fatalf("recorded %d requests, want 6", n)
	}
}

func TestRefusesNonLoopbackListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "localhost:0"} {
		if s, err := New(Options{Addr: addr}); err == nil {
			s.Close()
			t.Fatalf("listened on %s", addr)
		}
	}
	if _, err := New(Options{Mode: "nope"}); err == nil {
		t.Fatal("unknown mode accepted")
	}
}

func TestSlowReturnsWhenClosed(t *testing.T) {
	s := Start(t, Options{Mode: Slow, Delay: time.Hour})
	done := make(chan error, 1)
	go func() {
		_, err := http.Post(s.URL+"/api/chat", "application/json", strings.NewReader(chatBody("m", "x", false)))
		done <- err
	}()
	for len(s.ChatRequests()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("slow request still hanging after Close")
	}
}

// TestCommand builds the fakeollama command, starts it, reads its port from
// stdout and from -url-file, talks to it, and kills it by its pid.
func TestCommand(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		testtool.Missing(t, "go", "go tool not found: cannot build the fakeollama command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fakeollama")
	build := exec.Command(goTool, "build", "-o", bin, "./cmd/fakeollama")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	urlFile := filepath.Join(dir, "url")
	cmd := exec.Command(bin, "-mode", "echo", "-url-file", urlFile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v (stderr %s)", err, stderr.String())
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on 127.0.0.1:")
	if !ok || addr == "" {
		t.Fatalf("first line %q", line)
	}
	var url []byte
	for i := 0; i < 200; i++ {
		if url, err = os.ReadFile(urlFile); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if string(url) != "http://127.0.0.1:"+addr+"\n" {
		t.Fatalf("url file %q, line %q", url, line)
	}
	_, data := post(t, strings.TrimSpace(string(url))+"/api/chat", chatBody("m", "Use it.", false))
	if !strings.Contains(string(data), `"content":"Use it."`) {
		t.Fatalf("reply %s", data)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if code := Main([]string{"-mode", "nope"}, io.Discard, io.Discard); code != 1 {
		t.Fatalf("bad mode: exit %d", code)
	}
	if code := Main([]string{"-bogus"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("bad flag: exit %d", code)
	}
}
