package clean

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// Runner runs one provider call. provider.Run in production; the seam exists
// so a test can count calls, not to replace providers.
type Runner func(context.Context, provider.Call, *provider.Request) (*provider.Reply, error)

// Engine runs the provider stages of a resolved pipeline over files.
type Engine struct {
	Pipeline *pipeline.Resolved
	// Bindings are what each provider (by id) was bound to; every call of
	// a stage carries its provider's, and the runner starts nothing else.
	Bindings map[string]provider.Binding
	// Call carries what every provider call shares: variables, working
	// directory, environment. Def, Op and Bind are set per stage.
	Call provider.Call
	Run  Runner
	// ContextBytes caps the read-only context each region carries on each
	// side (default provider.ContextMax); within the cap it is the rest of
	// the region's paragraph.
	ContextBytes int
	// Allow is [clean] allow: carriers people mean to keep. With the keep
	// markers in the files, they are sent as Keep offsets to transforms
	// and never reported as left.
	Allow []carrier.Allow
	// Specials, when set, returns the offsets of a file at which
	// something any stage's provider could report or change may start, in
	// order: a region that holds none is not sent. Set only where every
	// stage runs the carrier policy in-process (ucarrier.Specials), whose
	// answer for such a region is known to be nothing. One pass over a
	// file answers for all its regions and stages, where a test per
	// region cost a call for each of the thousands of strings of a JSON
	// file. nil sends every region.
	// ok false means the list would be too long to keep: every region of
	// such a text is sent.
	Specials func(text []byte) (offsets []int, ok bool)
}

// kindsFor says which region kinds a stage may be given. Directives are
// never handed to a transform; an inspect stage may look at them.
func kindsFor(role, scope string) kindSet {
	var k kindSet
	k[region.Prose] = true
	if scope == provider.ScopeRuntime || scope == provider.ScopeAny {
		k[region.Runtime] = true
	}
	if role == pipeline.RoleInspect && scope == provider.ScopeAny {
		k[region.Directive] = true
	}
	return k
}

// kindSet holds a bool per region kind (Runtime, Directive, Prose).
type kindSet [3]bool

// shortContext is the context of regions that are not prose: enough for
// every rule that looks at a carrier's neighbours.
const shortContext = 64

// maxRounds bounds how often one stage asks a provider again about one
// file with more carriers to keep; the last round keeps every carrier the
// previous answer acted on.
const maxRounds = 4

type sent struct {
	file    *File
	fileID  int
	regions []region.Region
	req     provider.FileRegions
	in      []byte      // the stage's input: the file as the stage read it
	m       *region.Map // its classification
	// keep maps input offsets of carriers to leave to why: the user's
	// allow list and keep markers, then what the structure proof found.
	keep  map[int]keepWhy
	round int
	stage int

	lc *textpos.Counter
}

// RunStages runs every provider stage over the files still alive, in order.
// After each transform the candidate is classified again and its structure
// proven (see compareStructure); where removing a carrier would change it,
// that carrier is kept and the rest of the file still cleaned. Builtin
// stages are the caller's (validation). A provider failure refuses the
// files it was given and the run goes on.
func (e *Engine) RunStages(ctx context.Context, files []*File) {
	for _, st := range e.Pipeline.Stages {
		if st.Def == nil {
			continue
		}
		e.runStage(ctx, st, kindsFor(st.Role, st.Scope), files)
	}
	for _, f := range files {
		if !f.Alive() {
			continue
		}
		if bytes.Equal(f.Cur, f.Orig) {
			f.Status = Unchanged
			continue
		}
		f.Status = Changed
	}
}

