package lane

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/jsonfast"
)

// stateFiller fills a State with random values through reflection: every field of every
// type State holds, so a field added to State (or to the gauge types in it) and not to the
// hand-written codec makes TestStateCodecIsEncodingJSON fail. Zero values, nil and empty
// slices and maps, strings encoding/json escapes, times in other zones or years RFC 3339
// cannot hold, and floats it refuses all come up.
type stateFiller struct {
	t   *testing.T
	rng *rand.Rand
}

func (f stateFiller) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(f.time()))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f.rng.IntN(5) > 0 {
				f.fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		f.slice(v)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for n := f.rng.IntN(4); n > 0; n-- {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k)
			f.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(f.string())
	case reflect.Int, reflect.Int64:
		v.SetInt(f.int())
	case reflect.Uint64:
		v.SetUint([]uint64{0, 1, f.rng.Uint64(), math.MaxUint64}[f.rng.IntN(4)])
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat(f.float())
	default:
		f.t.Fatalf("stateFiller: no values for %s", v.Type())
	}
}

// slice leaves v nil, makes it empty or gives it a few filled items.
func (f stateFiller) slice(v reflect.Value) {
	switch f.rng.IntN(4) {
	case 0:
		return
	case 1:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return
	}
	n := 1 + f.rng.IntN(3)
	s := reflect.MakeSlice(v.Type(), n, n)
	for i := 0; i < n; i++ {
		f.fill(s.Index(i))
	}
	v.Set(s)
}

