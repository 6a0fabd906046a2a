package session_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/session"
)

// Crash and multi-process tests run this test binary again as the child:
// TestMain looks for childEnv and runs the child's role instead of the tests.

const childEnv = "SESSION_TEST_CHILD"

var (
	soak        = flag.Bool("soak", false, "run the long loops: 200 kill -9 trials of TestAcknowledgedRecordsSurviveKill")
	crashTrials = flag.Int("crash.trials", 0, "kill -9 trials of TestAcknowledgedRecordsSurviveKill (0: 20, or 200 with -soak)")
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "appender":
		os.Exit(runAppender())
	case "contender":
		os.Exit(runContender())
	case "holder":
		os.Exit(runHolder())
	case "tornkiller":
		os.Exit(runTornKiller())
	default:
		fmt.Fprintln(os.Stderr, "unknown child role", os.Getenv(childEnv))
		os.Exit(2)
	}
}

// child returns the test binary as a child process in role, with env.
func child(ctx context.Context, role string, env ...string) *exec.Cmd {
	return childtest.Command(ctx, append([]string{childEnv + "=" + role}, env...)...)
}

// runAppender waits for a line on stdin, then appends durable batches to
// CHILD_DIR/CHILD_ID forever, printing each acknowledged head on stdout.
// Record n holds recordText(n, size) with sizes from 3 to 12 KiB, so that
// batches cross page boundaries, where a kill can tear a write.
func runAppender() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{Durable: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 0 // the parent no longer needs us
	}
	ctx, id := context.Background(), os.Getenv("CHILD_ID")
	head, err := cp.Head(ctx, id)
	if err != nil {
		fmt.Fprintln(os.Stderr, "head:", err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	for {
		n := 1 + rand.IntN(3)
		events := make([]session.Event, n)
		for i := range events {
			events[i] = userText(recordText(head+int64(i)+1, 3<<10+rand.IntN(9<<10)))
		}
		if head, err = cp.Append(ctx, id, events, head); err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			return 1
		}
		fmt.Fprintf(out, "%d\n", head)
		out.Flush() // the ack leaves the process only after Append returned
	}
}

// recordText is the text of record seq in the crash tests: "seq-<seq>|"
// padded to size bytes.
func recordText(seq int64, size int) string {
	s := fmt.Sprintf("seq-%d|", seq)
	return s + strings.Repeat("p", max(size-len(s), 0))
}

// checkRecordTexts checks that evs are records 1… as recordText writes them.
func checkRecordTexts(evs []session.StoredEvent) error {
	for i, s := range textsOf(evs) {
		if want := fmt.Sprintf("seq-%d|", i+1); !strings.HasPrefix(s, want) || strings.Trim(s[len(want):], "p") != "" {
			return fmt.Errorf("record %d holds %.20q…, want %q…", i+1, s, want)
		}
	}
	return nil
}

// appender is a started child waiting for its go signal.
type appender struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	acks   chan int64
	stderr *bytes.Buffer
}

func startAppender(t *testing.T, dir, id string) *appender {
	a := &appender{cmd: child(t.Context(), "appender", "CHILD_DIR="+dir, "CHILD_ID="+id),
		acks: make(chan int64, 64), stderr: new(bytes.Buffer)}
	a.cmd.Stderr = a.stderr
	stdout, err := a.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if a.stdin, err = a.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(a.acks)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
				a.acks <- n
			}
		}
	}()
	return a
}

