package lane

import (
	"slices"

	"github.com/prosewash/prosewash/internal/engine/jsonfast"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// The state is read and written at every session start, and encoding/json sets up the
// reflection of State's types again in every hook process (280-380 us of a session start,
// more than decoding and encoding the state itself). marshalState writes exactly the bytes
// json.Marshal writes for a State, so every version reads what this one writes, and
// decodeState reads the compact form json.Marshal writes (what every version has written)
// without reflection, handing anything else to encoding/json: the fast reader only ever
// answers where it is sure encoding/json would answer the same (statejson_test.go proves
// both against encoding/json).

// State's members in the order and with the omitempty rules of its json tags (and of the
// gauge types' tags): what json.Marshal writes, read back by the readers below. A field
// added to one of these types needs its line in both (TestStateCodecIsEncodingJSON fills
// every field and fails otherwise).

// marshalState is json.Marshal(s), byte for byte.
func marshalState(s *State) ([]byte, error) {
	w := jsonfast.NewWriter(8 << 10)
	w.Open()
	w.Int("schema", int64(s.Schema))
	w.Uint("gen", s.Gen)
	w.Key("band")
	writeBandState(w, &s.Band)
	if s.Verdict != nil {
		w.Key("verdict")
		writeVerdict(w, s.Verdict)
	}
	w.Time("gauged_at", s.GaugedAt)
	if len(s.Known) > 0 {
		w.Key("known")
		jsonfast.WriteList(w, s.Known, writeKnown)
	}
	if c := s.Crossing; c != nil {
		w.Key("crossing")
		w.Open()
		w.Str("band", string(c.Band))
		w.Str("reason", c.Reason)
		w.Int("fat", int64(c.Fat))
		w.Bool("pending", c.Pending)
		w.OptStr("session", c.Session)
		w.Close()
	}
	w.OptInt("nudged_fat", int64(s.NudgedFat))
	w.OptBool("quick_tried", s.QuickTried)
	if len(s.History) > 0 {
		w.Key("history")
		jsonfast.WriteList(w, s.History, writePoint)
	}
	if s.Receipt != nil {
		w.Key("receipt")
		writeReceipt(w, s.Receipt)
	}
	w.Int("sessions", int64(s.Sessions))
	w.OptStr("session", s.Session)
	w.Int("store_bytes", s.StoreBytes)
	w.Time("updated_at", s.UpdatedAt)
	if s.Cache != nil {
		w.Key("cache")
		writeCache(w, s.Cache)
	}
	w.Close()
	return w.Bytes()
}

func writeBandState(w *jsonfast.Writer, b *gauge.State) {
	w.Open()
	w.Int("schema", int64(b.Schema))
	w.Bool("armed", b.Armed)
	w.Bool("econ_latched", b.EconLatched)
	w.OptBool("judge_armed", b.JudgeArmed)
	w.Int("sessions", int64(b.Sessions))
	if b.Last != nil {
		w.Key("last")
		w.Open()
		w.Str("band", string(b.Last.Band))
		w.Int("footprint", int64(b.Last.Footprint))
		w.Int("fat", int64(b.Last.Fat))
		writeFileStats(w, b.Last.Files)
		w.Int("total_bytes", b.Last.TotalBytes)
		w.Close()
	}
	w.Close()
}

// writeFileStats writes a "files" member of FileStats tagged omitempty.
func writeFileStats(w *jsonfast.Writer, files []gauge.FileStat) {
	if len(files) == 0 {
		return
	}
	w.Key("files")
	jsonfast.WriteList(w, files, func(w *jsonfast.Writer, f *gauge.FileStat) {
		w.Open()
		w.Str("path", f.Path)
		w.Int("size", f.Size)
		w.Close()
	})
}

func writeVerdict(w *jsonfast.Writer, v *gauge.Verdict) {
	w.Open()
	w.Str("band", string(v.Band))
	w.Str("reason", v.Reason)
	w.Str("advice", v.Advice)
	w.OptStr("platform", v.Platform)
	w.Int("footprint", int64(v.Footprint))
	w.Int("inherited", int64(v.Inherited))
	w.Int("fat", int64(v.Fat))
	w.Int("muscle", int64(v.Muscle))
	w.Bool("armed", v.Armed)
	w.Int("arm_at", int64(v.ArmAt))
	w.Int("disarm_at", int64(v.DisarmAt))
	w.Int("carry_per_session", int64(v.CarryPerSession))
	w.Int("run_cost", int64(v.RunCost))
	w.Float("break_even_sessions", v.BreakEvenSessions)
	w.Int("horizon_sessions", int64(v.HorizonSessions))
	w.Bool("economical", v.Economical)
	w.Bool("latched", v.Latched)
	w.Strs("walls", v.Walls)
	w.Int("budget", int64(v.Budget))
	w.OptInt("over_budget", int64(v.OverBudget))
	w.OptInt("superseded", int64(v.Superseded))
	w.OptInt("stale", int64(v.Stale))
	w.OptInt("potential", int64(v.Potential))
	w.OptBool("judge_armed", v.JudgeArmed)
	w.Close()
}

func writeKnown(w *jsonfast.Writer, k *Known) {
	w.Open()
	w.Str("path", k.Path)
	w.Str("platform", k.Platform)
	w.Strs("platforms", k.Platforms)
	w.OptBool("owned", k.Owned)
	w.Str("scope", k.Scope)
	w.Str("kind", k.Kind)
	if len(k.Loads) > 0 {
		w.Key("loads")
		w.Open()
		keys := make([]string, 0, len(k.Loads))
		for p := range k.Loads {
			keys = append(keys, p)
		}
		slices.Sort(keys) // json.Marshal sorts a map's keys
		for _, p := range keys {
			w.Int(p, k.Loads[p])
		}
		w.Close()
	}
	w.Close()
}

func writePoint(w *jsonfast.Writer, p *Point) {
	w.Open()
	w.Time("at", p.At)
	w.Str("source", p.Source)
	w.Int("footprint", int64(p.Footprint))
	w.Int("fat", int64(p.Fat))
	w.Int("inherited", int64(p.Inherited))
	w.Str("band", string(p.Band))
	w.Close()
}

func writeReceipt(w *jsonfast.Writer, r *Receipt) {
	w.Open()
	w.Time("at", r.At)
	w.Str("kind", r.Kind)
	w.OptBool("dry_run", r.DryRun)
	w.Int("before", int64(r.Before))
	w.Int("after", int64(r.After))
	w.Str("line", r.Line)
	w.OptStr("event", r.Event)
	w.Close()
}

func writeCache(w *jsonfast.Writer, c *Cache) {
	w.Open()
	w.OptStr("key", c.Key)
	w.OptStr("loaded", c.Loaded)
	w.Key("files")
	jsonfast.WriteList(w, c.Files, func(w *jsonfast.Writer, f *FileSig) {
		w.Open()
		w.Str("path", f.Path)
		w.Int("size", f.Size)
		w.Int("mtime_ns", f.MTime)
		w.Close()
	})
	w.Key("measurement")
	m := &c.Measurement
	w.Open()
	w.OptStr("platform", m.Platform)
	if len(m.Platforms) > 0 {
		w.Key("platforms")
		jsonfast.WriteList(w, m.Platforms, func(w *jsonfast.Writer, p *gauge.PlatformLoad) {
			w.Open()
			w.Str("platform", p.Platform)
			w.Int("footprint", int64(p.Footprint))
			w.Int("fat", int64(p.Fat))
			w.Int("inherited", int64(p.Inherited))
			w.Int("files", int64(p.Files))
			w.OptInt("never_loaded", int64(p.NeverLoaded))
			w.Close()
		})
	}
	w.Int("footprint", int64(m.Footprint))
	w.Int("inherited", int64(m.Inherited))
	w.Int("fat", int64(m.Fat))
	w.Int("store_tokens", int64(m.StoreTokens))
	w.Int("index_bytes", int64(m.IndexBytes))
	w.Int("index_lines", int64(m.IndexLines))
	writeFileStats(w, m.Files)
	w.Strs("oversize", m.Oversize)
	w.OptInt("superseded", int64(m.Superseded))
	w.OptInt("stale", int64(m.Stale))
	w.OptInt("brief_tokens", int64(m.BriefTokens))
	w.Close()
	w.Close()
}

// decodeState decodes one state slot; ok is false when encoding/json would fail on it.
func decodeState(data []byte, s *State) bool {
	return jsonfast.Decode(data, s, readState)
}

func readState(r *jsonfast.Reader, s *State) {
	r.Object(func(k string) bool {
		switch k {
		case "schema":
			s.Schema = r.Int()
		case "gen":
			s.Gen = r.Uint64()
		case "band":
			readBandState(r, &s.Band)
		case "verdict":
			s.Verdict = jsonfast.ReadPtr(r, readVerdict)
		case "gauged_at":
			r.Time(&s.GaugedAt)
		case "known":
			s.Known = jsonfast.ReadList(r, readKnown)
		case "crossing":
			s.Crossing = jsonfast.ReadPtr(r, readCrossing)
		case "nudged_fat":
			s.NudgedFat = r.Int()
		case "quick_tried":
			s.QuickTried = r.Bool()
		case "history":
			s.History = jsonfast.ReadList(r, readPoint)
		case "receipt":
			s.Receipt = jsonfast.ReadPtr(r, readReceipt)
		case "sessions":
			s.Sessions = r.Int()
		case "session":
			s.Session = r.Str()
		case "store_bytes":
			s.StoreBytes = r.IntN(64)
		case "updated_at":
			r.Time(&s.UpdatedAt)
		case "cache":
			s.Cache = jsonfast.ReadPtr(r, readCache)
		default:
			return false
		}
		return true
	})
}

func readBandState(r *jsonfast.Reader, b *gauge.State) {
	r.Object(func(k string) bool {
		switch k {
		case "schema":
			b.Schema = r.Int()
		case "armed":
			b.Armed = r.Bool()
		case "econ_latched":
			b.EconLatched = r.Bool()
		case "judge_armed":
			b.JudgeArmed = r.Bool()
		case "sessions":
			b.Sessions = r.Int()
		case "last":
			b.Last = jsonfast.ReadPtr(r, readSnapshot)
		default:
			return false
		}
		return true
	})
}

func readSnapshot(r *jsonfast.Reader, s *gauge.Snapshot) {
	r.Object(func(k string) bool {
		switch k {
		case "band":
			s.Band = gauge.Level(r.Str())
		case "footprint":
			s.Footprint = r.Int()
		case "fat":
			s.Fat = r.Int()
		case "files":
			s.Files = readFileStats(r)
		case "total_bytes":
			s.TotalBytes = r.IntN(64)
		default:
			return false
		}
		return true
	})
}

func readFileStats(r *jsonfast.Reader) []gauge.FileStat {
	return jsonfast.ReadList(r, func(r *jsonfast.Reader, f *gauge.FileStat) {
		r.Object(func(k string) bool {
			switch k {
			case "path":
				f.Path = r.Str()
			case "size":
				f.Size = r.IntN(64)
			default:
				return false
			}
			return true
		})
	})
}

func readVerdict(r *jsonfast.Reader, v *gauge.Verdict) {
	r.Object(func(k string) bool {
		if p := verdictInt(v, k); p != nil {
			*p = r.Int()
			return true
		}
		switch k {
		case "band":
			v.Band = gauge.Level(r.Str())
		case "reason":
			v.Reason = r.Str()
		case "advice":
			v.Advice = r.Str()
		case "platform":
			v.Platform = r.Str()
		case "armed":
			v.Armed = r.Bool()
		case "break_even_sessions":
			v.BreakEvenSessions = r.Float()
		case "economical":
			v.Economical = r.Bool()
		case "latched":
			v.Latched = r.Bool()
		case "walls":
			v.Walls = r.Strs()
		case "judge_armed":
			v.JudgeArmed = r.Bool()
		default:
			return false
		}
		return true
	})
}

// verdictInt is the int field of v the member k names, or nil.
func verdictInt(v *gauge.Verdict, k string) *int {
	switch k {
	case "footprint":
		return &v.Footprint
	case "inherited":
		return &v.Inherited
	case "fat":
		return &v.Fat
	case "muscle":
		return &v.Muscle
	case "arm_at":
		return &v.ArmAt
	case "disarm_at":
		return &v.DisarmAt
	case "carry_per_session":
		return &v.CarryPerSession
	case "run_cost":
		return &v.RunCost
	case "horizon_sessions":
		return &v.HorizonSessions
	case "budget":
		return &v.Budget
	case "over_budget":
		return &v.OverBudget
	case "superseded":
		return &v.Superseded
	case "stale":
		return &v.Stale
	case "potential":
		return &v.Potential
	}
	return nil
}

func readKnown(r *jsonfast.Reader, k *Known) {
	r.Object(func(key string) bool {
		switch key {
		case "path":
			k.Path = r.Str()
		case "platform":
			k.Platform = r.Str()
		case "platforms":
			k.Platforms = r.Strs()
		case "owned":
			k.Owned = r.Bool()
		case "scope":
			k.Scope = r.Str()
		case "kind":
			k.Kind = r.Str()
		case "loads":
			k.Loads = readLoads(r)
		default:
			return false
		}
		return true
	})
}

// readLoads reads a map of bytes by platform: null is nil, {} an empty map.
func readLoads(r *jsonfast.Reader) map[string]int64 {
	if r.Lit("null") {
		return nil
	}
	m := map[string]int64{}
	r.Object(func(k string) bool {
		m[k] = r.IntN(64)
		return true
	})
	return m
}

func readCrossing(r *jsonfast.Reader, c *Crossing) {
	r.Object(func(k string) bool {
		switch k {
		case "band":
			c.Band = gauge.Level(r.Str())
		case "reason":
			c.Reason = r.Str()
		case "fat":
			c.Fat = r.Int()
		case "pending":
			c.Pending = r.Bool()
		case "session":
			c.Session = r.Str()
		default:
			return false
		}
		return true
	})
}

func readPoint(r *jsonfast.Reader, p *Point) {
	r.Object(func(k string) bool {
		switch k {
		case "at":
			r.Time(&p.At)
		case "source":
			p.Source = r.Str()
		case "footprint":
			p.Footprint = r.Int()
		case "fat":
			p.Fat = r.Int()
		case "inherited":
			p.Inherited = r.Int()
		case "band":
			p.Band = gauge.Level(r.Str())
		default:
			return false
		}
		return true
	})
}

func readReceipt(r *jsonfast.Reader, rc *Receipt) {
	r.Object(func(k string) bool {
		switch k {
		case "at":
			r.Time(&rc.At)
		case "kind":
			rc.Kind = r.Str()
		case "dry_run":
			rc.DryRun = r.Bool()
		case "before":
			rc.Before = r.Int()
		case "after":
			rc.After = r.Int()
		case "line":
			rc.Line = r.Str()
		case "event":
			rc.Event = r.Str()
		default:
			return false
		}
		return true
	})
}

func readCache(r *jsonfast.Reader, c *Cache) {
	r.Object(func(k string) bool {
		switch k {
		case "key":
			c.Key = r.Str()
		case "loaded":
			c.Loaded = r.Str()
		case "files":
			c.Files = jsonfast.ReadList(r, readFileSig)
		case "measurement":
			readMeasurement(r, &c.Measurement)
		default:
			return false
		}
		return true
	})
}

func readFileSig(r *jsonfast.Reader, f *FileSig) {
	r.Object(func(k string) bool {
		switch k {
		case "path":
			f.Path = r.Str()
		case "size":
			f.Size = r.IntN(64)
		case "mtime_ns":
			f.MTime = r.IntN(64)
		default:
			return false
		}
		return true
	})
}

func readMeasurement(r *jsonfast.Reader, m *gauge.Measurement) {
	r.Object(func(k string) bool {
		if p := measurementInt(m, k); p != nil {
			*p = r.Int()
			return true
		}
		switch k {
		case "platform":
			m.Platform = r.Str()
		case "platforms":
			m.Platforms = jsonfast.ReadList(r, readPlatformLoad)
		case "files":
			m.Files = readFileStats(r)
		case "oversize":
			m.Oversize = r.Strs()
		default:
			return false
		}
		return true
	})
}

// measurementInt is the int field of m the member k names, or nil.
func measurementInt(m *gauge.Measurement, k string) *int {
	switch k {
	case "footprint":
		return &m.Footprint
	case "inherited":
		return &m.Inherited
	case "fat":
		return &m.Fat
	case "store_tokens":
		return &m.StoreTokens
	case "index_bytes":
		return &m.IndexBytes
	case "index_lines":
		return &m.IndexLines
	case "superseded":
		return &m.Superseded
	case "stale":
		return &m.Stale
	case "brief_tokens":
		return &m.BriefTokens
	}
	return nil
}

func readPlatformLoad(r *jsonfast.Reader, p *gauge.PlatformLoad) {
	r.Object(func(k string) bool {
		switch k {
		case "platform":
			p.Platform = r.Str()
		case "footprint":
			p.Footprint = r.Int()
		case "fat":
			p.Fat = r.Int()
		case "inherited":
			p.Inherited = r.Int()
		case "files":
			p.Files = r.Int()
		case "never_loaded":
			p.NeverLoaded = r.Int()
		default:
			return false
		}
		return true
	})
}
