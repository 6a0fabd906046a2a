package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShowPrintsEveryCompleteRecordAndNotesATornTail(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":3,"sessionId":"s1","parentSeq":2,"ts":`) // no newline: an interrupted append
	f.Close()
	before, _ := os.ReadFile(log)
	base := []string{"--home", home, "--workdir", "/srv/app", "sessions", "show", "s1"}
	r := runCLI(t, base...)
	if r.code != 0 || strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stdout, "hello [call bash c1]") {
		t.Errorf("code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "torn tail of 45 bytes after record 2") {
		t.Errorf("stderr %q, want one note on the torn tail", r.stderr)
	}
	r = runCLI(t, append(base, "--json")...)
	var recs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &recs); r.code != 0 || err != nil || len(recs) != 2 {
		t.Errorf("show --json: code %d %v %s", r.code, err, r.stdout)
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Error("show changed the log")
	}
}