// TestAcknowledgedRecordsSurviveKill kills children that append durable
// batches of records larger than a page at random moments (SIGKILL), then
// checks, without RepairTail, that the log reads, holds every batch a child
// acknowledged, and reports a torn tail if the kill (or, in a third of the
// trials, the test, to be sure the path is taken) left one, without
// changing the file; and that the next append succeeds, moving the torn
// bytes into <id>.jsonl.torn-*. It runs 20 trials, 200 with -soak, in four
// lanes, one log each, with the next child started while the current one
// runs, because starting a process is the slow part.
func TestAcknowledgedRecordsSurviveKill(t *testing.T) {
	trials := 20
	if *soak {
		trials = 200
	}
	if *crashTrials > 0 {
		trials = *crashTrials
	}
	const lanes = 4
	dir := t.TempDir()
	var mu sync.Mutex
	var total crashStats
	var wg sync.WaitGroup
	for lane := range lanes {
		n := trials / lanes
		if lane < trials%lanes {
			n++
		}
		if n == 0 {
			continue
		}
		wg.Go(func() {
			st := crashLane(t, dir, fmt.Sprintf("crash-%d", lane), n, uint64(lane))
			mu.Lock()
			total.acked += st.acked
			total.tornByKill += st.tornByKill
			total.torn += st.torn
			total.done += st.done
			mu.Unlock()
		})
	}
	wg.Wait()
	if total.done != int64(trials) {
		t.Fatalf("%d of %d trials done", total.done, trials)
	}
	if total.acked == 0 {
		t.Error("no trial saw an acknowledgement: the test checked nothing")
	}
	t.Logf("%d trials, %d records acknowledged, %d torn tails set aside (%d torn by the kill itself)",
		trials, total.acked, total.torn, total.tornByKill)
}

// crashStats sums up crash trials.
type crashStats struct {
	acked      int64 // records acknowledged, summed over the lanes' final heads
	torn       int64 // torn tails set aside
	tornByKill int64 // of which the kill tore
	done       int64 // trials completed
}

// crashLane runs n kill trials against the log of id.
func crashLane(t *testing.T, dir, id string, n int, seed uint64) (st crashStats) {
	path := filepath.Join(dir, id+".jsonl")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), seed))
	next := startAppender(t, dir, id)
	defer func() {
		if next != nil {
			next.stdin.Close()
			next.cmd.Wait()
		}
	}()
	var acked int64
	for trial := range n {
		a := next
		next = nil
		if trial+1 < n {
			next = startAppender(t, dir, id)
		}
		if _, err := io.WriteString(a.stdin, "go\n"); err != nil {
			t.Errorf("%s trial %d: %v", id, trial, err)
			return
		}
		// Kill after a random number of acks, or at a random moment.
		killAfter := rng.IntN(6)
		timer := time.NewTimer(time.Duration(rng.IntN(20_000)) * time.Microsecond)
		if rng.IntN(2) == 0 {
			timer.Stop()
		} else {
			killAfter = -1
		}
		seen := 0
	wait:
		for {
			select {
			case n, ok := <-a.acks:
				if !ok {
					a.cmd.Wait()
					t.Errorf("%s trial %d: the child exited: %s", id, trial, a.stderr)
					return
				}
				acked = max(acked, n)
				if seen++; killAfter >= 0 && seen > killAfter {
					break wait
				}
			case <-timer.C:
				break wait
			}
		}
		a.cmd.Process.Kill()
		for n := range a.acks { // acks printed before the kill count too
			acked = max(acked, n)
		}
		a.cmd.Wait()
		timer.Stop()
		// The child may have died holding its lock: remove it, as the
		// stale-lock takeover would after 10 s.
		os.RemoveAll(path + ".lock")

		before, _ := os.ReadFile(path)
		end := bytes.LastIndexByte(before, '\n') + 1
		// A kill can tear a write after all, where it crosses a page
		// boundary: the kernel stops copying at the next page when a
		// fatal signal is pending.
		if end < len(before) {
			st.tornByKill++
		} else if len(before) > 0 && rng.IntN(3) == 0 {
			line, _ := session.StoredEvent{Seq: int64(bytes.Count(before, []byte("\n"))) + 1, SessionID: id,
				ParentSeq: int64(bytes.Count(before, []byte("\n"))), Time: time.Now(), Event: userText(recordText(0, 5000))}.MarshalJSON()
			appendBytes(line[:1+rng.IntN(len(line))])(t, path) // a whole record without its newline is torn too
			before, _ = os.ReadFile(path)
		}
		torn := before[end:]

		cp := newCP(t, dir, session.FileOptions{})
		evs, err := cp.Read(t.Context(), id, 0)
		if err != nil {
			t.Errorf("%s trial %d: the log does not read after a kill: %v", id, trial, err)
			return
		}
		if int64(len(evs)) < acked {
			t.Errorf("%s trial %d: %d records, but the children acknowledged %d", id, trial, len(evs), acked)
			return
		}
		if err := checkRecordTexts(evs); err != nil {
			t.Errorf("%s trial %d: %v", id, trial, err)
			return
		}
		var last error
		for _, err := range cp.Scan(t.Context(), id, int64(len(evs))) {
			last = err
		}
		if (len(torn) > 0) != errors.Is(last, session.ErrTornTail) {
			t.Errorf("%s trial %d: %d torn bytes, Scan ends with %v", id, trial, len(torn), last)
			return
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Errorf("%s trial %d: reading changed the log", id, trial)
			return
		}
		// The next append succeeds and sets the torn tail aside.
		head, err := cp.Append(t.Context(), id, []session.Event{userText(recordText(int64(len(evs))+1, 100))}, int64(len(evs)))
		if err != nil || head != int64(len(evs))+1 {
			t.Errorf("%s trial %d: the append after a kill = %d, %v", id, trial, head, err)
			return
		}
		acked = head
		if len(torn) > 0 {
			st.torn++
			if !hasFileHolding(path+".torn-*", torn) {
				t.Errorf("%s trial %d: no torn-* file holds the %d torn bytes", id, trial, len(torn))
				return
			}
		}
		if after, _ := os.ReadFile(path); !bytes.HasPrefix(after, before[:end]) {
			t.Errorf("%s trial %d: the append changed complete records", id, trial)
			return
		}
		st.done++
	}
	if aside, _ := filepath.Glob(path + ".torn-*"); int64(len(aside)) != st.torn {
		t.Errorf("%s: %d copies aside for %d torn tails", id, len(aside), st.torn)
	}
	st.acked = acked
	return st
}