func (e *Engine) runStage(ctx context.Context, st pipeline.ResolvedStage, kinds kindSet, files []*File) {
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
		s := &sent{file: f, fileID: len(batch), in: f.Cur, m: m, stage: st.Index}
		s.req = provider.FileRegions{ID: s.fileID, Path: f.Rel, Language: f.Lang}
		specials, specialsOK := e.specials(f)
		for _, r := range m.Regions {
			if !kinds[r.Kind] || r.Len() == 0 {
				continue
			}
			if specialsOK {
				// The regions come in file order: the specials before
				// this one are behind every later one too.
				for len(specials) > 0 && specials[0] < r.Start {
					specials = specials[1:]
				}
				if silentIn(f.Cur, specials, r.Start, r.End) {
					continue // plain ASCII included
				}
			} else if st.Op.SkipPlainASCII && carrier.Plain(f.Cur[r.Start:r.End]) {
				continue // nothing there for an operation that never changes plain ASCII
			}
			s.regions = append(s.regions, r)
		}
		f.Stages = append(f.Stages, stat)
		if len(s.regions) == 0 {
			f.Stages[len(f.Stages)-1].Skipped = "no " + scopeWord(kinds) + " regions"
			continue
		}
		if st.Role != pipeline.RoleInspect {
			s.keep = e.userKeeps(f, s.in, s.regions)
		}
		e.payload(s)
		f.Stages[len(f.Stages)-1].Regions = len(s.regions)
		batch = append(batch, s)
	}
	for len(batch) > 0 {
		batch = e.call(ctx, st, batch)
		for _, s := range batch {
			s.round++
			e.payload(s)
		}
	}
}

// specials returns e.Specials of the file's current text, found once for
// every stage that reads the same text; ok false without e.Specials.
func (e *Engine) specials(f *File) (offsets []int, ok bool) {
	if e.Specials == nil {
		return nil, false
	}
	if !sameBytes(f.specialsOf, f.Cur) {
		f.specials, f.specialsOK = e.Specials(f.Cur)
		f.specialsOf = f.Cur
	}
	return f.specials, f.specialsOK
}

// sameBytes reports whether a and b are the same slice of the same array.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// silentIn reports whether text[start:end] holds none of specials (the
// offsets of text that may start something, ascending, none before
// start). The answer is the region's own only when both its ends are at
// character starts, where a scan of the region alone decodes what the
// scan of the file did: a region that begins or ends inside a character is
// never called silent.
func silentIn(text []byte, specials []int, start, end int) bool {
	if !utf8.RuneStart(text[start]) || end < len(text) && !utf8.RuneStart(text[end]) {
		return false
	}
	return len(specials) == 0 || specials[0] >= end
}

// payload (re)builds the regions sent for s, with their keep offsets.
func (e *Engine) payload(s *sent) {
	s.req.Regions = s.req.Regions[:0]
	for i, r := range s.regions {
		// Prose gets its paragraph (a right-to-left mark is judged in
		// it); other regions only what their neighbours decide.
		before, after := around(s.in, r.Start, r.End, shortContext, shortContext)
		if r.Kind == region.Prose {
			before, after = paragraphAround(s.in, r.Start, r.End, e.contextBytes())
		}
		rp := provider.RegionPayload{
			ID: i, Kind: r.Kind.String(), Offset: r.Start,
			Before: string(before), Text: string(s.in[r.Start:r.End]), After: string(after),
		}
		for off := range s.keep {
			if off >= r.Start && off < r.End {
				rp.Keep = append(rp.Keep, off-r.Start)
			}
		}
		sort.Ints(rp.Keep)
		s.req.Regions = append(s.req.Regions, rp)
	}
}

