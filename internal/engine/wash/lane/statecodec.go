package lane

import (
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
	return decodeJSON(data, s, readState)
}

func readState(r *jsonReader, s *State) {
	r.object(func(k string) bool {
		switch k {
		case "schema":
			s.Schema = r.int()
		case "gen":
			s.Gen = r.uint64()
		case "band":
			readBandState(r, &s.Band)
		case "verdict":
			s.Verdict = readPtr(r, readVerdict)
		case "gauged_at":
			r.time(&s.GaugedAt)
		case "known":
			s.Known = readList(r, readKnown)
		case "crossing":
			s.Crossing = readPtr(r, readCrossing)
		case "nudged_fat":
			s.NudgedFat = r.int()
		case "quick_tried":
			s.QuickTried = r.bool()
		case "history":
			s.History = readList(r, readPoint)
		case "receipt":
			s.Receipt = readPtr(r, readReceipt)
		case "sessions":
			s.Sessions = r.int()
		case "session":
			s.Session = r.str()
		case "store_bytes":
			s.StoreBytes = r.intN(64)
		case "updated_at":
			r.time(&s.UpdatedAt)
		case "cache":
			s.Cache = readPtr(r, readCache)
		default:
			return false
		}
		return true
	})
}

func readBandState(r *jsonReader, b *gauge.State) {
	r.object(func(k string) bool {
		switch k {
		case "schema":
			b.Schema = r.int()
		case "armed":
			b.Armed = r.bool()
		case "econ_latched":
			b.EconLatched = r.bool()
		case "judge_armed":
			b.JudgeArmed = r.bool()
		case "sessions":
			b.Sessions = r.int()
		case "last":
			b.Last = readPtr(r, readSnapshot)
		default:
			return false
		}
		return true
	})
}

func readSnapshot(r *jsonReader, s *gauge.Snapshot) {
	r.object(func(k string) bool {
		switch k {
		case "band":
			s.Band = gauge.Level(r.str())
		case "footprint":
			s.Footprint = r.int()
		case "fat":
			s.Fat = r.int()
		case "files":
			s.Files = readFileStats(r)
		case "total_bytes":
			s.TotalBytes = r.intN(64)
		default:
			return false
		}
		return true
	})
}

func readFileStats(r *jsonReader) []gauge.FileStat {
	return readList(r, func(r *jsonReader, f *gauge.FileStat) {
		r.object(func(k string) bool {
			switch k {
			case "path":
				f.Path = r.str()
			case "size":
				f.Size = r.intN(64)
			default:
				return false
			}
			return true
		})
	})
}

func readVerdict(r *jsonReader, v *gauge.Verdict) {
	r.object(func(k string) bool {
		if p := verdictInt(v, k); p != nil {
			*p = r.int()
			return true
		}
		switch k {
		case "band":
			v.Band = gauge.Level(r.str())
		case "reason":
			v.Reason = r.str()
		case "advice":
			v.Advice = r.str()
		case "platform":
			v.Platform = r.str()
		case "armed":
			v.Armed = r.bool()
		case "break_even_sessions":
			v.BreakEvenSessions = r.float()
		case "economical":
			v.Economical = r.bool()
		case "latched":
			v.Latched = r.bool()
		case "walls":
			v.Walls = r.strs()
		case "judge_armed":
			v.JudgeArmed = r.bool()
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

func readKnown(r *jsonReader, k *Known) {
	r.object(func(key string) bool {
		switch key {
		case "path":
			k.Path = r.str()
		case "platform":
			k.Platform = r.str()
		case "platforms":
			k.Platforms = r.strs()
		case "owned":
			k.Owned = r.bool()
		case "scope":
			k.Scope = r.str()
		case "kind":
			k.Kind = r.str()
		case "loads":
			k.Loads = readLoads(r)
		default:
			return false
		}
		return true
	})
}

// readLoads reads a map of bytes by platform: null is nil, {} an empty map.
func readLoads(r *jsonReader) map[string]int64 {
	if r.lit("null") {
		return nil
	}
	m := map[string]int64{}
	r.object(func(k string) bool {
		m[k] = r.intN(64)
		return true
	})
	return m
}

func readCrossing(r *jsonReader, c *Crossing) {
	r.object(func(k string) bool {
		switch k {
		case "band":
			c.Band = gauge.Level(r.str())
		case "reason":
			c.Reason = r.str()
		case "fat":
			c.Fat = r.int()
		case "pending":
			c.Pending = r.bool()
		case "session":
			c.Session = r.str()
		default:
			return false
		}
		return true
	})
}

func readPoint(r *jsonReader, p *Point) {
	r.object(func(k string) bool {
		switch k {
		case "at":
			r.time(&p.At)
		case "source":
			p.Source = r.str()
		case "footprint":
			p.Footprint = r.int()
		case "fat":
			p.Fat = r.int()
		case "inherited":
			p.Inherited = r.int()
		case "band":
			p.Band = gauge.Level(r.str())
		default:
			return false
		}
		return true
	})
}

func readReceipt(r *jsonReader, rc *Receipt) {
	r.object(func(k string) bool {
		switch k {
		case "at":
			r.time(&rc.At)
		case "kind":
			rc.Kind = r.str()
		case "dry_run":
			rc.DryRun = r.bool()
		case "before":
			rc.Before = r.int()
		case "after":
			rc.After = r.int()
		case "line":
			rc.Line = r.str()
		case "event":
			rc.Event = r.str()
		default:
			return false
		}
		return true
	})
}

func readCache(r *jsonReader, c *Cache) {
	r.object(func(k string) bool {
		switch k {
		case "key":
			c.Key = r.str()
		case "loaded":
			c.Loaded = r.str()
		case "files":
			c.Files = readList(r, readFileSig)
		case "measurement":
			readMeasurement(r, &c.Measurement)
		default:
			return false
		}
		return true
	})
}

func readFileSig(r *jsonReader, f *FileSig) {
	r.object(func(k string) bool {
		switch k {
		case "path":
			f.Path = r.str()
		case "size":
			f.Size = r.intN(64)
		case "mtime_ns":
			f.MTime = r.intN(64)
		default:
			return false
		}
		return true
	})
}

func readMeasurement(r *jsonReader, m *gauge.Measurement) {
	r.object(func(k string) bool {
		if p := measurementInt(m, k); p != nil {
			*p = r.int()
			return true
		}
		switch k {
		case "platform":
			m.Platform = r.str()
		case "platforms":
			m.Platforms = readList(r, readPlatformLoad)
		case "files":
			m.Files = readFileStats(r)
		case "oversize":
			m.Oversize = r.strs()
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

func readPlatformLoad(r *jsonReader, p *gauge.PlatformLoad) {
	r.object(func(k string) bool {
		switch k {
		case "platform":
			p.Platform = r.str()
		case "footprint":
			p.Footprint = r.int()
		case "fat":
			p.Fat = r.int()
		case "inherited":
			p.Inherited = r.int()
		case "files":
			p.Files = r.int()
		case "never_loaded":
			p.NeverLoaded = r.int()
		default:
			return false
		}
		return true
	})
}
