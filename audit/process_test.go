package audit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
)

// Crash and multi-process tests run this test binary again as the child:
// TestMain looks for childEnv and runs the child's role instead of the
// tests.

const childEnv = "AUDIT_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "appender":
		os.Exit(runAppender())
	default:
		fmt.Fprintln(os.Stderr, "unknown child role", os.Getenv(childEnv))
		os.Exit(2)
	}
}

// runAppender waits for a line on stdin, then appends records to the log
// CHILD_PATH (durably, rotating at CHILD_MAX_BYTES, keeping every file),
// CHILD_COUNT of them or, when that is 0, until killed, printing the
// number of each record on stdout once Append returned. Record n holds
// recordText(CHILD_NAME, n, size) with sizes from 3 to 12 KiB, so that
// records cross page boundaries, where a kill can tear a write.
func runAppender() int {
	maxBytes, _ := strconv.ParseInt(os.Getenv("CHILD_MAX_BYTES"), 10, 64)
	count, _ := strconv.Atoi(os.Getenv("CHILD_COUNT"))
	name := os.Getenv("CHILD_NAME")
	l, err := NewLog(os.Getenv("CHILD_PATH"), Options{MaxBytes: maxBytes, MaxFiles: 1000, Key: []byte(os.Getenv("CHILD_KEY"))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 0 // the parent no longer needs us
	}
	out := bufio.NewWriter(os.Stdout)
	for n := 1; count == 0 || n <= count; n++ {
		ev := engine.Event{Type: engine.EventTextDelta, SessionID: name, Text: recordText(name, n, 3<<10+rand.IntN(9<<10))}
		if err := l.Append(context.Background(), ev); err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			return 1
		}
		fmt.Fprintf(out, "%d\n", n)
		out.Flush() // the ack leaves the process only after Append returned
	}
	if err := l.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close:", err)
		return 1
	}
	return 0
}

// recordText is the text of record n of the child name: "<name>-<n>|"
// padded to size bytes.
func recordText(name string, n, size int) string {
	s := fmt.Sprintf("%s-%d|", name, n)
	return s + strings.Repeat("p", max(size-len(s), 0))
}

// appender is a started child waiting for its go signal.
type appender struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	acks   chan int
	stderr *bytes.Buffer
}

func startAppender(t *testing.T, env ...string) *appender {
	t.Helper()
	cmd := childtest.Command(t.Context(), append([]string{childEnv + "=appender"}, env...)...)
	a := &appender{cmd: cmd, acks: make(chan int, 1024), stderr: new(bytes.Buffer)}
	cmd.Stderr = a.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(a.acks)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.Atoi(sc.Text()); err == nil {
				a.acks <- n
			}
		}
	}()
	return a
}

