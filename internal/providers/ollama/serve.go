package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/provider"
)

// Defaults of the provider's flags.
const (
	DefaultEndpoint    = "http://127.0.0.1:11434"
	DefaultTimeout     = 240 * time.Second
	DefaultTemperature = 0.3
	// Operation is the only operation the provider serves.
	Operation = "rewrite"
	// FindingClass marks the findings of regions left unchanged because the
	// model's output was refused.
	FindingClass = "rewrite-refused"
	// NoModelMessage is the refusal when no model is configured.
	NoModelMessage = "no model configured: set [clean] rewrite_model in .prosewash.toml"
)

// maxRequestBytes bounds the request read from stdin.
const maxRequestBytes = 256 << 20

// RefusedError is what Serve returns after writing a Reply whose Error is
// Reason: the protocol answer is complete, so the process may exit 0 and
// let the engine read the refusal from the reply.
type RefusedError struct {
	Reason string
}

func (e *RefusedError) Error() string { return e.Reason }

// config is what the flags say.
type config struct {
	endpoint    string
	model       string
	timeout     time.Duration
	temperature float64
	probe       bool
}

// Serve is the ollama-rewrite provider program: it reads one provider
// Request on stdin, paraphrases every prose region with the configured model
// and writes one Reply on stdout. args are the provider's flags:
//
//	--endpoint URL       Ollama base URL, http:// to loopback only (default http://127.0.0.1:11434)
//	--model NAME         the model; required
//	--timeout SECONDS    per model request (default 240)
//	--temperature T      in [0, 1] (default 0.3)
//	--probe              check availability instead of serving a request
//
// A region whose model output is refused (empty, truncated, length drift,
// changed line structure, a lost or invented number, URL or code span, an
// invisible or control character the input did not have) is
// returned unchanged with a finding of class FindingClass; the rest of the
// request goes on. Anything that says the model cannot be reached safely or
// correctly (bad flags, missing model, non-loopback endpoint or address,
// redirect, timeout, HTTP error, malformed reply) refuses the whole request:
// Serve then writes a Reply whose Error says why and returns a *RefusedError
// with the same message. Any other error means no reply was written.
// Messages never contain region text.
//
// The endpoint is spoken to in plain HTTP/1.1, one request per connection:
// an https:// endpoint is refused, since TLS to a server on this machine
// protects nothing the loopback interface does not. Proxies, redirects and
// compression are never used.
//
// With --probe, Serve reads no request: it asks the endpoint (through the
// same loopback-only client) for its version and model list and writes one
// line such as "ollama 0.6.8 at http://127.0.0.1:11434 has model qwen2.5:7b",
// or returns an error (no model configured, Ollama not running, model not
// pulled) and writes nothing.
//
// getenv is accepted for symmetry with the other built-in providers and may
// be nil: nothing is read from the environment, proxy variables included.
func Serve(ctx context.Context, stdin io.Reader, stdout io.Writer, args []string, getenv func(string) string) error {
	return serve(ctx, stdin, stdout, args, seams{})
}

func serve(ctx context.Context, stdin io.Reader, stdout io.Writer, args []string, s seams) error {
	// Known before parsing, so even a flag error is reported the probe's
	// way (an error, no protocol reply).
	probing := slices.ContainsFunc(args, func(a string) bool {
		a = strings.TrimLeft(a, "-")
		return a == "probe" || strings.HasPrefix(a, "probe=")
	})
	refuse := func(err error) error {
		if probing {
			return err
		}
		if werr := writeReply(stdout, &provider.Reply{Protocol: provider.Protocol, Error: err.Error()}); werr != nil {
			return fmt.Errorf("%v (and writing the reply failed: %v)", err, werr)
		}
		return &RefusedError{Reason: err.Error()}
	}
	cfg, err := parseFlags(args)
	if err != nil {
		return refuse(err)
	}
	c, err := newClient(cfg.endpoint, cfg.timeout, s)
	if err != nil {
		return refuse(fmt.Errorf("endpoint refused: %w", err))
	}
	if cfg.probe {
		version, err := c.probe(ctx, cfg.model)
		if err != nil {
			return fmt.Errorf("ollama at %s: %w", cfg.endpoint, err)
		}
		if _, err := fmt.Fprintf(stdout, "ollama %s at %s has model %s\n", version, cfg.endpoint, cfg.model); err != nil {
			return fmt.Errorf("write probe result: %w", err)
		}
		return nil
	}
	req, err := readRequest(stdin)
	if err != nil {
		return refuse(err)
	}
	reply := &provider.Reply{Protocol: provider.Protocol, Files: make([]provider.FileReply, len(req.Files))}
	for i, f := range req.Files {
		fr := provider.FileReply{ID: f.ID, Regions: make([]provider.RegionReply, len(f.Regions))}
		for j, r := range f.Regions {
			rr, err := rewriteRegion(ctx, c, cfg, r)
			if err != nil {
				return refuse(fmt.Errorf("%s region %d: ollama at %s: %w", f.Path, r.ID, cfg.endpoint, err))
			}
			fr.Regions[j] = rr
		}
		reply.Files[i] = fr
	}
	return writeReply(stdout, reply)
}

