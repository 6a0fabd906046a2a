package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWrongCodecIsOneLinePerKind: verify of a home read under the wrong
// codec configuration says what to pass, once per kind of record, with
// counts, instead of a line per record; --json keeps the detail.
func TestWrongCodecIsOneLinePerKind(t *testing.T) {
	isolateEnv(t)
	home, _ := referenceHome(t)
	base := []string{"--home", home, "--workdir", "/srv/app", "--codec", "gzip"}

	r := runCLI(t, append(base, "verify")...)
	if r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := map[string]string{
		"checkpoint: 3 records in 2 files are plaintext; run without --codec": "",
		"task: 2 records in 2 files are plaintext; run without --codec":       "",
	}
	for _, l := range lines {
		for w := range want {
			if strings.HasPrefix(l, w) {
				want[w] = l
			}
		}
		if strings.Contains(l, "mismatch") {
			t.Errorf("a per-record line was printed: %q", l)
		}
	}
	for w, got := range want {
		if got == "" {
			t.Errorf("no line %q in:\n%s", w, r.stdout)
		}
	}

	r = runCLI(t, append(base, "verify", "--json")...)
	var rep verifyReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.ProblemCount != len(rep.Problems) || len(rep.Mismatches) < 2 {
		t.Errorf("report %+v", rep)
	}
	for _, pr := range rep.Problems {
		if pr.Kind == "decode" && pr.Found != "plaintext" {
			t.Errorf("problem %+v lacks found", pr)
		}
	}

	// Every other reader says the same in its one error line.
	r = runCLI(t, append(base, "sessions", "show", "s1")...)
	if r.code != 1 || !strings.Contains(r.stderr, "checkpoint: records are plaintext; run without --codec") {
		t.Errorf("sessions show: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestMismatchHint(t *testing.T) {
	tests := []struct {
		found          string
		records, files int
		want           string
	}{
		{"gzip-v1", 0, 0, "records are encoded with gzip-v1; pass --codec and the key (--key-env or --key-file)"},
		{"xchacha20poly1305.v1.k1", 12, 3, "12 records in 3 files are encoded with xchacha20poly1305.v1.k1; pass --codec and the key (--key-env or --key-file)"},
		{"plaintext", 0, 0, "records are plaintext; run without --codec, or migrate them (lite-agent migrate)"},
		{"gzip-v1", 1, 1, "1 record in 1 file is encoded with gzip-v1; pass --codec and the key (--key-env or --key-file)"},
		{"plaintext", 3, 1, "3 records in 1 file are plaintext; run without --codec, or migrate them (lite-agent migrate)"},
	}
	for _, tt := range tests {
		if got := mismatchHint(tt.found, tt.records, tt.files); got != tt.want {
			t.Errorf("mismatchHint(%q, %d, %d) = %q, want %q", tt.found, tt.records, tt.files, got, tt.want)
		}
	}
}
