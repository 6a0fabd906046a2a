package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
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
	var rep verify.Report
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
