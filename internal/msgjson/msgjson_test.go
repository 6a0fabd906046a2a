package msgjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The reader must accept exactly what encoding/json accepts and decode
// strings to the same values, and ReadMessage must agree with a plain
// decoder built on encoding/json from the rules model.Message and
// model.Block document (the oracle below).

var jsonCorpus = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `1E+2`, `"x"`, ` {"a" : [1, 2 , {"b":null}] } `,
	`{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
	`"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\x"`, `"\u12"`, "\"a\x01b\"", "\"\xff\xfe\"",
	"\"é\"", `"\/\b\f\n\r\t\"\\"`, `nul`, `tru`, `[1 2]`, `{"a":1 "b":2}`, `"unterminated`, ``, ` `, `{} {}`, "\t[\n]\r",
	`[[[[[[[[[[]]]]]]]]]]`, `{"a":{"b":{"c":[{"d":"e"}]}}}`, `-01`, `1e+`, `[true,false,null]`, "\"\u2028\"",
}

var messageCorpus = []string{
	`{"role":"user","content":"hi"}`,
	`{"content":"hi","role":"user"}`,
	`{"role":"user","content":[]}`,
	`{"role":"assistant","content":[{"type":"text","text":"a"},{"text":"b","type":"text"}]}`,
	`{"role":"assistant","content":[{"type":"tool_call","id":"c","name":"n","input":{"x":[1, 2]}}]}`,
	`{"role":"assistant","content":[{"type":"tool_call","id":"c","name":"n"}]}`,
	`{"role":"assistant","content":[{"type":"tool_call","id":"c","name":"n","input":null}]}`,
	`{"role":"user","content":[{"type":"tool_result","id":"c","content":"x","isError":true}]}`,
	`{"role":"user","content":[{"type":"tool_result","id":"c","content":"x","isError":null}]}`,
	`{"role":"user","content":[{"type":"tool_result","id":"c","content":"x","isError":"true"}]}`,
	`{"role":"assistant","content":[{"type":"native","provider":"p","data":"s"}]}`,
	`{"role":"assistant","content":[{"type":"compaction","content":null}]}`,
	`{"role":"assistant","content":[{"type":"compaction"}]}`,
	`{"role":"assistant","content":[{"type":"compaction","content":"s","content":null}]}`,
	`{"role":"assistant","content":[{"type":"compaction","content":null,"content":"s"}]}`,
	`{"role":"assistant","content":[{"type":"image","source":{"a":1}}]}`,
	`{"role":"assistant","content":[{"source":{"a":1},"type":"image"}]}`,
	`{"role":"assistant","content":[{"type":"image","type":"text","text":"t"}]}`,
	`{"role":"assistant","content":[{"type":"text","type":"image","text":5}]}`,
	`{"role":"assistant","content":[{"type":"text","text":5,"type":"image"}]}`,
	`{"role":"assistant","content":[{"type":"text","type":5}]}`,
	`{"role":"user","role":"system","content":"x"}`,
	`{"role":"user","content":[{"type":"text","text":1}],"content":"x"}`,
	`{"role":"user","content":"x","content":[{"type":"text"}]}`,
	`{"role":"user","content":"x","extra":{"deep":[1,2,3]}}`,
	`{"role":"user","content":"x","extra":{"deep":[1,2,3}}`,
	`{"role":"user"}`, `{"content":"x"}`, `{"role":null,"content":"x"}`, `{"role":"user","content":null}`,
	`null`, `[]`, `"x"`, `{"role":"user","content":[null]}`, `{"role":"user","content":[[]]}`,
	`{"role":"\u0075ser","cont\u0065nt":"\ud83d\ude00 \xff"}`,
	`{"role":"user","content":[{"type":"text","te\u0078t":"escaped key"}]}`,
	`{"ROLE":"user","content":"x"}`,
	` {"role":"user","content":"x"} `,
	`{"role":"user","content":"x"}x`,
}

func TestReaderAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	for _, in := range jsonCorpus {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid = %v", in, got, want)
		}
	}
}

func TestReaderDecodesStringsLikeEncodingJSON(t *testing.T) {
	for _, in := range jsonCorpus {
		var want string
		if !strings.HasPrefix(strings.TrimSpace(in), `"`) || json.Unmarshal([]byte(in), &want) != nil {
			continue
		}
		r := NewReader([]byte(in))
		got := r.Str()
		if err := r.End(); err != nil || got != want {
			t.Errorf("Str(%q) = %q, %v; encoding/json: %q", in, got, err, want)
		}
	}
}

