package task

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// awkwardTask has every optional field set and strings that JSON encoders
// disagree about.
func awkwardTask() Task {
	return Task{
		ID:          "12",
		Subject:     "Fix <html> & \"quotes\" \u2028 line\u2029para",
		Description: "tab\there\nnewline \\ backslash \b\f\r \x01\x1f \x7f é 😀 \\u2028",
		ActiveForm:  "Fixing",
		Status:      Review,
		Owner:       "agent-7",
		BlockedBy:   []string{"3", "10"},
		Blocks:      []string{},
		Metadata: map[string]any{
			"count": float64(3), "ratio": 0.1, "big": 1e21, "small": 1e-7, "neg": -0.5,
			"flag": true, "none": nil, "list": []any{"x", float64(2), map[string]any{}},
			"nested": map[string]any{"b": "2", "a": []any{}},
		},
		Execution: &Execution{AgentID: "worker-1", Status: ExecSucceeded, Result: "ok <done>"},
		CreatedAt: 1750000000000,
		UpdatedAt: 1750000000123,
	}
}

func TestRecordFormatIsPinned(t *testing.T) {
	for name, tk := range map[string]Task{
		"record-minimal.json": {ID: "1", Subject: "a", Status: Pending, CreatedAt: 1, UpdatedAt: 2},
		"record-full.json":    awkwardTask(),
	} {
		b, err := Marshal(tk)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, b)
		if bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("%s ends with a newline", name)
		}
	}
}

func TestRecordMatchesJSONStringify(t *testing.T) {
	tooltest.Need(t, tooltest.NodeJS, "node") // the golden files pin the same bytes without it
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range []Task{awkwardTask(), {ID: "1", Subject: "a", Status: Pending, BlockedBy: nil, Blocks: nil}} {
		ours, err := Marshal(tk)
		if err != nil {
			t.Fatal(err)
		}
		// Parse our bytes in JavaScript and stringify them the reference's
		// way; the result must be the bytes we wrote. Metadata keys are
		// sorted first, as we write them.
		script := `const fs=require('fs');const t=JSON.parse(fs.readFileSync(0,'utf8'));` +
			`const sort=v=>Array.isArray(v)?v.map(sort):(v&&typeof v==='object')?Object.fromEntries(Object.keys(v).sort().map(k=>[k,sort(v[k])])):v;` +
			`if(t.metadata)t.metadata=sort(t.metadata);process.stdout.write(JSON.stringify(t,null,2));`
		cmd := exec.Command(node, "-e", script)
		cmd.Stdin = bytes.NewReader(ours)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		if !bytes.Equal(out, ours) {
			t.Errorf("JSON.stringify differs:\nnode: %q\ngo:   %q", out, ours)
		}
	}
}

func TestRecordRoundTrips(t *testing.T) {
	want := awkwardTask()
	b, err := Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRecord("12", b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\ngot  %+v\nwant %+v", got, want)
	}
}

func TestMarshalLeavesLineSeparatorsRawButKeepsEscapedBackslashes(t *testing.T) {
	b, err := Marshal(Task{ID: "1", Subject: "a\u2028b\\u2029c", Status: Pending})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("\"a\u2028b\\\\u2029c\"")) {
		t.Fatalf("subject encoded as %s", b)
	}
}

