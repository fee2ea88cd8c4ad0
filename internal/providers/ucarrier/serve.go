package ucarrier

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/provider"
)

// readOnly is s's bytes without a copy, for Clean, which only reads its
// arguments and returns either text itself or a new slice: the in-process
// runner of "prosewash check" sends every region of a file holding a
// carrier, its context included, and three copies of each were most of
// the memory check touched beyond its floor's.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// sameBytes reports whether a and b are the same slice of memory: Clean
// returned its text unchanged.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// maxRequest bounds the request read from stdin: one stage of one run holds
// the prose of the files in scope, far below this.
const maxRequest = 1 << 30

// Serve implements the provider protocol: it reads one provider.Request
// from stdin and writes one provider.Reply to stdout.
//
// Operations: "clean" replaces each region's text and sets its findings;
// "inspect" sets findings only. Options["profile"] selects the profile
// ("standard" when absent); no other option exists. Each region is handled
// independently, with its Before and After as context and FileStart =
// (Offset == 0). A region whose kind is not "prose" is never changed: clean
// returns its text as it was, with every finding downgraded to Report. A
// carrier starting at one of a region's Keep offsets is left in place and
// reported.
//
// Malformed input (bad JSON, trailing data, unknown fields, an unknown
// protocol, operation, option, profile or region kind, a negative offset, any
// argument) is an error and nothing is written: never a partial reply.
func Serve(stdin io.Reader, stdout io.Writer, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("provider unicode: unexpected argument %q", args[0])
	}
	req, err := readRequest(stdin)
	if err != nil {
		return err
	}
	reply, err := Handle(req)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // names like <private-use-E000> stay readable
	if err := enc.Encode(reply); err != nil {
		return fmt.Errorf("provider unicode: encode reply: %w", err)
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("provider unicode: write reply: %w", err)
	}
	return nil
}

func readRequest(r io.Reader) (*provider.Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRequest+1))
	if err != nil {
		return nil, fmt.Errorf("provider unicode: read request: %w", err)
	}
	if len(data) > maxRequest {
		return nil, fmt.Errorf("provider unicode: request larger than %d bytes", maxRequest)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var req provider.Request
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("provider unicode: decode request: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("provider unicode: decode request: data after the request")
	}
	return &req, nil
}

// Handle answers one decoded request; Serve is Handle over JSON. It is
// exported so that "prosewash check" can run the policy in-process through
// the engine's own code path.
func Handle(req *provider.Request) (*provider.Reply, error) {
	if req.Protocol != provider.Protocol {
		return nil, fmt.Errorf("provider unicode: protocol %q, want %q", req.Protocol, provider.Protocol)
	}
	var clean bool
	switch req.Operation {
	case "clean":
		clean = true
	case "inspect":
	default:
		return nil, fmt.Errorf("provider unicode: unknown operation %q (want clean or inspect)", req.Operation)
	}
	profile := carrier.Standard
	for k, v := range req.Options {
		if k != "profile" {
			return nil, fmt.Errorf("provider unicode: unknown option %q", k)
		}
		p, err := carrier.ParseProfile(v)
		if err != nil {
			return nil, fmt.Errorf("provider unicode: %w", err)
		}
		profile = p
	}
	reply := &provider.Reply{Protocol: provider.Protocol, Files: make([]provider.FileReply, 0, len(req.Files))}
	for _, f := range req.Files {
		fr := provider.FileReply{ID: f.ID, Regions: make([]provider.RegionReply, 0, len(f.Regions))}
		for _, rg := range f.Regions {
			if rg.Offset < 0 {
				return nil, fmt.Errorf("provider unicode: %s: region %d: negative offset %d", f.Path, rg.ID, rg.Offset)
			}
			prose := false
			switch rg.Kind {
			case "prose":
				prose = true
			case "directive", "runtime":
			default:
				return nil, fmt.Errorf("provider unicode: %s: region %d: unknown kind %q", f.Path, rg.ID, rg.Kind)
			}
			for _, k := range rg.Keep {
				if k < 0 || k >= len(rg.Text) {
					return nil, fmt.Errorf("provider unicode: %s: region %d: keep offset %d outside the text", f.Path, rg.ID, k)
				}
			}
			opt := Options{Profile: profile, Lang: f.Language, FileStart: rg.Offset == 0, Kind: rg.Kind, Keep: rg.Keep}
			text := readOnly(rg.Text)
			out, fs := Clean(readOnly(rg.Before), text, readOnly(rg.After), opt)
			if !prose {
				out = text
				for i := range fs {
					fs[i].Action = carrier.Report
				}
			}
			rr := provider.RegionReply{ID: rg.ID, Findings: fs}
			if clean {
				s := rg.Text
				if !sameBytes(out, text) {
					s = string(out)
				}
				rr.Text = &s
			}
			fr.Regions = append(fr.Regions, rr)
		}
		reply.Files = append(reply.Files, fr)
	}
	return reply, nil
}
