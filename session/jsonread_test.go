package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// The reader must accept exactly what encoding/json accepts and decode
// strings to the same values, and readMessage must agree with
// model.Message.UnmarshalJSON, because the log is read with the reader
// while the types' UnmarshalJSON methods serve everyone else.

var jsonCorpus = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `1E+2`, `"x"`, ` {"a" : [1, 2 , {"b":null}] } `,
	`{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
	`"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\x"`, `"\u12"`, "\"a\x01b\"", "\"\xff\xfe\"",
	"\"é\"", `"\/\b\f\n\r\t\"\\"`, `nul`, `tru`, `[1 2]`, `{"a":1 "b":2}`, `"unterminated`, ``, ` `, `{} {}`, "\t[\n]\r",
	`[[[[[[[[[[]]]]]]]]]]`, `{"a":{"b":{"c":[{"d":"e"}]}}}`, `-01`, `1e+`, `[true,false,null]`, "\"\u2028\"",
}

func TestReaderAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	for _, in := range jsonCorpus {
		if got, want := validJSON([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("validJSON(%q) = %v, json.Valid = %v", in, got, want)
		}
	}
}

func TestReaderDecodesStringsLikeEncodingJSON(t *testing.T) {
	for _, in := range jsonCorpus {
		var want string
		if !strings.HasPrefix(strings.TrimSpace(in), `"`) || json.Unmarshal([]byte(in), &want) != nil {
			continue
		}
		r := newReader([]byte(in))
		got := r.str()
		if err := r.end(); err != nil || got != want {
			t.Errorf("str(%q) = %q, %v; encoding/json: %q", in, got, err, want)
		}
	}
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

func decodeBoth(data []byte) (mine, theirs model.Message, mineErr, theirsErr error) {
	r := newReader(data)
	mine = readMessage(r)
	mineErr = r.end()
	theirsErr = json.Unmarshal(data, &theirs)
	return
}

func TestReadMessageAgreesWithModel(t *testing.T) {
	for _, in := range messageCorpus {
		mine, theirs, mineErr, theirsErr := decodeBoth([]byte(in))
		if (mineErr == nil) != (theirsErr == nil) {
			t.Errorf("%s: reader error %v, model error %v", in, mineErr, theirsErr)
			continue
		}
		if mineErr == nil && !reflect.DeepEqual(mine, theirs) {
			t.Errorf("%s:\nreader %#v\n model %#v", in, mine, theirs)
		}
	}
}

func FuzzReaderMatchesEncodingJSON(f *testing.F) {
	for _, in := range jsonCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", data, got, want)
		}
		var want string
		if strings.HasPrefix(strings.TrimLeft(string(data), " \t\r\n"), `"`) && json.Unmarshal(data, &want) == nil {
			r := newReader(data)
			if got := r.str(); r.end() != nil || got != want {
				t.Fatalf("str(%q) = %q, encoding/json %q", data, got, want)
			}
		}
	})
}

func FuzzReadMessageMatchesModel(f *testing.F) {
	for _, in := range messageCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Count(string(data), "[")+strings.Count(string(data), "{") > 1000 {
			return // nesting limits differ slightly between the two decoders
		}
		mine, theirs, mineErr, theirsErr := decodeBoth(data)
		if (mineErr == nil) != (theirsErr == nil) {
			t.Fatalf("%q: reader error %v, model error %v", data, mineErr, theirsErr)
		}
		if mineErr == nil && !reflect.DeepEqual(mine, theirs) {
			t.Fatalf("%q:\nreader %#v\n model %#v", data, mine, theirs)
		}
	})
}
