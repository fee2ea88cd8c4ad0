package clean

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/engine/pipeline"
	"github.com/prosewash/prosewash/engine/provider"
	"github.com/prosewash/prosewash/engine/region"
	"github.com/prosewash/prosewash/engine/report"
	"github.com/prosewash/prosewash/engine/textpos"
)

// Runner runs one provider call. provider.Run in production; the seam exists
// so a test can count calls, not to replace providers.
type Runner func(context.Context, provider.Call, *provider.Request) (*provider.Reply, error)

// Engine runs the provider stages of a resolved pipeline over files.
type Engine struct {
	Pipeline *pipeline.Resolved
	// Call carries what every provider call shares: variables, argv[0],
	// working directory, environment. Def and Op are set per stage.
	Call provider.Call
	Run  Runner
	// ContextBytes is how much read-only context each region carries on
	// each side (default 64).
	ContextBytes int
}

// kindsFor says which region kinds a stage may be given. Directives are
// never handed to a transform; an inspect stage may look at them.
func kindsFor(role, scope string) map[region.Kind]bool {
	k := map[region.Kind]bool{region.Prose: true}
	if scope == provider.ScopeRuntime || scope == provider.ScopeAny {
		k[region.Runtime] = true
	}
	if role == pipeline.RoleInspect && scope == provider.ScopeAny {
		k[region.Directive] = true
	}
	return k
}

type sent struct {
	file    *File
	fileID  int
	regions []region.Region
	req     provider.FileRegions
}

// RunStages runs every provider stage over the files still alive, in order,
// then proves each candidate's structure is intact. Builtin stages are the
// caller's (validation). A provider failure refuses the files it was given
// and the run goes on.
func (e *Engine) RunStages(ctx context.Context, files []*File) {
	touchable := map[region.Kind]bool{}
	for _, st := range e.Pipeline.Stages {
		if st.Def == nil {
			continue
		}
		kinds := kindsFor(st.Role, st.Scope)
		if st.Role != pipeline.RoleInspect {
			for k := range kinds {
				touchable[k] = true
			}
		}
		e.runStage(ctx, st, kinds, files)
	}
	for _, f := range files {
		if !f.Alive() {
			continue
		}
		if bytes.Equal(f.Cur, f.Orig) {
			f.Status = Unchanged
			continue
		}
		m, err := region.Classify(f.Path, f.Cur)
		if err != nil {
			f.refuse("the cleaned file could not be classified again: %v", err)
			continue
		}
		if !bytes.Equal(structure(f.origMap, f.Orig, touchable), structure(m, f.Cur, touchable)) {
			f.refuse("cleaning would change the file's structure (a carrier hides markup or code next to it); left untouched, clean it by hand")
			continue
		}
		f.Status = Changed
	}
}

func (e *Engine) runStage(ctx context.Context, st pipeline.ResolvedStage, kinds map[region.Kind]bool, files []*File) {
	var batch []*sent
	for _, f := range files {
		stat := report.Stage{Stage: st.Index, Role: st.Role, Label: st.Label()}
		if !f.Alive() {
			continue
		}
		if st.Op.SkipPlainASCII && carrier.Plain(f.Cur) {
			stat.Skipped = "plain ASCII"
			f.Stages = append(f.Stages, stat)
			continue
		}
		m := f.origMap
		if !bytes.Equal(f.Cur, f.Orig) {
			var err error
			if m, err = region.Classify(f.Path, f.Cur); err != nil {
				f.refuse("stage %d: %v", st.Index+1, err)
				continue
			}
		}
		s := &sent{file: f, fileID: len(batch)}
		s.req = provider.FileRegions{ID: s.fileID, Path: f.Rel, Language: f.Lang}
		for _, r := range m.Regions {
			if !kinds[r.Kind] || r.Len() == 0 {
				continue
			}
			before, after := around(f.Cur, r.Start, r.End, e.contextBytes())
			s.req.Regions = append(s.req.Regions, provider.RegionPayload{
				ID: len(s.regions), Kind: r.Kind.String(), Offset: r.Start,
				Before: string(before), Text: string(f.Cur[r.Start:r.End]), After: string(after),
			})
			s.regions = append(s.regions, r)
		}
		f.Stages = append(f.Stages, stat)
		if len(s.regions) == 0 {
			f.Stages[len(f.Stages)-1].Skipped = "no " + scopeWord(kinds) + " regions"
			continue
		}
		f.Stages[len(f.Stages)-1].Regions = len(s.regions)
		batch = append(batch, s)
	}
	if len(batch) == 0 {
		return
	}
	e.call(ctx, st, batch)
}

