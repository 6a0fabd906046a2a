package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeKeepsKeyOrderAndJSONTypes(t *testing.T) {
	v, err := Decode([]byte(`{"b": [1, "s", true, null], "a": {}}`), 4)
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := v.(*Object)
	if !ok {
		t.Fatalf("top = %T, want *Object", v)
	}
	if !reflect.DeepEqual(obj.Keys, []string{"b", "a"}) {
		t.Errorf("keys = %q, want [b a]", obj.Keys)
	}
	want := []any{json.Number("1"), "s", true, nil}
	if !reflect.DeepEqual(obj.Vals["b"], want) {
		t.Errorf("b = %#v, want %#v", obj.Vals["b"], want)
	}
	if inner, ok := obj.Vals["a"].(*Object); !ok || len(inner.Keys) != 0 {
		t.Errorf("a = %#v, want an empty object", obj.Vals["a"])
	}
}

func TestDecodeRefusesWhatIsNotOneStrictValue(t *testing.T) {
	tests := []struct {
		name, in string
		want     Error
	}{
		{"invalid UTF-8", "\"\xff\"", Error{Reason: InvalidUTF8, Offset: 1}},
		{"duplicate key at depth", `{"a": {"k": 1, "k": 2}}`, Error{Reason: DuplicateKey, Key: "k", Offset: 13, Path: "a"}},
		{"nesting too deep", `[[[1]]]`, Error{Reason: TooDeep, Offset: 3, MaxDepth: 2, Path: "[0][0]"}},
		{"trailing data", `{} x`, Error{Reason: TrailingData, Offset: 3}},
		{"end inside a value", `{"a": `, Error{Reason: UnexpectedEOF, Offset: 5, Path: "a"}},
		{"empty document", " \n", Error{Reason: Empty}},
		{"syntax error with offset", `{"a": [1 2]}`, Error{Reason: Syntax, Offset: 9, OffsetKnown: true, Path: "a[1]"}},
		{"path through odd keys", `{"a b": [0, {"c": {"d": 1, "d": 2}}]}`, Error{Reason: DuplicateKey, Key: "d", Offset: 25, Path: `["a b"][1].c`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			maxDepth := 4
			if tt.want.Reason == TooDeep {
				maxDepth = tt.want.MaxDepth
			}
			_, err := Decode([]byte(tt.in), maxDepth)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if *e != tt.want {
				t.Errorf("err = %+v, want %+v", *e, tt.want)
			}
		})
	}
}

func TestErrorMessagesHaveOneForm(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\"a\": \"\xff\"}", "not valid UTF-8 (at byte 7)"},
		{``, "the document is empty"},
		{`{"a": [1 2]}`, "a[1]: invalid JSON (at byte 9)"},
		{`{"a": [`, "a: invalid JSON: unexpected end of input"},
		{`{"a": {"b": 1, "b": 2}}`, `a: duplicate key "b" (at byte 13)`},
		{`{"a": [[[]]]}`, "a[0][0]: nesting deeper than 3 levels (at byte 9)"},
		{`{} []`, "unexpected data after the top-level value (at byte 4)"},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.in), 3)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestPlainTurnsObjectsIntoMaps(t *testing.T) {
	v, err := Decode([]byte(`{"a": [1, {"b": null}], "c": "s"}`), 8)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{json.Number("1"), map[string]any{"b": nil}}, "c": "s"}
	if got := Plain(v); !reflect.DeepEqual(got, want) {
		t.Errorf("Plain = %#v, want %#v", got, want)
	}
}

func TestErrorsNeverQuoteValues(t *testing.T) {
	const secret = "hunter2-secret"
	for _, in := range []string{
		`{"k": "` + secret + `" "x"}`,
		`{"k": ` + secret + `}`,
		`{"k": "` + secret + `"} ` + secret,
		`["` + secret + `"`,
	} {
		_, err := Decode([]byte(in), 4)
		if err == nil {
			t.Fatalf("Decode(%q) succeeded", in)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Decode(%q) = %q quotes the value", in, err)
		}
	}
}

func TestQuoteKeyCutsLongKeysAtARuneBoundary(t *testing.T) {
	if got := QuoteKey("a\"b"); got != `"a\"b"` {
		t.Errorf("QuoteKey = %s", got)
	}
	long := strings.Repeat("x", MaxKeyEcho-1) + "é" + "tail"
	if got, want := QuoteKey(long), `"`+strings.Repeat("x", MaxKeyEcho-1)+`"…`; got != want {
		t.Errorf("QuoteKey(long) = %s, want %s", got, want)
	}
	exact := strings.Repeat("y", MaxKeyEcho)
	if got := QuoteKey(exact); got != `"`+exact+`"` {
		t.Errorf("QuoteKey(exact) = %s", got)
	}
}

func TestTypeNameNamesEachDecodedType(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "a boolean"}, {json.Number("1"), "a number"}, {"s", "a string"},
		{[]any{}, "an array"}, {&Object{}, "an object"}, {42, "an unknown value"},
	}
	for _, tt := range tests {
		if got := TypeName(tt.v); got != tt.want {
			t.Errorf("TypeName(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": null}]}`))
	f.Add([]byte(`{"a": 1, "a": 2}`))
	f.Add([]byte(`[[[[[[]]]]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, 4)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not *Error", err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Decode accepted invalid JSON %q as %#v", data, v)
		}
	})
}