func (f stateFiller) string() string {
	pieces := []string{"", "a", "CLAUDE.md", "/home/x/AGENTS.md", "<", ">", "&", `"`, `\`, "/", "\n", "\r", "\t", "\b", "\f",
		"\x00", "\x1f", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xc3", "\xed\xa0\x80", "日本", "😀", "\ufffd", "LEAN"}
	var b strings.Builder
	for n := f.rng.IntN(5); n > 0; n-- {
		b.WriteString(pieces[f.rng.IntN(len(pieces))])
	}
	return b.String()
}

func (f stateFiller) int() int64 {
	return []int64{0, 1, -1, f.rng.Int64N(100_000), -f.rng.Int64N(1 << 40), math.MaxInt64, math.MinInt64}[f.rng.IntN(7)]
}

func (f stateFiller) float() float64 {
	vals := []float64{0, math.Copysign(0, -1), 1, 2.5, f.rng.Float64() * 1000, -f.rng.Float64(), 1e-7, 1.5e-9, 1e20, 1e21, 1.23e300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, 1.0 / 3}
	if f.rng.IntN(40) == 0 {
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[f.rng.IntN(3)]
	}
	return vals[f.rng.IntN(len(vals))]
}

func (f stateFiller) time() time.Time {
	switch f.rng.IntN(8) {
	case 0:
		return time.Time{}
	case 1:
		return time.Date(10000+f.rng.IntN(5), 1, 1, 0, 0, 0, 0, time.UTC) // json.Marshal refuses it
	case 2:
		return time.Unix(f.rng.Int64N(4e9), f.rng.Int64N(1e9)).In(time.FixedZone("", (f.rng.IntN(48)-24)*1800))
	}
	return time.Unix(f.rng.Int64N(4e9), f.rng.Int64N(1e9)*int64(f.rng.IntN(2))).UTC()
}

// TestStateCodecIsEncodingJSON fills random States and checks that marshalState writes
// exactly json.Marshal's bytes (or fails where it fails), and that the fast reader reads
// those bytes whole, without handing them to encoding/json, into what json.Unmarshal makes
// of them: files written by this version read in every older one, and files the older
// ones wrote (json.Marshal's) read here without reflection.
func TestStateCodecIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 5))
	f := stateFiller{t: t, rng: rng}
	marshalled := 0
	for round := 0; round < 3000; round++ {
		var s State
		f.fill(reflect.ValueOf(&s).Elem())
		want, werr := json.Marshal(s)
		got, gerr := marshalState(&s)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("round %d: json.Marshal error %v, marshalState error %v", round, werr, gerr)
		}
		if werr != nil {
			continue
		}
		marshalled++
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: marshalState wrote\n%s\njson.Marshal\n%s", round, got, want)
		}
		var oracle, fast State
		if err := json.Unmarshal(want, &oracle); err != nil {
			t.Fatalf("round %d: json.Unmarshal of its own output: %v", round, err)
		}
		r := jsonfast.NewReader(want)
		readState(r, &fast)
		if !r.Done() {
			t.Fatalf("round %d: the fast reader did not read all of\n%s", round, want)
		}
		if !reflect.DeepEqual(fast, oracle) {
			t.Fatalf("round %d: read %+v, encoding/json read %+v", round, fast, oracle)
		}
	}
	if marshalled < 1000 {
		t.Fatalf("only %d of 3000 random states could be marshalled", marshalled)
	}
}

// stateInputs are state slots no version of prosewash writes, each of which the fast reader
// must hand to encoding/json (or read exactly as it does).
var stateInputs = map[string]string{
	"whitespace":            `{ "schema": 1, "gen": 2 }`,
	"trailing newline":      "{\"schema\":1}\n",
	"unknown member":        `{"schema":1,"gen":2,"future":{"x":[1,2]}}`,
	"member in upper case":  `{"Schema":1,"GEN":3}`,
	"repeated member":       `{"schema":1,"gen":2,"gen":3}`,
	"repeated pointer":      `{"verdict":{"band":"FULL"},"verdict":{"reason":"r"}}`,
	"surrogate pair":        `{"session":"\ud83d\ude00"}`,
	"lone surrogate":        `{"session":"\ud800"}`,
	"escapes":               `{"session":"\u00e9\/\"\\\b\f\n\r\t\u2028<"}`,
	"invalid UTF-8":         "{\"session\":\"\xff\"}",
	"invalid UTF-8 escaped": "{\"session\":\"\xc3\\n\"}",
	"raw control byte":      "{\"session\":\"a\x01\"}",
	"fraction in an int":    `{"schema":1.0}`,
	"exponent in an int":    `{"sessions":1e3}`,
	"int overflow":          `{"sessions":9223372036854775808}`,
	"negative generation":   `{"gen":-1}`,
	"leading zero":          `{"gen":01}`,
	"float exponent":        `{"verdict":{"break_even_sessions":-1.5E+300}}`,
	"float overflow":        `{"verdict":{"break_even_sessions":1e400}}`,
	"nulls":                 `{"schema":null,"band":null,"verdict":null,"known":null,"cache":{"files":null,"measurement":null},"gauged_at":null}`,
	"empty lists and maps":  `{"known":[{"loads":{}}],"history":[],"cache":{"files":[]}}`,
	"repeated map key":      `{"known":[{"loads":{"a":1,"a":2}}]}`,
	"time in a zone":        `{"updated_at":"2026-12-03T12:00:00.5+01:00"}`,
	"time escaped":          `{"updated_at":"2026-12-03T12:00:00\u005a"}`,
	"time not RFC 3339":     `{"updated_at":"yesterday"}`,
	"string for an int":     `{"schema":"1"}`,
	"torn":                  `{"schema":1,"gen":99,"verdict":{"band":"FU`,
	"trailing garbage":      `{"schema":1}x`,
	"not an object":         `[1]`,
	"empty":                 ``,
}

// TestDecodeStateIsEncodingJSON decodes each input and checks that decodeState says what
// json.Unmarshal says: whether it decodes, and into what.
func TestDecodeStateIsEncodingJSON(t *testing.T) {
	for name, in := range stateInputs {
		t.Run(name, func(t *testing.T) {
			checkDecodeState(t, []byte(in))
		})
	}
}

// checkDecodeState fails unless decodeState(data) is json.Unmarshal(data), and unless the
// fast reader, when it reads data whole, reads what json.Unmarshal does.
func checkDecodeState(t *testing.T, data []byte) {
	t.Helper()
	var oracle, got, fast State
	werr := json.Unmarshal(data, &oracle)
	if ok := decodeState(data, &got); ok != (werr == nil) || ok && !reflect.DeepEqual(got, oracle) {
		t.Fatalf("%q: decodeState = %v, %+v; json.Unmarshal = %v, %+v", data, ok, got, werr, oracle)
	}
	r := jsonfast.NewReader(data)
	readState(r, &fast)
	if r.Done() && (werr != nil || !reflect.DeepEqual(fast, oracle)) {
		t.Fatalf("%q: the fast reader read %+v; json.Unmarshal = %v, %+v", data, fast, werr, oracle)
	}
}

// FuzzDecodeState: whatever a state slot holds, decodeState agrees with json.Unmarshal, and
// the fast reader never accepts what encoding/json reads otherwise.
func FuzzDecodeState(f *testing.F) {
	for _, in := range stateInputs {
		f.Add([]byte(in))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 20; n++ {
		var s State
		stateFiller{rng: rng}.fill(reflect.ValueOf(&s).Elem())
		if b, err := json.Marshal(s); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(checkDecodeState)
}
