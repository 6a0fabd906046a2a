package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
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

func TestListShowsTitleActivitySizeAndTornTail(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":3,"sess`)
	f.Close()
	st, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", "/srv/app", "sessions", "list"}
	r := runCLI(t, append(base, "--json")...)
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); r.code != 0 || err != nil {
		t.Fatalf("list --json: code %d %v %s %s", r.code, err, r.stdout, r.stderr)
	}
	want := []sessionRow{
		{ID: "s1", Title: "hi", Modified: time.Date(2026, 7, 22, 12, 0, 1, 0, time.UTC), Records: 2, Size: st.Size(), Torn: true},
		{ID: "s2", Title: "other", Modified: time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC), Records: 1, Size: 144},
	}
	if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("rows %+v\nwant %+v", rows, want)
	}
	r = runCLI(t, base...)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
		!strings.Contains(lines[1], "s1") || !strings.Contains(lines[1], "(torn tail) hi") || !strings.HasSuffix(lines[2], "144B  other") {
		t.Errorf("list: code %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Listing takes no lock and creates nothing.
	if m, _ := filepath.Glob(filepath.Join(p.SessionsDir, "*.lock")); len(m) != 0 {
		t.Errorf("locks left: %v", m)
	}
}

func TestListUnderTheWrongCodecSaysWhatToPassOnce(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("K1", migKey1)
	migFixture(t, home, work, "lite-agent", migCodec(t, codecXChaCha, "K1", "k1"))
	for _, tt := range []struct {
		name  string
		flags []string
		hint  string
	}{
		{"no codec", []string{"--home", home, "--workdir", work}, "note: 1 session: records are encoded with xchacha20poly1305.v1.k1; pass --codec"},
		{"another codec", []string{"--home", home, "--workdir", work, "--codec", "gzip"}, "note: 1 session: records are encoded with xchacha20poly1305.v1.k1; pass --codec"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append(tt.flags, "sessions", "list")...)
			if r.code != 0 || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, tt.hint) {
				t.Errorf("code %d\nstdout %s\nstderr %q, want one line %q", r.code, r.stdout, r.stderr, tt.hint)
			}
		})
	}
}

func TestVerifyWarnsOfATornTailWithoutFailing(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":3,"sess`)
	f.Close()
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "verify", "--json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); r.code != 0 || err != nil {
		t.Fatalf("verify: code %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if len(rep.Problems) != 0 || len(rep.Warnings) != 1 || rep.Warnings[0].Kind != "torn" || rep.Warnings[0].Record != "3" || rep.Warnings[0].File != log {
		t.Errorf("problems %+v, warnings %+v; want one torn warning", rep.Problems, rep.Warnings)
	}
}
