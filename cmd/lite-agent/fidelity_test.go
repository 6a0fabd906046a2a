package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
)

func TestSessionsShowJSONPrintsUnknownMembersBack(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	event := `{"type":"user","message":{"role":"user","content":"half \ud800 pair","name":"ana"},"mood":"calm"}`
	line := `{"seq":1,"sessionId":"s3","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":` + event + "}\n"
	if err := os.WriteFile(filepath.Join(p.SessionsDir, "s3.jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "show", "--json", "s3")
	if r.code != 0 {
		t.Fatalf("show: %d %s", r.code, r.stderr)
	}
	var recs []struct {
		Event json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 1 {
		t.Fatalf("output %s: %v", r.stdout, err)
	}
	want := map[string]any{}
	got := map[string]any{}
	json.Unmarshal([]byte(event), &want)
	json.Unmarshal(recs[0].Event, &got)
	if got["mood"] != "calm" || got["message"].(map[string]any)["name"] != "ana" {
		t.Errorf("printed event %s, want the stored one %s", recs[0].Event, event)
	}
	if !json.Valid(recs[0].Event) || !strings.Contains(string(recs[0].Event), `half \ud800 pair`) {
		t.Errorf("the lone surrogate was not printed back: %s", recs[0].Event)
	}
}

func TestVerifyReportsInvalidUTF8InPlaintextRecords(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s2.jsonl")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(strings.Replace(string(b), "other", "oth\xffer", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(p.TasksDir, "shared", "1.json")
	if b, err = os.ReadFile(task); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(task, []byte(strings.Replace(string(b), "Shared", "Sh\xc3red", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", "/srv/app"}
	// Reads stay lenient.
	if r := runCLI(t, append(base, "sessions", "show", "s2")...); r.code != 0 {
		t.Errorf("show: %d %s", r.code, r.stderr)
	}
	r := runCLI(t, append(base, "verify", "--json")...)
	if r.code != 1 {
		t.Fatalf("verify: exit %d, stderr %s", r.code, r.stderr)
	}
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pr := range rep.Problems {
		got = append(got, pr.Kind+" "+filepath.Base(pr.File)+"#"+pr.Record)
	}
	want := []string{"utf8 s2.jsonl#1", "utf8 1.json#1"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("problems %v, want %v", got, want)
	}
}
