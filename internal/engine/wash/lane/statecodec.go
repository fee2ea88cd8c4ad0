package lane

import (
	"github.com/prosewash/prosewash/internal/engine/jsonfast"
	"slices"
	"strconv"

	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// State's members in the order and with the omitempty rules of its json tags (and of the
// gauge types' tags): what json.Marshal writes, read back by the readers below. A field
// added to one of these types needs its line in both (TestStateCodecIsEncodingJSON fills
// every field and fails otherwise).

// marshalState is json.Marshal(s), byte for byte.
func marshalState(s *State) ([]byte, error) {
	w := &jsonWriter{b: make([]byte, 0, 8<<10)}
	w.open()
	w.int("schema", int64(s.Schema))
	w.key("gen")
	w.b = strconv.AppendUint(w.b, s.Gen, 10)
	w.key("band")
	writeBandState(w, &s.Band)
	if s.Verdict != nil {
		w.key("verdict")
		writeVerdict(w, s.Verdict)
	}
	w.time("gauged_at", s.GaugedAt)
	if len(s.Known) > 0 {
		w.key("known")
		writeList(w, s.Known, writeKnown)
	}
	if c := s.Crossing; c != nil {
		w.key("crossing")
		w.open()
		w.str("band", string(c.Band))
		w.str("reason", c.Reason)
		w.int("fat", int64(c.Fat))
		w.bool("pending", c.Pending)
		w.optStr("session", c.Session)
		w.close()
	}
	w.optInt("nudged_fat", int64(s.NudgedFat))
	w.optBool("quick_tried", s.QuickTried)
	if len(s.History) > 0 {
		w.key("history")
		writeList(w, s.History, writePoint)
	}
	if s.Receipt != nil {
		w.key("receipt")
		writeReceipt(w, s.Receipt)
	}
	w.int("sessions", int64(s.Sessions))
	w.optStr("session", s.Session)
	w.int("store_bytes", s.StoreBytes)
	w.time("updated_at", s.UpdatedAt)
	if s.Cache != nil {
		w.key("cache")
		writeCache(w, s.Cache)
	}
	w.close()
	return w.b, w.err
}

func writeBandState(w *jsonWriter, b *gauge.State) {
	w.open()
	w.int("schema", int64(b.Schema))
	w.bool("armed", b.Armed)
	w.bool("econ_latched", b.EconLatched)
	w.optBool("judge_armed", b.JudgeArmed)
	w.int("sessions", int64(b.Sessions))
	if b.Last != nil {
		w.key("last")
		w.open()
		w.str("band", string(b.Last.Band))
		w.int("footprint", int64(b.Last.Footprint))
		w.int("fat", int64(b.Last.Fat))
		writeFileStats(w, b.Last.Files)
		w.int("total_bytes", b.Last.TotalBytes)
		w.close()
	}
	w.close()
}

// writeFileStats writes a "files" member of FileStats tagged omitempty.
func writeFileStats(w *jsonWriter, files []gauge.FileStat) {
	if len(files) == 0 {
		return
	}
	w.key("files")
	writeList(w, files, func(w *jsonWriter, f *gauge.FileStat) {
		w.open()
		w.str("path", f.Path)
		w.int("size", f.Size)
		w.close()
	})
}

func writeVerdict(w *jsonWriter, v *gauge.Verdict) {
	w.open()
	w.str("band", string(v.Band))
	w.str("reason", v.Reason)
	w.str("advice", v.Advice)
	w.optStr("platform", v.Platform)
	w.int("footprint", int64(v.Footprint))
	w.int("inherited", int64(v.Inherited))
	w.int("fat", int64(v.Fat))
	w.int("muscle", int64(v.Muscle))
	w.bool("armed", v.Armed)
	w.int("arm_at", int64(v.ArmAt))
	w.int("disarm_at", int64(v.DisarmAt))
	w.int("carry_per_session", int64(v.CarryPerSession))
	w.int("run_cost", int64(v.RunCost))
	w.float("break_even_sessions", v.BreakEvenSessions)
	w.int("horizon_sessions", int64(v.HorizonSessions))
	w.bool("economical", v.Economical)
	w.bool("latched", v.Latched)
	w.strs("walls", v.Walls)
	w.int("budget", int64(v.Budget))
	w.optInt("over_budget", int64(v.OverBudget))
	w.optInt("superseded", int64(v.Superseded))
	w.optInt("stale", int64(v.Stale))
	w.optInt("potential", int64(v.Potential))
	w.optBool("judge_armed", v.JudgeArmed)
	w.close()
}

func writeKnown(w *jsonWriter, k *Known) {
	w.open()
	w.str("path", k.Path)
	w.str("platform", k.Platform)
	w.strs("platforms", k.Platforms)
	w.optBool("owned", k.Owned)
	w.str("scope", k.Scope)
	w.str("kind", k.Kind)
	if len(k.Loads) > 0 {
		w.key("loads")
		w.open()
		keys := make([]string, 0, len(k.Loads))
		for p := range k.Loads {
			keys = append(keys, p)
		}
		slices.Sort(keys) // json.Marshal sorts a map's keys
		for _, p := range keys {
			if !w.first {
				w.b = append(w.b, ',')
			}
			w.first = false
			w.b = append(appendJSONString(w.b, p), ':')
			w.b = strconv.AppendInt(w.b, k.Loads[p], 10)
		}
		w.close()
	}
	w.close()
}

func writePoint(w *jsonWriter, p *Point) {
	w.open()
	w.time("at", p.At)
	w.str("source", p.Source)
	w.int("footprint", int64(p.Footprint))
	w.int("fat", int64(p.Fat))
	w.int("inherited", int64(p.Inherited))
	w.str("band", string(p.Band))
	w.close()
}

func writeReceipt(w *jsonWriter, r *Receipt) {
	w.open()
	w.time("at", r.At)
	w.str("kind", r.Kind)
	w.optBool("dry_run", r.DryRun)
	w.int("before", int64(r.Before))
	w.int("after", int64(r.After))
	w.str("line", r.Line)
	w.optStr("event", r.Event)
	w.close()
}

func writeCache(w *jsonWriter, c *Cache) {
	w.open()
	w.optStr("key", c.Key)
	w.optStr("loaded", c.Loaded)
	w.key("files")
	writeList(w, c.Files, func(w *jsonWriter, f *FileSig) {
		w.open()
		w.str("path", f.Path)
		w.int("size", f.Size)
		w.int("mtime_ns", f.MTime)
		w.close()
	})
	w.key("measurement")
	m := &c.Measurement
	w.open()
	w.optStr("platform", m.Platform)
	if len(m.Platforms) > 0 {
		w.key("platforms")
		writeList(w, m.Platforms, func(w *jsonWriter, p *gauge.PlatformLoad) {
			w.open()
			w.str("platform", p.Platform)
			w.int("footprint", int64(p.Footprint))
			w.int("fat", int64(p.Fat))
			w.int("inherited", int64(p.Inherited))
			w.int("files", int64(p.Files))
			w.optInt("never_loaded", int64(p.NeverLoaded))
			w.close()
		})
	}
	w.int("footprint", int64(m.Footprint))
	w.int("inherited", int64(m.Inherited))
	w.int("fat", int64(m.Fat))
	w.int("store_tokens", int64(m.StoreTokens))
	w.int("index_bytes", int64(m.IndexBytes))
	w.int("index_lines", int64(m.IndexLines))
	writeFileStats(w, m.Files)
	w.strs("oversize", m.Oversize)
	w.optInt("superseded", int64(m.Superseded))
	w.optInt("stale", int64(m.Stale))
	w.optInt("brief_tokens", int64(m.BriefTokens))
	w.close()
	w.close()
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