// call sends the batch; when the whole call fails and it held several files,
// each file is retried alone so one poisonous file cannot refuse the others.
func (e *Engine) call(ctx context.Context, st pipeline.ResolvedStage, batch []*sent) {
	req := &provider.Request{Stage: st.Index}
	for _, name := range st.Op.Options {
		if req.Options == nil {
			req.Options = map[string]string{}
		}
		req.Options[name] = e.Call.Vars[name]
	}
	for i, s := range batch {
		s.fileID = i
		s.req.ID = i
		req.Files = append(req.Files, s.req)
	}
	c := e.Call
	c.Def, c.Op = st.Def, st.Op
	reply, err := e.Run(ctx, c, req)
	if err != nil {
		var re *provider.RunError
		if len(batch) > 1 && errors.As(err, &re) && re.Retryable() {
			for _, s := range batch {
				e.call(ctx, st, []*sent{s})
			}
			return
		}
		for _, s := range batch {
			s.file.refuse("stage %d (%s): %v", st.Index+1, st.Label(), err)
		}
		return
	}
	byID := map[int]*provider.FileReply{}
	for i := range reply.Files {
		fr := &reply.Files[i]
		if fr.ID < 0 || fr.ID >= len(batch) || byID[fr.ID] != nil {
			for _, s := range batch {
				s.file.refuse("stage %d (%s): reply names file %d twice or out of range", st.Index+1, st.Label(), fr.ID)
			}
			return
		}
		byID[fr.ID] = fr
	}
	for _, s := range batch {
		fr := byID[s.fileID]
		if fr == nil {
			s.file.refuse("stage %d (%s): reply dropped this file", st.Index+1, st.Label())
			continue
		}
		if err := e.apply(st, s, fr); err != nil {
			s.file.refuse("stage %d (%s): %v", st.Index+1, st.Label(), err)
		}
	}
}

// apply checks one file's reply region by region and splices it in.
func (e *Engine) apply(st pipeline.ResolvedStage, s *sent, fr *provider.FileReply) error {
	if len(fr.Regions) != len(s.regions) {
		return fmt.Errorf("sent %d regions, got %d back", len(s.regions), len(fr.Regions))
	}
	got := make([]*provider.RegionReply, len(s.regions))
	for i := range fr.Regions {
		rr := &fr.Regions[i]
		if rr.ID < 0 || rr.ID >= len(s.regions) || got[rr.ID] != nil {
			return fmt.Errorf("reply region %d is unknown or repeated", rr.ID)
		}
		got[rr.ID] = rr
	}
	f := s.file
	stat := &f.Stages[len(f.Stages)-1]
	var sp []splice
	for i, r := range s.regions {
		rr := got[i]
		for _, fd := range rr.Findings {
			if fd.Offset < 0 || fd.Len < 0 || fd.Offset+fd.Len > r.Len() {
				return fmt.Errorf("region %d: finding outside the region", i)
			}
			stat.Findings++
			if st.Role == pipeline.RoleInspect && r.Kind != region.Prose {
				f.report(r, fd)
			}
		}
		if st.Role == pipeline.RoleInspect {
			continue
		}
		if rr.Text == nil {
			return fmt.Errorf("region %d: a transform reply must carry text", i)
		}
		nt := []byte(*rr.Text)
		if bytes.Equal(nt, f.Cur[r.Start:r.End]) {
			continue
		}
		stat.Changed++
		if f.TouchedKinds == nil {
			f.TouchedKinds = map[region.Kind]bool{}
		}
		f.TouchedKinds[r.Kind] = true
		sp = append(sp, splice{start: r.Start, end: r.End, text: nt})
	}
	if len(sp) == 0 {
		return nil
	}
	sort.Slice(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
	cand := applySplices(f.Cur, sp)
	if err := outsideUnchanged(f.Cur, cand, sp); err != nil {
		return fmt.Errorf("outside-bytes proof failed: %v", err)
	}
	f.Cur = cand
	return nil
}

func (f *File) report(r region.Region, fd carrier.Finding) {
	off := r.Start + fd.Offset
	line, col := textpos.LineCol(f.Cur, off)
	f.Reported = append(f.Reported, report.Finding{Line: line, Col: col, Code: fd.Code(), Name: fd.Name, Class: fd.Class, Region: r.Kind.String(), Why: r.Why})
}

func (e *Engine) contextBytes() int {
	if e.ContextBytes > 0 {
		return e.ContextBytes
	}
	return 64
}

func scopeWord(kinds map[region.Kind]bool) string {
	if kinds[region.Runtime] {
		return "prose or runtime"
	}
	return "prose"
}
