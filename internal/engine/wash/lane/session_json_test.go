package lane

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzSessionEventMarshalIsEncodingJSON: an event's line is the bytes
// json.Marshal writes for it, every member set or empty.
func FuzzSessionEventMarshalIsEncodingJSON(f *testing.F) {
	f.Add("loaded", "s1", "/p", "/p/CLAUDE.md", "Project", "session_start", "", "", "", "", 0, "", int64(1764763200123456789), uint16(0))
	f.Add("spawn", "<s>&\"\\\n\u2028", "\xff", "", "", "", "/parent", "Explore", "a1", ViaToolUse, 1234, "gauge", int64(0), uint16(0xffff))
	f.Fuzz(func(t *testing.T, ev, session, cwd, path, memoryType, loadReason, parent, agentType, agentID, via string, tokens int, priced string, ns int64, offset uint16) {
		zone := time.FixedZone("z", int(offset)*60-12*3600)
		e := SessionEvent{Ev: ev, At: time.Unix(0, ns).In(zone), Session: session, Cwd: cwd, Path: path,
			MemoryType: memoryType, LoadReason: loadReason, Parent: parent, AgentType: agentType, AgentID: agentID,
			Via: via, Tokens: tokens, Priced: priced}
		want, werr := json.Marshal(e)
		got, gerr := e.marshal()
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) && werr == nil {
			t.Fatalf("%+v: marshal %s, %v; json.Marshal %s, %v", e, got, gerr, want, werr)
		}
	})
}