// hasFileHolding reports whether a file matching pattern holds exactly b.
func hasFileHolding(pattern string, b []byte) bool {
	matches, _ := filepath.Glob(pattern)
	for _, m := range matches {
		if got, err := os.ReadFile(m); err == nil && bytes.Equal(got, b) {
			return true
		}
	}
	return false
}

// runContender appends CHILD_OPS records to CHILD_DIR/CHILD_ID with
// expected-head retry loops, printing its conflict count.
func runContender() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, id, worker := context.Background(), os.Getenv("CHILD_ID"), os.Getenv("CHILD_WORKER")
	ops, _ := strconv.Atoi(os.Getenv("CHILD_OPS"))
	conflicts := 0
	for op := 0; op < ops; {
		head, err := cp.Head(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "head:", err)
			return 1
		}
		_, err = cp.Append(ctx, id, []session.Event{userText(fmt.Sprintf("%s:%d", worker, op))}, head)
		var ce *session.ConflictError
		switch {
		case err == nil:
			op++
		case errors.As(err, &ce):
			conflicts++
		default:
			fmt.Fprintln(os.Stderr, "append:", err)
			return 1
		}
	}
	fmt.Println(conflicts)
	return 0
}

// TestProcessesAppendingWithExpectedHeadLoseNothing runs 8 processes that
// append to one session through Head + Append(expectedHead) retry loops.
func TestProcessesAppendingWithExpectedHeadLoseNothing(t *testing.T) {
	const workers, ops = 8, 12
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range workers {
		cmd := child(ctx, "contender", "CHILD_DIR="+dir, "CHILD_ID=shared", fmt.Sprintf("CHILD_WORKER=w%d", w), fmt.Sprintf("CHILD_OPS=%d", ops))
		cmd.Stdout = &outs[w]
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		wg.Go(func() {
			if err := cmd.Run(); err != nil {
				errs[w] = fmt.Errorf("%v: %s", err, stderr.String())
			}
		})
	}
	wg.Wait()
	conflicts := 0
	for w, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", w, err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(outs[w].String()))
		conflicts += n
	}
	evs, err := newCP(t, dir, session.FileOptions{}).Read(t.Context(), "shared", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != workers*ops {
		t.Fatalf("%d records, want %d", len(evs), workers*ops)
	}
	next := map[string]int{}
	for i, se := range evs {
		if se.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d", i+1, se.Seq)
		}
		w, op, _ := strings.Cut(textsOf([]session.StoredEvent{se})[0], ":")
		if strconv.Itoa(next[w]) != op {
			t.Fatalf("record %d is %s:%s, want %s:%d (lost or duplicated update)", i+1, w, op, w, next[w])
		}
		next[w]++
	}
	t.Logf("%d appends by %d processes, %d conflicts retried", workers*ops, workers, conflicts)
}
