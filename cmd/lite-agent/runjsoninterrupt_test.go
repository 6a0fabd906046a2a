package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runJSONChildEnv makes the test binary a real lite-agent process (see
// TestRunJSONInterruptedPrintsOneResult): its arguments follow "--".
const runJSONChildEnv = "LITE_AGENT_RUN_JSON_CHILD"

// An interrupt (SIGINT to a real lite-agent process) of run -o json or
// stream-json while the model's reply stalls, before its headers or in the
// middle of its stream, exits 130 and leaves standard output with nothing
// but JSON: one result object (json) or events then the result
// (stream-json), with stopReason "aborted" and the error.
func TestRunJSONInterruptedPrintsOneResult(t *testing.T) {
	if os.Getenv(runJSONChildEnv) != "" {
		args := os.Args
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		sigs := make(chan os.Signal, 2)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		os.Exit(runInterruptible(context.Background(), args, os.Stdin, os.Stdout, os.Stderr, sigs, os.Exit))
	}
	isolateEnv(t)
	for _, format := range []string{"json", "stream-json"} {
		for _, stall := range []string{"before headers", "mid-stream"} {
			t.Run(format+"/"+stall, func(t *testing.T) {
				got := make(chan struct{}, 1)
				release := make(chan struct{})
				ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.ReadAll(r.Body)
					if stall == "mid-stream" {
						w.Header().Set("Content-Type", "text/event-stream")
						full := textReply("partial answer")
						io.WriteString(w, full[:strings.Index(full, `"type":"content_block_stop"`)-len("event: content_block_stop\ndata: {")])
						w.(http.Flusher).Flush()
					}
					select {
					case got <- struct{}{}:
					default:
					}
					select {
					case <-r.Context().Done():
					case <-release:
					}
				}))
				defer ts.Close()
				defer close(release)
				cmd := exec.Command(os.Args[0], "-test.run=^TestRunJSONInterruptedPrintsOneResult$", "--",
					"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "-o", format, "hello")
				cmd.Env = append(os.Environ(), runJSONChildEnv+"=1", "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+ts.URL)
				var stdout, stderr lockedBuf
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				select {
				case <-got:
				case <-time.After(20 * time.Second):
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the model was never asked; stderr %q", stderr.String())
				}
				if format == "stream-json" && stall == "mid-stream" {
					// The partial stream is read and printed: wait for
					// it, since a loaded machine may take a while.
					for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stdout.String(), `"partial answer"`); time.Sleep(10 * time.Millisecond) {
						if time.Now().After(deadline) {
							cmd.Process.Kill()
							cmd.Wait()
							t.Fatalf("the partial stream was not printed in 30 s; stdout %q stderr %q", stdout.String(), stderr.String())
						}
					}
				} else {
					time.Sleep(50 * time.Millisecond) // the partial stream is read, if there is one
				}
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(20 * time.Second):
					cmd.Process.Kill()
					<-done
					t.Fatalf("the interrupted run did not end; stdout %q stderr %q", stdout.String(), stderr.String())
				}
				if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
					t.Errorf("exit %d, want %d (stderr %q)", code, exitInterrupted, stderr.String())
				}
				out := stdout.String()
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if !strings.HasSuffix(out, "\n") || format == "json" && len(lines) != 1 {
					t.Fatalf("stdout is not one JSON object per line (json: one line): %q", out)
				}
				for i, l := range lines {
					var m map[string]any
					if err := json.Unmarshal([]byte(l), &m); err != nil {
						t.Fatalf("line %d of stdout is not JSON (%v): %q", i+1, err, out)
					}
					if (m["type"] == "result") != (i == len(lines)-1) {
						t.Fatalf("want one result object, the last line: %q", out)
					}
					if i == len(lines)-1 {
						msg, _ := m["error"].(string)
						if m["stopReason"] != "aborted" || msg == "" {
							t.Errorf("result %s: want stopReason aborted and an error", l)
						}
					}
				}
				if format == "stream-json" && stall == "mid-stream" && !strings.Contains(out, `"partial answer"`) {
					t.Errorf("the text streamed before the interrupt is not on stdout: %q", out)
				}
			})
		}
	}
}