// call sends the batch; when the whole call fails and it held several files,
// each file is retried alone so one poisonous file cannot refuse the others.
// It returns the files to ask about again, with more carriers to keep.
func (e *Engine) call(ctx context.Context, st pipeline.ResolvedStage, batch []*sent) []*sent {
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
	c.Def, c.Op, c.Bind = st.Def, st.Op, e.Bindings[st.Def.ID]
	reply, err := e.Run(ctx, c, req)
	if err != nil {
		var re *provider.RunError
		if len(batch) > 1 && errors.As(err, &re) && re.Retryable() {
			var again []*sent
			for _, s := range batch {
				again = append(again, e.call(ctx, st, []*sent{s})...)
			}
			return again
		}
		for _, s := range batch {
			s.file.refuse("stage %d (%s): %v", st.Index+1, st.Label(), err)
		}
		return nil
	}
	byID := map[int]*provider.FileReply{}
	for i := range reply.Files {
		fr := &reply.Files[i]
		if fr.ID < 0 || fr.ID >= len(batch) || byID[fr.ID] != nil {
			for _, s := range batch {
				s.file.refuse("stage %d (%s): reply names file %d twice or out of range", st.Index+1, st.Label(), fr.ID)
			}
			return nil
		}
		byID[fr.ID] = fr
	}
	var again []*sent
	for _, s := range batch {
		fr := byID[s.fileID]
		if fr == nil {
			s.file.refuse("stage %d (%s): reply dropped this file", st.Index+1, st.Label())
			continue
		}
		retry, err := e.apply(st, s, fr)
		switch {
		case err != nil:
			s.file.refuse("stage %d (%s): %v", st.Index+1, st.Label(), err)
		case retry:
			again = append(again, s)
		}
	}
	return again
}

// apply checks one file's reply region by region, proves it and splices it
// in. retry says the provider must be asked again: removing some carriers
// would change the file's structure, and s.keep now holds them.
func (e *Engine) apply(st pipeline.ResolvedStage, s *sent, fr *provider.FileReply) (retry bool, err error) {
	got, err := replyByRegion(s, fr)
	if err != nil {
		return false, err
	}
	stat := &s.file.Stages[len(s.file.Stages)-1]
	if st.Role == pipeline.RoleInspect {
		e.recordInspection(s, got, stat)
		return false, nil
	}
	texts, moves, explained, err := transformTexts(s, got)
	if err != nil {
		return false, err
	}
	cand, sp, err := candidate(s.in, s.m, s.regions, texts)
	if err != nil {
		return false, fmt.Errorf("internal error: %v", err)
	}
	if len(sp) > 0 {
		edits := moves
		if !explained {
			edits = sp
		}
		if d := proveStructure(s.file.Path, s.in, s.m, cand, edits, explained); d != nil {
			return keepForStructure(s, d, moves, explained)
		}
	}
	e.recordTransform(s, got, texts, stat)
	s.file.Cur = cand
	return false, nil
}

// replyByRegion orders a file's reply by the regions sent: one reply per
// region, none repeated or unknown, every finding inside its region.
func replyByRegion(s *sent, fr *provider.FileReply) ([]*provider.RegionReply, error) {
	if len(fr.Regions) != len(s.regions) {
		return nil, fmt.Errorf("sent %d regions, got %d back", len(s.regions), len(fr.Regions))
	}
	got := make([]*provider.RegionReply, len(s.regions))
	for i := range fr.Regions {
		rr := &fr.Regions[i]
		if rr.ID < 0 || rr.ID >= len(s.regions) || got[rr.ID] != nil {
			return nil, fmt.Errorf("reply region %d is unknown or repeated", rr.ID)
		}
		got[rr.ID] = rr
	}
	for i, r := range s.regions {
		for _, fd := range got[i].Findings {
			if fd.Offset < 0 || fd.Len < 0 || fd.Offset+fd.Len > r.Len() {
				return nil, fmt.Errorf("region %d: finding outside the region", i)
			}
		}
	}
	return got, nil
}

// recordInspection counts an inspect stage's findings and records those
// outside prose: the transform stages decide prose.
func (e *Engine) recordInspection(s *sent, got []*provider.RegionReply, stat *report.Stage) {
	for i, r := range s.regions {
		stat.Findings += len(got[i].Findings)
		if r.Kind == region.Prose {
			continue
		}
		for _, fd := range got[i].Findings {
			e.record(s, r, fd, keepWhy{}, false)
		}
	}
}

