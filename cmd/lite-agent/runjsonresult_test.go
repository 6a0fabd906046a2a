package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run -o json and -o stream-json end with one result object on standard
// output whatever happens once the command line is accepted: a failure
// before the agent starts (it printed nothing) and one during the prompt
// (its stopReason was "") have stopReason "error" and the error; a
// usage error prints nothing there, its line is on stderr, exit 2.
func TestRunJSONEndsWithOneResultOnEveryFailure(t *testing.T) {
	isolateEnv(t)
	work := t.TempDir()
	fileHome := filepath.Join(t.TempDir(), "home")
	if err := os.WriteFile(fileHome, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "stream-json"} {
		for _, c := range []struct {
			name       string
			replies    []string
			args       []string
			code       int
			stopReason string
			err        string
		}{
			{"success", []string{textReply("hi")}, nil, exitOK, "stop", ""},
			{"unknown session to resume", nil, []string{"--resume", "nope"}, exitFailure, "error", "no session nope"},
			{"home that is a file", nil, []string{"--home", fileHome}, exitFailure, "error", "is not a directory"},
			{"request refused", nil, nil, exitFailure, "error", "no reply"},
		} {
			t.Run(format+"/"+c.name, func(t *testing.T) {
				fakeAPI(t, c.replies...)
				args := append([]string{"--home", t.TempDir(), "--workdir", work, "run", "-o", format}, c.args...)
				r := runCLI(t, append(args, "hello")...)
				if r.code != c.code {
					t.Errorf("exit %d, want %d (stderr %q)", r.code, c.code, r.stderr)
				}
				lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
				if format == "json" && len(lines) != 1 {
					t.Fatalf("%d lines on stdout, want one object: %q", len(lines), r.stdout)
				}
				var res map[string]any
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || res["type"] != "result" {
					t.Fatalf("the last line of stdout is not a result object (%v): %q", err, r.stdout)
				}
				if res["stopReason"] != c.stopReason {
					t.Errorf("stopReason %q, want %q: %q", res["stopReason"], c.stopReason, r.stdout)
				}
				msg, _ := res["error"].(string)
				if c.err == "" && msg != "" || !strings.Contains(msg, c.err) {
					t.Errorf("error %q, want one with %q", msg, c.err)
				}
			})
		}
		t.Run(format+"/usage error", func(t *testing.T) {
			fakeAPI(t)
			r := runCLI(t, "--home", t.TempDir(), "--workdir", work, "run", "-o", format, "--session-id", "../x", "hello")
			if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "invalid --session-id") {
				t.Errorf("a usage error: exit %d, stdout %q, stderr %q; want 2, nothing, the error", r.code, r.stdout, r.stderr)
			}
		})
	}
}
