package ollama

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// JudgeTemperature is the memory judge's temperature: it decides, it does not write prose.
const JudgeTemperature = 0

// Judge is the memory lane's local judge: the same loopback-only client as the rewrite
// provider (proxies never read, every dialled address checked, redirects refused), asking for
// a JSON answer at temperature 0. The lane never imports this package; the command line hands
// Judge.Chat to it.
type Judge struct {
	c     *client
	model string
}

// NewJudge checks the endpoint (loopback http only) and the model name; nothing is dialled.
func NewJudge(endpoint, model string, timeout time.Duration) (*Judge, error) {
	if model == "" {
		return nil, errors.New("no model: set [clean] rewrite_model or pass --model (e.g. llama3.2:3b)")
	}
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	c, err := newClient(endpoint, timeout, seams{})
	if err != nil {
		return nil, err
	}
	return &Judge{c: c, model: model}, nil
}

// Name is "ollama/<model>", what a plan's judge field records after "local:".
func (j *Judge) Name() string { return "ollama/" + j.model }

// Chat sends a system and a user message and returns the reply. A truncated or unfinished
// answer is an error: a verdict cut short is no verdict.
func (j *Judge) Chat(ctx context.Context, system, prompt string) (string, error) {
	resp, err := j.c.chat(ctx, chatRequest{
		Model:    j.model,
		Messages: []message{{Role: "system", Content: system}, {Role: "user", Content: prompt}},
		Options:  chatOptions{Temperature: JudgeTemperature},
		Format:   "json",
	})
	if err != nil {
		return "", err
	}
	if !resp.Done || resp.DoneReason == "length" {
		return "", fmt.Errorf("the model's answer was cut short (done=%v, reason %q)", resp.Done, resp.DoneReason)
	}
	return resp.Message.Content, nil
}