func TestIntegerReadsWholeNumbersAsJavaScriptDoes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"3", 3, true}, {"-3", -3, true}, {"3.0", 3, true}, {"3e0", 3, true}, {"30e-1", 3, true},
		{"3.5", 0, false}, {"9007199254740992", 1 << 53, true}, {"9007199254740994", 0, false},
		{"123456789012345", 123456789012345, true},
	}
	for _, tt := range tests {
		r := NewReader([]byte(tt.in))
		got, ok := r.Integer()
		if r.End() != nil || got != tt.want || ok != tt.ok {
			t.Errorf("Integer(%s) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestResetKeepsScratch(t *testing.T) {
	r := NewReader([]byte(`"a\nb"`))
	if got := r.Str(); got != "a\nb" || r.End() != nil {
		t.Fatalf("Str = %q, %v", got, r.Err)
	}
	scratch := r.Scratch
	r.Reset([]byte(`"c"`))
	if r.Pos != 0 || r.Err != nil || cap(r.Scratch) != cap(scratch) || len(r.Scratch) != 0 {
		t.Fatalf("Reset left %+v", r)
	}
	if got := r.Str(); got != "c" {
		t.Fatalf("Str after Reset = %q", got)
	}
}

// The oracle's types have the shapes of model.Message and model.Block.
type (
	testRole  string
	testType  string
	testBlock BlockFields[testType]
	testMsg   MessageFields[testRole, testBlock]
)

func readBoth(data []byte) (mine, theirs testMsg, mineErr, theirsErr error) {
	r := NewReader(data)
	mine = ReadMessage[testRole, testType, testBlock, testMsg](r)
	mineErr = r.End()
	theirs, theirsErr = oracleMessage(data)
	return
}

func TestReadMessageAgreesWithTheOracle(t *testing.T) {
	for _, in := range messageCorpus {
		mine, theirs, mineErr, theirsErr := readBoth([]byte(in))
		if (mineErr == nil) != (theirsErr == nil) {
			t.Errorf("%s: reader error %v, oracle error %v", in, mineErr, theirsErr)
			continue
		}
		if mineErr == nil && !reflect.DeepEqual(mine, theirs) {
			t.Errorf("%s:\nreader %#v\noracle %#v", in, mine, theirs)
		}
	}
}

func TestShapeErrorsNameTheMember(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[]`, "message must be a JSON object"},
		{`{"role":1,"content":"x"}`, "message role must be a string"},
		{`{"role":"user"}`, "message content must be a string or an array"},
		{`{"role":"user","content":[1]}`, "block must be a JSON object"},
		{`{"role":"user","content":[{"text":"x"}]}`, "block type must be a string"},
		{`{"role":"user","content":[{"type":"text","text":1}]}`, `text block "text" must be a string`},
		{`{"role":"user","content":[{"type":"tool_result","isError":"x"}]}`, `tool_result block "isError" must be a boolean`},
		{`{"role":"user","content":"x"`, "invalid JSON"},
	}
	for _, tt := range tests {
		r := NewReader([]byte(tt.in))
		ReadMessage[testRole, testType, testBlock, testMsg](r)
		if err := r.End(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestLossyMarksWhatTheValueDoesNotHold(t *testing.T) {
	tests := []struct {
		in    string
		lossy bool
	}{
		{`{"role":"user","content":"x"}`, false},
		{`{"role":"user","content":"x","extra":1}`, true},
		{`{"role":"user","content":[{"type":"text","text":"x","id":"i"}]}`, true},
		{`{"role":"user","content":[{"type":"image","source":{"a":1}}]}`, false},
		{`{"role":"user","content":"\ud800"}`, true},
	}
	for _, tt := range tests {
		r := NewReader([]byte(tt.in))
		ReadMessage[testRole, testType, testBlock, testMsg](r)
		if r.End() != nil || r.Lossy != tt.lossy {
			t.Errorf("%s: err %v, lossy %v, want %v", tt.in, r.Err, r.Lossy, tt.lossy)
		}
	}
}

func FuzzReaderMatchesEncodingJSON(f *testing.F) {
	for _, in := range jsonCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid = %v", data, got, want)
		}
		var want string
		if strings.HasPrefix(strings.TrimLeft(string(data), " \t\r\n"), `"`) && json.Unmarshal(data, &want) == nil {
			r := NewReader(data)
			if got := r.Str(); r.End() != nil || got != want {
				t.Fatalf("Str(%q) = %q, encoding/json %q", data, got, want)
			}
		}
	})
}