func (a *appender) start(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(a.stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
}

// texts returns the text of every record of the log at path, by file.
func texts(t *testing.T, path string) []string {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range events(t, files) {
		s, _ := ev["text"].(string)
		out = append(out, s)
	}
	return out
}

// TestAcknowledgedRecordsSurviveKill kills children that append durable,
// rotating records of 3 to 12 KiB to one log at random moments (SIGKILL),
// and, in a third of the trials, tears the last line on purpose as a
// kill at the wrong moment would. After each kill the chain must verify,
// a torn last line reported as such, and hold every record a child
// acknowledged; the next child's first append sets the torn line aside
// and goes on with the chain.
func TestAcknowledgedRecordsSurviveKill(t *testing.T) {
	const trials = 9
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	key := "crash-key"
	acked := map[string]bool{}
	torn := 0
	for trial := range trials {
		name := fmt.Sprintf("t%d", trial)
		a := startAppender(t, "CHILD_PATH="+path, "CHILD_MAX_BYTES=65536", "CHILD_KEY="+key, "CHILD_NAME="+name)
		a.start(t)
		want := 1 + rand.IntN(20)
		for range want {
			n, ok := <-a.acks
			if !ok {
				t.Fatalf("trial %d: the child ended: %s", trial, a.stderr)
			}
			acked[fmt.Sprintf("%s-%d|", name, n)] = true
		}
		a.cmd.Process.Signal(syscall.SIGKILL)
		for n := range a.acks { // acknowledged before the kill took effect
			acked[fmt.Sprintf("%s-%d|", name, n)] = true
		}
		a.cmd.Wait()

		if trial%3 == 1 {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"v":1,"ts":"2026-01-02T03:04:05.000Z","sessionId":"` + name + `","seq":`)
			f.Close()
		}
		files, err := Files(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(t.Context(), files, []byte(key))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() {
			t.Fatalf("trial %d: the chain is broken: %v", trial, rep.Broken)
		}
		if rep.Torn != nil {
			torn++
		} else if trial%3 == 1 {
			t.Fatalf("trial %d: the torn last line was not reported", trial)
		}
		if rep.Records < int64(len(acked)) || !rep.Start {
			t.Fatalf("trial %d: %d records, %d acknowledged", trial, rep.Records, len(acked))
		}
	}
	// A last child repairs the log and appends.
	a := startAppender(t, "CHILD_PATH="+path, "CHILD_MAX_BYTES=65536", "CHILD_KEY="+key, "CHILD_NAME=last", "CHILD_COUNT=1")
	a.start(t)
	if err := a.cmd.Wait(); err != nil {
		t.Fatalf("the last child: %v: %s", err, a.stderr)
	}
	rep := verifyAll(t, path, []byte(key))
	if rep.Torn != nil {
		t.Fatalf("a torn line is left after an append: %v", rep.Torn)
	}
	present := map[string]bool{}
	for _, s := range texts(t, path) {
		head, _, _ := strings.Cut(s, "|")
		present[head+"|"] = true
	}
	for rec := range acked {
		if !present[rec] {
			t.Fatalf("acknowledged record %s is missing", rec)
		}
	}
	aside, _ := filepath.Glob(path + ".torn-*")
	if len(aside) != torn {
		t.Fatalf("%d torn lines set aside, %d reported", len(aside), torn)
	}
	files, _ := Files(path)
	t.Logf("%d trials, %d records acknowledged, %d torn lines set aside, %d files", trials, len(acked), torn, len(files))
}

// TestProcessesShareOneChain runs three processes appending to one
// rotating log at once: their records must form one chain holding each
// process's records in its order.
func TestProcessesShareOneChain(t *testing.T) {
	const children, each = 3, 40
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var as []*appender
	for i := range children {
		as = append(as, startAppender(t, "CHILD_PATH="+path, "CHILD_MAX_BYTES=32768", "CHILD_NAME="+fmt.Sprintf("p%d", i), "CHILD_COUNT="+strconv.Itoa(each)))
	}
	for _, a := range as {
		a.start(t)
	}
	for _, a := range as {
		for range a.acks {
		}
		if err := a.cmd.Wait(); err != nil {
			t.Fatalf("a child failed: %v: %s", err, a.stderr)
		}
	}
	rep := verifyAll(t, path, nil)
	if rep.Records != children*each || !rep.Start {
		t.Fatalf("report %+v, want %d records", rep, children*each)
	}
	next := map[string]int{}
	for _, s := range texts(t, path) {
		head, _, _ := strings.Cut(s, "|")
		name, num, _ := strings.Cut(head, "-")
		n, _ := strconv.Atoi(num)
		if n != next[name]+1 {
			t.Fatalf("record %s follows %s-%d", head, name, next[name])
		}
		next[name] = n
	}
	for i := range children {
		if next[fmt.Sprintf("p%d", i)] != each {
			t.Fatalf("records of p%d: %v", i, next)
		}
	}
	if files, _ := Files(path); len(files) < 2 {
		t.Fatalf("the log did not rotate: %v", files)
	}
}
