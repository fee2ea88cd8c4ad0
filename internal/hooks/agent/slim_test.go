package agent

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/jsonfast"
)

// claudeRead is everything decodeClaude reads of a payload, with
// tool_input and tool_response decoded as afterWrite and written decode
// them.
type claudeRead struct {
	In                  claudeInput
	Err                 string
	Input, Spawn, Reply any
	InputErr, ReplyErr  string
}

func readClaude(data []byte, decode func([]byte, any) error) claudeRead {
	var r claudeRead
	if err := decode(data, &r.In); err != nil {
		r.Err = err.Error()
	}
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		SubagentType string `json:"subagent_type"`
	}
	if err := json.Unmarshal(r.In.ToolInput, &ti); err != nil {
		r.InputErr = err.Error()
	}
	var tr struct {
		AgentID string `json:"agentId"`
	}
	if err := json.Unmarshal(r.In.ToolResponse, &tr); err != nil {
		r.ReplyErr = err.Error()
	}
	r.Input, r.Reply = ti, tr
	r.In.ToolInput, r.In.ToolResponse = nil, nil
	return r
}

// slimPayloads are payloads whose members slim could read differently
// from encoding/json: names in other cases, escaped, non-ASCII (ſ and the
// Kelvin sign fold to s and k), repeated; values of the wrong type or null
// after a value; strings with escapes, surrogate pairs, invalid UTF-8;
// nested arrays and objects; numbers; a byte order mark; Cursor's fields.
var slimPayloads = []string{
	`{"session_id":"s1","tool_name":"Write","tool_input":{"file_path":"/a/b.md","content":"x\ny"},"tool_response":{"content":"x","originalFile":null}}`,
	`{"Session_ID":"s2","TOOL_NAME":"Edit","Tool_Input":{"File_Path":"/c.md","old_string":"a","new_string":"b","replace_all":false}}`,
	`{"session\u005fid":"s3","tool_name":"Write","tool_input":{"file\u005fpath":"/d.md"}}`,
	"{\"\u017fession_id\":\"s4\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/e.md\"},\"agent_type\":\"x\",\"stop_hoo\u212a_active\":true}",
	`{"session_id":"s5","session_id":"s6","tool_input":{"file_path":"/f.md"},"tool_input":{"notebook_path":"/g.ipynb"}}`,
	`{"session_id":5,"tool_name":"Write","tool_input":{"file_path":"/h.md"}}`,
	`{"session_id":"s7","tool_name":"Write","tool_input":{"file_path":7,"content":[1,2,{"a":[]}]}}`,
	`{"session_id":"s8","tool_name":"Write","tool_input":"/i.md","tool_response":[{"agentId":"a1"}]}`,
	`{"session_id":"s9","tool_name":"Agent","tool_input":{"subagent_type":"Explore","prompt":"go"},"tool_response":{"agentId":"a2","usage":{"n":-1.5e+3,"m":0,"k":true,"z":null}}}`,
	`  {"session_id":null,"stop_hook_active":true,"last_assistant_message":"d\u00f6ne \"q\" \\ \/"} ` + "\n",
	"\xef\xbb\xbf{\"session_id\":\"s10\",\"cwd\":\"/p\",\"tool_input\":{}}",
	`{"session_id":"s11","stop_hook_active":"yes","tool_input":null,"tool_response":{"agentId":3}}`,
	`{}`,
	`{"conversation_id":"c1","cursor_version":"1.2","session_id":"s13","stop_hook_active":false,"stop_hook_active":null,"cwd":null,"cwd":"/k"}`,
	`{"session_id":"s14","cwd":"/caf\u00e9/\ud83d\ude00","transcript_path":"/t/` + "\xff\xfe" + `.jsonl","memory_type":"caf` + "\xc3\xa9" + `","agent_id":12}`,
	`{"session_id":"s15","tool_name":"Write","stop_hook_active":"true","tool_input":{"file_path":"/l.md"}}`,
	`{"session_id":"s16","load_reason":true,"parent_file_path":["/m"]}`,
	`{"session_id":"s12","tool_name":"Write","tool_input":{"file_path":"/j.md","content":"` + strings.Repeat(`a\"b\\c\n\u00e9 \/`, 200) + `\""}}`,
}

// slimInvalid are not JSON (or not an object): slim must leave each to
// encoding/json, whose error the hook reports.
var slimInvalid = []string{
	``, `[]`, `"s"`, `{`, `{"a":1,}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`,
	`{"a":truex}`, `{"a" 1}`, `{"a":1 "b":2}`, `{a:1}`, "{\"a\":\"x\ty\"}", `{"a":"\x"}`, `{"a":"\u12g4"}`,
	`{"a":"\u12"}`, `{"a":[1,]}`, `{"a":[1 2]}`, `{"a":"x"} x`, `{"a":{"b":1}`, `{"a":"x}`, `{"a":.5}`,
	`{"a":+1}`, `{"a":NaN}`, `{"a":1}}`, "{\"a\":1}\x00", `{"a":[}`, `{"tool_input":{"x":1,}}`,
	`{"a":"` + strings.Repeat(`x\"y`, 100) + "\x01" + `"}`, `{"a":"` + strings.Repeat(`x\\`, 100) + `\"}`,
}

