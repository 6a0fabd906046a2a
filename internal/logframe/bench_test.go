//go:build unix

package logframe_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
)

// homeRecords returns n records of the log of session sid as
// scripts/bench-lib.sh's bench_home writes them (the shape of migrate's
// BenchmarkMigratePlaintextToAEAD): seq 1 to n, cycling through a user
// prompt, an assistant reply with a tool call and a tool result, each
// holding 36 words drawn at random (a fixed seed) from a small vocabulary,
// the tool result twice over.
func homeRecords(sid string, n int) [][]byte {
	vocab := strings.Fields("the agent read file main.go and found that function handler returns an error when " +
		"request body is empty so it proposes a patch adding check before decoding together with " +
		"test case covering nil input plus logging of id duration status code go build ./... ok FAIL")
	rnd := rand.New(rand.NewPCG(22, 22))
	lines := make([][]byte, n)
	for i := 1; i <= n; i++ {
		parent := "null"
		if i > 1 {
			parent = fmt.Sprint(i - 1)
		}
		var t strings.Builder
		fmt.Fprintf(&t, "7/%d ", i)
		for range 36 {
			t.WriteString(vocab[rnd.IntN(len(vocab))] + " ")
		}
		var ev string
		switch i % 3 {
		case 1:
			ev = `{"type":"user","message":{"role":"user","content":"` + t.String() + `"}}`
		case 2:
			ev = fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"%s"},{"type":"tool_call","id":"c%d","name":"bash","input":{"command":"ls -la %d"}}]}}`, t.String(), i, i)
		default:
			ev = fmt.Sprintf(`{"type":"tool_result","result":{"type":"tool_result","id":"c%d","content":"%s%s"},"turn":%d}`, i-1, t.String(), t.String(), i)
		}
		lines[i-1] = fmt.Appendf(nil, `{"seq":%d,"sessionId":"%s","parentSeq":%s,"ts":"2026-07-22T12:00:00.000Z","event":%s}`, i, sid, parent, ev)
	}
	return lines
}

// BenchmarkCheckHome checks the records of a log as bench_home writes
// them, one record per op (about 470 bytes on average, as in the bench's
// 47 MB of 100,000 events). cpu-ns/op is the processor time (user and
// system) per record, which other work on a busy machine does not
// inflate.
//
//	go test ./internal/logframe -run '^$' -bench CheckHome -count 6
func BenchmarkCheckHome(b *testing.B) {
	lines := homeRecords("s0007", 300)
	var n int64
	for _, l := range lines {
		n += int64(len(l))
	}
	b.SetBytes(n / int64(len(lines)))
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	for i := 0; b.Loop(); i++ {
		k := i % len(lines)
		if err := logframe.Check(lines[k], "s0007", int64(k+1), false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the processor time (user and system) of the process.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestHomeRecordsTakeTheSinglePass(t *testing.T) {
	for k, l := range homeRecords("s0007", 30) {
		if !logframe.WellFormed(l, "s0007", int64(k+1)) {
			t.Errorf("not taken by the single pass: %s", l)
		}
		sameVerdict(t, l, "s0007", int64(k+1), false)
	}
}