// transformTexts is the new text of every region of a transform's reply
// and, when the findings explain every change carrier by carrier, the
// edits they make (explained). An edit of a carrier the provider was told
// to keep is refused.
func transformTexts(s *sent, got []*provider.RegionReply) (texts [][]byte, moves []move, explained bool, err error) {
	explained = true
	texts = make([][]byte, len(s.regions))
	for i, r := range s.regions {
		rr := got[i]
		if rr.Text == nil {
			return nil, nil, false, fmt.Errorf("region %d: a transform reply must carry text", i)
		}
		nt := []byte(*rr.Text)
		texts[i] = nt
		ms, ok := explain(r.Start, s.in[r.Start:r.End], nt, rr.Findings)
		if !ok {
			explained = false
			continue
		}
		for _, m := range ms {
			if _, kept := s.keep[m.start]; kept {
				return nil, nil, false, fmt.Errorf("region %d: the provider changed a carrier it was told to keep (byte %d)", i, m.start)
			}
		}
		moves = append(moves, ms...)
	}
	return texts, moves, explained, nil
}

// keepForStructure answers a candidate whose structure differs (d): when
// the edits are explained carrier by carrier and rounds are left, it keeps
// the carriers that cause the difference and asks for another round
// (retry); otherwise the file is refused.
func keepForStructure(s *sent, d *structDiff, moves []move, explained bool) (retry bool, err error) {
	if d.unproved != "" {
		return keepUnproved(s, d, moves, explained)
	}
	if !explained {
		return false, fmt.Errorf("cleaning would change the file's structure: %s; left untouched, clean it by hand", d.describe(s.in))
	}
	if s.round+1 >= maxRounds {
		return false, fmt.Errorf("cleaning would change the file's structure: %s, and keeping the carriers that cause it did not settle; left untouched", d.describe(s.in))
	}
	if s.keep == nil {
		s.keep = map[int]keepWhy{}
	}
	if s.round+2 >= maxRounds {
		// Last chance: keep every carrier this answer acted on.
		for _, m := range moves {
			s.keep[m.start] = keepWhy{why: "removing it changes the file's structure: " + d.describe(s.in)}
		}
		return true, nil
	}
	t := &trial{path: s.file.Path, in: s.in, m: s.m}
	for i, reason := range t.culprits(moves, d) {
		s.keep[moves[i].start] = keepWhy{why: reason}
	}
	return true, nil
}

// keepUnproved answers a candidate whose structure could not be compared:
// no carrier is to blame, so each one the answer acted on is kept (a
// rewrite is refused) without a search that could only fail every trial.
func keepUnproved(s *sent, d *structDiff, moves []move, explained bool) (retry bool, err error) {
	if !explained {
		return false, fmt.Errorf("%s; left untouched", d.unproved)
	}
	if s.keep == nil {
		s.keep = map[int]keepWhy{}
	}
	for _, m := range moves {
		s.keep[m.start] = keepWhy{why: "kept: " + d.unproved}
	}
	return true, nil
}

// recordTransform records an accepted transform's findings, what each
// kept or removed, and the regions and kinds it changed.
func (e *Engine) recordTransform(s *sent, got []*provider.RegionReply, texts [][]byte, stat *report.Stage) {
	f := s.file
	for i, r := range s.regions {
		for _, fd := range got[i].Findings {
			stat.Findings++
			if fd.Action == carrier.Remove || fd.Action == carrier.Replace {
				stat.Removed++
			}
			kw, kept := s.keep[r.Start+fd.Offset]
			e.record(s, r, fd, kw, kept)
		}
		if bytes.Equal(texts[i], s.in[r.Start:r.End]) {
			continue
		}
		stat.Changed++
		if f.TouchedKinds == nil {
			f.TouchedKinds = map[region.Kind]bool{}
		}
		f.TouchedKinds[r.Kind] = true
	}
}

func (e *Engine) contextBytes() int {
	if e.ContextBytes > 0 {
		return e.ContextBytes
	}
	return provider.ContextMax
}

func scopeWord(kinds kindSet) string {
	if kinds[region.Runtime] {
		return "prose or runtime"
	}
	return "prose"
}