func slimDecode(data []byte, v any) error {
	return unmarshalKept(data, v.(*claudeInput), claudeKept(), readClaudeInput)
}

// checkToolMembers checks the tool readers on the tool_input and
// tool_response of data, whole and slimmed.
func checkToolMembers(t *testing.T, data []byte) {
	t.Helper()
	for _, decode := range []func([]byte, any) error{unmarshal, slimDecode} {
		var in claudeInput
		if decode(data, &in) == nil {
			checkToolReaders(t, in.ToolInput)
			checkToolReaders(t, in.ToolResponse)
		}
	}
}

// checkToolReaders fails unless the readers of tool_input and tool_response
// fill their types from raw as json.Unmarshal does, and say so where it
// does.
func checkToolReaders(t *testing.T, raw []byte) {
	t.Helper()
	checkDecode(t, raw, readClaudeFileInput)
	checkDecode(t, raw, readClaudeAgentInput)
	checkDecode(t, raw, readClaudeAgentResponse)
}

func checkDecode[T any](t *testing.T, raw []byte, read func(*jsonfast.Reader, *T)) {
	t.Helper()
	var fast, oracle T
	ok, err := jsonfast.Decode(raw, &fast, read), json.Unmarshal(raw, &oracle)
	if ok != (err == nil) || !reflect.DeepEqual(fast, oracle) {
		t.Fatalf("%q: read %+v, %v; json.Unmarshal %+v, %v", raw, fast, ok, oracle, err)
	}
	r := jsonfast.NewReader(raw)
	var whole T
	read(r, &whole)
	if r.Done() && (err != nil || !reflect.DeepEqual(whole, oracle)) {
		t.Fatalf("%q: the fast reader read %+v; json.Unmarshal %+v, %v", raw, whole, oracle, err)
	}
}

// Decoding a payload through slim fills every field decodeClaude reads
// exactly as decoding it whole, errors included.
func TestSlimDecodesAsEncodingJSON(t *testing.T) {
	payloads := append([]string(nil), slimPayloads...)
	for _, f := range claudeTestdata(t) {
		payloads = append(payloads, f...)
	}
	for _, p := range payloads {
		whole, slimmed := readClaude([]byte(p), unmarshal), readClaude([]byte(p), slimDecode)
		if !reflect.DeepEqual(whole, slimmed) {
			t.Errorf("payload %.80q:\nwhole %+v\nslim  %+v", p, whole, slimmed)
		}
		checkToolMembers(t, []byte(p))
	}
}

// slim cuts what the hook never reads and refuses what is not JSON.
func TestSlimCutsAndRefuses(t *testing.T) {
	got, ok := slim([]byte(slimPayloads[0]), claudeKept())
	if want := `{"session_id":"s1","tool_name":"Write","tool_input":{"file_path":"/a/b.md"},"tool_response":{}}`; !ok || string(got) != want {
		t.Errorf("slim = %s, %v; want %s", got, ok, want)
	}
	for _, p := range slimInvalid {
		if json.Valid([]byte(p)) && strings.HasPrefix(p, "{") {
			t.Errorf("%q is valid: not a case for this test", p)
		}
		if out, ok := slim([]byte(p), claudeKept()); ok {
			t.Errorf("slim accepted %q as %q", p, out)
		}
	}
	deep := strings.Repeat("[", maxSlimDepth+1) + strings.Repeat("]", maxSlimDepth+1)
	if _, ok := slim([]byte(`{"a":`+deep+`}`), claudeKept()); ok {
		t.Errorf("slim read %d nested arrays, past its limit", maxSlimDepth+1)
	}
}

// claudeKept names every field of claudeInput: a field it missed would be
// cut from every payload and always read empty.
func TestClaudeKeptNamesEveryField(t *testing.T) {
	keep, typ := claudeKept(), reflect.TypeFor[claudeInput]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if _, ok := keep[strings.ToLower(name)]; !ok {
			t.Errorf("claudeKept does not keep %s (%s)", name, typ.Field(i).Name)
		}
	}
}

// FuzzSlim: whatever slim accepts encoding/json accepts, and decodes the
// same way.
func FuzzSlim(f *testing.F) {
	for _, p := range append(append([]string(nil), slimPayloads...), slimInvalid...) {
		f.Add([]byte(p))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, ok := slim(data, claudeKept()); ok && !json.Valid(data) {
			t.Fatalf("slim accepted invalid JSON %q", data)
		}
		whole, slimmed := readClaude(data, unmarshal), readClaude(data, slimDecode)
		if !reflect.DeepEqual(whole, slimmed) {
			t.Fatalf("payload %q:\nwhole %+v\nslim  %+v", data, whole, slimmed)
		}
		checkToolMembers(t, data)
	})
}

// claudeTestdata is the payloads Claude Code sent, one slice per file.
func claudeTestdata(t *testing.T) [][]string {
	files, err := filepath.Glob("testdata/claude-code-*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Claude Code payloads in testdata: %v", err)
	}
	var out [][]string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, MaxInput)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
		out = append(out, lines)
	}
	return out
}