func TestFileNamesReplaceUnsafeCharacters(t *testing.T) {
	for id, want := range map[string]string{
		"12":        "12",
		"a-b_C9":    "a-b_C9",
		"../secret": "___secret",
		"a/b\\c":    "a_b_c",
		"é":         "_",
		"😀x":        "__x",
		"\xff\xfe":  "__",
		"":          "",
		"a.json":    "a_json",
		"..":        "__",
		"1.5":       "1_5",
	} {
		if got := fileStem(id); got != want {
			t.Errorf("fileStem(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestCorruptRecordsAreRecognised(t *testing.T) {
	valid := `{"id":"1","subject":"s","description":"d","status":"pending","blockedBy":[],"blocks":[],"createdAt":1,"updatedAt":2}`
	with := func(old, new string) string { return strings.Replace(valid, old, new, 1) }
	cases := map[string]struct {
		data string
		want corruption
	}{
		"empty file":                {"", errNotObject},
		"truncated":                 {valid[:len(valid)/2], errNotObject},
		"array":                     {"[1,2]", errNotObject},
		"null":                      {"null", errNotObject},
		"string":                    {`"x"`, errNotObject},
		"trailing garbage":          {valid + "x", errNotObject},
		"id of another file":        {with(`"id":"1"`, `"id":"2"`), errIDMismatch},
		"numeric id":                {with(`"id":"1"`, `"id":1`), errBadID},
		"missing id":                {with(`"id":"1",`, ``), errBadID},
		"id key in other case":      {with(`"id":"1"`, `"ID":"1"`), errBadID},
		"subject not string":        {with(`"subject":"s"`, `"subject":["s"]`), errBadSubject},
		"subject missing":           {with(`"subject":"s",`, ``), errBadSubject},
		"unknown status":            {with(`"pending"`, `"done"`), errBadStatus},
		"status null":               {with(`"pending"`, `null`), errBadStatus},
		"blockedBy missing":         {with(`"blockedBy":[],`, ``), errBadEdges},
		"blocks object":             {with(`"blocks":[]`, `"blocks":{}`), errBadEdges},
		"blockedBy numbers":         {with(`"blockedBy":[]`, `"blockedBy":[1]`), errBadEdges},
		"blockedBy null item":       {with(`"blockedBy":[]`, `"blockedBy":[null]`), errBadEdges},
		"description number":        {with(`"description":"d"`, `"description":5`), errBadText},
		"metadata array":            {with(`"blocks":[]`, `"blocks":[],"metadata":[]`), errBadMetadata},
		"execution string":          {with(`"blocks":[]`, `"blocks":[],"execution":"x"`), errBadExecution},
		"execution unknown status":  {with(`"blocks":[]`, `"blocks":[],"execution":{"agentId":"a","status":"paused"}`), errBadExecution},
		"execution without agent":   {with(`"blocks":[]`, `"blocks":[],"execution":{"status":"running"}`), errBadExecution},
		"fractional timestamp":      {with(`"createdAt":1`, `"createdAt":1.5`), errBadTimestamp},
		"string timestamp":          {with(`"createdAt":1`, `"createdAt":"1"`), errBadTimestamp},
		"timestamp beyond 2^53":     {with(`"createdAt":1`, `"createdAt":18014398509481984`), errBadTimestamp},
		"enveloped record as plain": {`{"liteAgentStorage":1,"codec":"x","payload":""}`, errBadID},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := decodeRecord("1", []byte(c.data))
			if !errors.Is(err, c.want) {
				t.Fatalf("decodeRecord = %v, want %v", err, c.want)
			}
		})
	}
	if _, err := decodeRecord("1", []byte(valid)); err != nil {
		t.Fatalf("valid record refused: %v", err)
	}
	// Unknown keys and absent optional fields are fine.
	if _, err := decodeRecord("1", []byte(with(`"blocks":[]`, `"blocks":[],"future":{"x":1},"owner":null`))); err != nil {
		t.Fatalf("record with unknown key refused: %v", err)
	}
}

func TestDecodedRecordsHaveNonNilEdges(t *testing.T) {
	tk, err := decodeRecord("3", []byte(`{"id":"3","subject":"","status":"failed","blockedBy":[],"blocks":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if tk.BlockedBy == nil || tk.Blocks == nil {
		t.Fatalf("nil edges: %+v", tk)
	}
	b, _ := json.Marshal(tk)
	if !bytes.Contains(b, []byte(`"blockedBy":[]`)) {
		t.Fatalf("json.Marshal writes %s", b)
	}
}

// FuzzDecodeTask checks that decoding never panics, that whatever decodes
// satisfies the record invariants, and that a decoded task encodes to a
// record that decodes to the same task and encodes to the same bytes.
func FuzzDecodeTask(f *testing.F) {
	for _, tk := range []Task{awkwardTask(), {ID: "12", Subject: "", Status: Pending}} {
		b, err := Marshal(tk)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	seeds, _ := filepath.Glob(filepath.Join("testdata", "record-*.json"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(bytes.ReplaceAll(b, []byte(`"id": "1"`), []byte(`"id": "12"`)))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tk, err := decodeRecord("12", data)
		if err != nil {
			var c corruption
			if !errors.As(err, &c) {
				t.Fatalf("error %v is not a corruption", err)
			}
			return
		}
		if tk.ID != "12" || !tk.Status.Valid() || tk.BlockedBy == nil || tk.Blocks == nil {
			t.Fatalf("decoded task breaks an invariant: %+v", tk)
		}
		if tk.Execution != nil && !tk.Execution.Status.Valid() {
			t.Fatalf("decoded execution breaks an invariant: %+v", tk.Execution)
		}
		enc, err := Marshal(tk)
		if err != nil {
			t.Fatalf("Marshal of decoded task: %v", err)
		}
		again, err := decodeRecord("12", enc)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(again, tk) {
			t.Fatalf("round trip changed the task:\n%+v\n%+v", tk, again)
		}
		enc2, err := Marshal(again)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, enc, enc2)
		}
	})
}

func TestIDsSortNumericallyThenByText(t *testing.T) {
	ts := []Task{{ID: "b"}, {ID: "10"}, {ID: "a"}, {ID: "9"}, {ID: "010"}, {ID: "99999999999999999999"}, {ID: "1"}}
	sortTasks(ts)
	var got []string
	for _, tk := range ts {
		got = append(got, tk.ID)
	}
	want := []string{"1", "9", "010", "10", "99999999999999999999", "a", "b"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestInputErrorNamesTaskAndField(t *testing.T) {
	err := error(&InputError{ID: "3", Field: "status", Err: errors.New(`unknown status "x"`)})
	if err.Error() != `task '3': invalid status: unknown status "x"` {
		t.Fatalf("got %q", err)
	}
	if (&InputError{Field: "metadata", Err: errors.New("bad")}).Error() != "invalid task metadata: bad" {
		t.Fatal("create-time input error text")
	}
}