func FuzzReadMessageMatchesTheOracle(f *testing.F) {
	for _, in := range messageCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Count(string(data), "[")+strings.Count(string(data), "{") > 1000 {
			return // nesting limits differ slightly between the two decoders
		}
		mine, theirs, mineErr, theirsErr := readBoth(data)
		if (mineErr == nil) != (theirsErr == nil) {
			t.Fatalf("%q: reader error %v, oracle error %v", data, mineErr, theirsErr)
		}
		if mineErr == nil && !reflect.DeepEqual(mine, theirs) {
			t.Fatalf("%q:\nreader %#v\noracle %#v", data, mine, theirs)
		}
	})
}

// The oracle: the documented rules written plainly on encoding/json, two
// passes and all.

type member struct {
	key string
	val json.RawMessage
}

// members returns the members of the JSON object data in order, duplicates
// included. It fails if data is not exactly one JSON object.
func members(data []byte) ([]member, error) {
	if !json.Valid(data) {
		return nil, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		out = append(out, member{key: tok.(string), val: val})
	}
	return out, nil
}

func isString(v json.RawMessage) bool { return len(v) > 0 && v[0] == '"' }
func isArray(v json.RawMessage) bool  { return len(v) > 0 && v[0] == '[' }
func isNull(v json.RawMessage) bool   { return string(v) == "null" }

func oracleMessage(data []byte) (testMsg, error) {
	mems, err := members(data)
	if err != nil {
		return testMsg{}, ErrMessage
	}
	var out testMsg
	var hasRole, hasContent bool
	for _, mem := range mems {
		switch mem.key {
		case "role":
			if !isString(mem.val) || json.Unmarshal(mem.val, &out.Role) != nil {
				return testMsg{}, ErrRole
			}
			hasRole = true
		case "content":
			out.Text, out.Blocks = "", nil
			switch {
			case isString(mem.val):
				if err := json.Unmarshal(mem.val, &out.Text); err != nil {
					return testMsg{}, ErrContent
				}
			case isArray(mem.val):
				var raw []json.RawMessage
				if err := json.Unmarshal(mem.val, &raw); err != nil {
					return testMsg{}, ErrContent
				}
				out.Blocks = make([]testBlock, len(raw))
				for i, r := range raw {
					if out.Blocks[i], err = oracleBlock(r); err != nil {
						return testMsg{}, err
					}
				}
			default:
				return testMsg{}, ErrContent
			}
			hasContent = true
		}
	}
	if !hasRole {
		return testMsg{}, ErrRole
	}
	if !hasContent {
		return testMsg{}, ErrContent
	}
	return out, nil
}

func oracleBlock(data []byte) (testBlock, error) {
	mems, err := members(data)
	if err != nil {
		return testBlock{}, ErrBlockObject
	}
	var typ string
	hasType := false
	for _, mem := range mems {
		if mem.key == "type" {
			if !isString(mem.val) || json.Unmarshal(mem.val, &typ) != nil {
				return testBlock{}, ErrBlockType
			}
			hasType = true
		}
	}
	if !hasType {
		return testBlock{}, ErrBlockType
	}
	out := testBlock{Type: testType(typ)}
	switch typ {
	case "text", "tool_call", "tool_result", "native", "compaction":
	default:
		out.Raw = append(json.RawMessage(nil), bytes.TrimSpace(data)...)
		return out, nil
	}
	out.NullContent = typ == "compaction"
	for _, mem := range mems {
		var dst *string
		switch {
		case mem.key == "text" && typ == "text":
			dst = &out.Text
		case mem.key == "content" && typ == "tool_result":
			dst = &out.Content
		case mem.key == "id" && (typ == "tool_call" || typ == "tool_result"):
			dst = &out.ID
		case mem.key == "name" && typ == "tool_call":
			dst = &out.Name
		case mem.key == "provider" && typ == "native":
			dst = &out.Provider
		case mem.key == "input" && typ == "tool_call":
			out.Input = append(json.RawMessage(nil), mem.val...)
		case mem.key == "data" && typ == "native":
			out.Data = append(json.RawMessage(nil), mem.val...)
		case mem.key == "isError" && typ == "tool_result":
			out.IsError = false
			if !isNull(mem.val) && json.Unmarshal(mem.val, &out.IsError) != nil {
				return testBlock{}, errors.New("isError")
			}
		case mem.key == "content" && typ == "compaction":
			out.Content, out.NullContent = "", isNull(mem.val)
			if !out.NullContent {
				dst = &out.Content
			}
		}
		if dst == nil {
			continue
		}
		*dst = ""
		if isNull(mem.val) {
			continue
		}
		if !isString(mem.val) || json.Unmarshal(mem.val, dst) != nil {
			return testBlock{}, fmt.Errorf("%s block %q must be a string", typ, mem.key)
		}
	}
	return out, nil
}