func parseFlags(args []string) (config, error) {
	cfg := config{}
	fs := flag.NewFlagSet("ollama-rewrite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.endpoint, "endpoint", DefaultEndpoint, "")
	fs.StringVar(&cfg.model, "model", "", "")
	timeout := fs.Float64("timeout", DefaultTimeout.Seconds(), "")
	fs.Float64Var(&cfg.temperature, "temperature", DefaultTemperature, "")
	fs.BoolVar(&cfg.probe, "probe", false, "")
	if err := fs.Parse(args); err != nil {
		return cfg, fmt.Errorf("ollama-rewrite: %v", err)
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("ollama-rewrite: unexpected argument %q", fs.Arg(0))
	}
	if strings.TrimSpace(cfg.model) == "" {
		return cfg, errors.New(NoModelMessage)
	}
	if math.IsNaN(*timeout) || *timeout <= 0 || *timeout > 3600 {
		return cfg, fmt.Errorf("ollama-rewrite: --timeout must be in (0, 3600] seconds, got %v", *timeout)
	}
	cfg.timeout = time.Duration(*timeout * float64(time.Second))
	if math.IsNaN(cfg.temperature) || cfg.temperature < 0 || cfg.temperature > 1 {
		return cfg, fmt.Errorf("ollama-rewrite: --temperature must be in [0, 1], got %v", cfg.temperature)
	}
	return cfg, nil
}

func readRequest(stdin io.Reader) (*provider.Request, error) {
	var req provider.Request
	dec := json.NewDecoder(io.LimitReader(stdin, maxRequestBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("read request: %v", firstWords(err))
	}
	if req.Protocol != provider.Protocol {
		return nil, fmt.Errorf("request speaks protocol %q, want %q", req.Protocol, provider.Protocol)
	}
	if req.Operation != Operation {
		return nil, fmt.Errorf("unknown operation %q (ollama-rewrite offers %q)", req.Operation, Operation)
	}
	for _, f := range req.Files {
		for _, r := range f.Regions {
			// The operation is declared prose-only; anything else means the
			// engine sent what it must not, and nothing is rewritten.
			if r.Kind != "prose" {
				return nil, fmt.Errorf("%s region %d is %s; ollama-rewrite only rewrites prose", f.Path, r.ID, r.Kind)
			}
		}
	}
	return &req, nil
}

func writeReply(w io.Writer, r *provider.Reply) error {
	if err := json.NewEncoder(w).Encode(r); err != nil {
		return fmt.Errorf("write reply: %w", err)
	}
	return nil
}

// rewriteRegion returns the region's new text, or its old text with a
// finding when the model's output is refused. An error refuses the request.
func rewriteRegion(ctx context.Context, c *client, cfg config, r provider.RegionPayload) (provider.RegionReply, error) {
	keep := func(reason string) provider.RegionReply {
		t := r.Text
		rr := provider.RegionReply{ID: r.ID, Text: &t}
		if reason != "" {
			rr.Findings = []carrier.Finding{{
				Offset: 0,
				Len:    len(r.Text),
				Name:   "rewrite refused: " + reason,
				Class:  FindingClass,
				Action: carrier.Report,
			}}
		}
		return rr
	}
	if !hasLetter(r.Text) {
		return keep(""), nil
	}
	_, core, _ := splitEdges(r.Text)
	resp, err := c.chat(ctx, chatRequest{
		Model:    cfg.model,
		Stream:   false,
		Messages: []message{{Role: "user", Content: Prompt(core)}},
		Options:  chatOptions{Temperature: cfg.temperature},
	})
	if err != nil {
		return provider.RegionReply{}, err
	}
	if !resp.Done || resp.DoneReason == "length" {
		return keep("the model's output was truncated"), nil
	}
	out, reason := Accept(r.Text, resp.Message.Content)
	if reason != "" {
		return keep(reason), nil
	}
	return provider.RegionReply{ID: r.ID, Text: &out}, nil
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
