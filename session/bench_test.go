//go:build linux

package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// Append benchmarks compare the checkpointer with the raw operation it
// wraps, measured alternately in the same loop so that both see the same
// disk. Run them with
//
//	go test -run '^$' -bench 'Append' -benchtime 200x ./session/
//
// (Append/durable=true/batch=64 is the figure.)
//
// Resume benchmarks read a generated log of 1k, 10k and (unless -short)
// 100k events of about 2.3 KB each, written once per run outside the timer:
//
//	go test -run '^$' -bench 'Resume' -benchtime 5x -benchmem ./session/

// kbEvent returns an event whose log line is about 1 KB.
func kbEvent(i int) session.Event {
	return session.UserEvent{Message: model.UserText(fmt.Sprintf("%06d ", i) + strings.Repeat("lorem ipsum dolor sit amet ", 34))}
}

func batchOf(n, from int) []session.Event {
	evs := make([]session.Event, n)
	for i := range evs {
		evs[i] = kbEvent(from + i)
	}
	return evs
}

// rawBatch returns the bytes the checkpointer writes for a batch.
func rawBatch(b *testing.B, events []session.Event, firstSeq int64) []byte {
	var out []byte
	for i, ev := range events {
		seq := firstSeq + int64(i)
		line, err := session.StoredEvent{Seq: seq, SessionID: "bench", ParentSeq: seq - 1, Time: time.Now(), Event: ev}.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		out = append(append(out, line...), '\n')
	}
	return out
}

// With held=true the session is held (FileCheckpointer.Hold) across the
// appends, so the lock directory is made and removed once, not per batch.
func BenchmarkAppend(b *testing.B) {
	for _, durable := range []bool{true, false} {
		for _, batch := range []int{1, 8, 64, 512} {
			for _, held := range []bool{false, true} {
				name := fmt.Sprintf("durable=%v/batch=%d/held=%v", durable, batch, held)
				b.Run(name, func(b *testing.B) { benchAppend(b, durable, batch, held) })
			}
		}
	}
}

// benchAppend appends 1 KB events in batches, alternating with a raw
// write of the same bytes to another file (plus fdatasync and, in a third
// file, fsync, when durable), and reports records per second for each and
// the ratios.
func benchAppend(b *testing.B, durable bool, batch int, held bool) {
	dir := b.TempDir()
	cp := newCP(b, dir, session.FileOptions{Durable: durable})
	if held {
		release, err := cp.Hold(context.Background(), "bench")
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			if err := release(); err != nil {
				b.Error(err)
			}
		}()
	}
	events := batchOf(batch, 0)
	raw := rawBatch(b, events, 1)
	open := func(name string) *os.File {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return f
	}
	rawData, rawSync := open("raw-fdatasync.log"), open("raw-fsync.log")
	ctx := context.Background()
	var sdk, fdatasync, fsync time.Duration
	var head int64
	for b.Loop() {
		t0 := time.Now()
		h, err := cp.Append(ctx, "bench", events, head)
		if err != nil {
			b.Fatal(err)
		}
		head = h
		t1 := time.Now()
		if _, err := rawData.Write(raw); err != nil {
			b.Fatal(err)
		}
		if durable {
			if err := syscall.Fdatasync(int(rawData.Fd())); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		if durable {
			if _, err := rawSync.Write(raw); err != nil {
				b.Fatal(err)
			}
			if err := rawSync.Sync(); err != nil {
				b.Fatal(err)
			}
		}
		t3 := time.Now()
		sdk += t1.Sub(t0)
		fdatasync += t2.Sub(t1)
		fsync += t3.Sub(t2)
	}
	recs := float64(b.N * batch)
	b.ReportMetric(recs/sdk.Seconds(), "sdk-rec/s")
	b.ReportMetric(float64(sdk.Nanoseconds())/recs, "sdk-ns/rec")
	b.ReportMetric(recs/fdatasync.Seconds(), "raw-rec/s")
	b.ReportMetric(float64(fdatasync.Nanoseconds())/recs, "raw-ns/rec")
	b.ReportMetric(fdatasync.Seconds()/sdk.Seconds(), "sdk/raw")
	if durable {
		b.ReportMetric(recs/fsync.Seconds(), "raw-fsync-rec/s")
		b.ReportMetric(fsync.Seconds()/sdk.Seconds(), "sdk/raw-fsync")
	}
	b.ReportMetric(0, "ns/op") // the per-op time mixes both sides
}

// resumeEvent returns event i of a generated session: a mix of user
// prompts, assistant replies with tool calls and multi-line tool results,
// averaging about 2.3 KB per log line.
func resumeEvent(i int) session.Event {
	const prose = "The quick brown fox jumps over the lazy dog; "
	const code = "func main() {\n\tfmt.Println(\"hello, <world>\")\n}\n"
	switch i % 4 {
	case 0:
		return session.UserEvent{Message: model.UserText(fmt.Sprintf("step %d: ", i) + strings.Repeat(prose, 24))}
	case 1:
		return session.AssistantEvent{Message: model.AssistantBlocks(
			model.TextBlock(strings.Repeat(prose, 30)),
			model.ToolCallBlock(fmt.Sprintf("call_%d", i), "bash", json.RawMessage(fmt.Sprintf(`{"command":"go test ./... -run Test%d","timeout":120}`, i))),
		)}
	default:
		return session.ToolResultEvent{Result: model.ToolResultBlock(fmt.Sprintf("call_%d", i-1), strings.Repeat(code, 55), i%7 == 0), Turn: i / 4}
	}
}

// resumeLog writes a log of n events for session "resume" under c and
// returns its checkpointer and size.
func resumeLog(b *testing.B, dir string, c storage.Codec, n int) (*session.FileCheckpointer, int64) {
	cp := newCP(b, dir, session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	const batch = 1000
	for from := 0; from < n; from += batch {
		evs := make([]session.Event, min(batch, n-from))
		for i := range evs {
			evs[i] = resumeEvent(from + i)
		}
		if _, err := cp.Append(context.Background(), "resume", evs, int64(from)); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(filepath.Join(dir, "resume.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	return cp, st.Size()
}

func BenchmarkResume(b *testing.B) {
	sizes := []int{1_000, 10_000, 100_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	xchacha, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: testKey(1)})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		for _, cc := range []codecCase{{name: "plaintext"}, {name: "xchacha20poly1305", codec: xchacha}} {
			b.Run(fmt.Sprintf("events=%d/%s", n, cc.name), func(b *testing.B) {
				dir := b.TempDir()
				cp, size := resumeLog(b, dir, cc.codec, n)
				path := filepath.Join(dir, "resume.jsonl")
				b.Run("full", func(b *testing.B) {
					b.SetBytes(size)
					b.ReportAllocs()
					var floor time.Duration
					cpu0 := cpuTime()
					for b.Loop() {
						evs, err := cp.Read(context.Background(), "resume", 0)
						if err != nil || len(evs) != n {
							b.Fatalf("read %d events: %v", len(evs), err)
						}
						b.StopTimer()
						floor += readFloor(b, path)
						b.StartTimer()
					}
					cpu := cpuTime() - cpu0
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
					b.ReportMetric(b.Elapsed().Seconds()/floor.Seconds(), "x-read-floor")
					b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
				})
				b.Run("tail10", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						evs, err := cp.Read(context.Background(), "resume", int64(n-10))
						if err != nil || len(evs) != 10 {
							b.Fatalf("read %d events: %v", len(evs), err)
						}
					}
				})
				// fromview: a fresh checkpointer (no cached head, as in a
				// new process) reads from a view covering all but the last
				// 10 events: it should cost the same at every size.
				b.Run("fromview", func(b *testing.B) {
					view := session.ContextViewEvent{ThroughSeq: int64(n - 10), View: json.RawMessage(`{"generation":1}`)}
					if err := cp.Truncate(context.Background(), "resume", int64(n), session.AnyHead); err != nil {
						b.Fatal(err)
					}
					if _, err := cp.Append(context.Background(), "resume", []session.Event{view}, int64(n)); err != nil {
						b.Fatal(err)
					}
					defer cp.Truncate(context.Background(), "resume", int64(n), session.AnyHead)
					b.ReportAllocs()
					for b.Loop() {
						fresh := newCP(b, dir, session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec}})
						v, after, err := fresh.ReadFromView(context.Background(), "resume")
						if err != nil || v == nil || len(after) != 11 {
							b.Fatalf("ReadFromView: view %v, %d records, %v", v, len(after), err)
						}
					}
				})
			})
		}
	}
}

// readFloor returns the time to read the file line by line without
// decoding anything: the floor under any resume.
func readFloor(b *testing.B, path string) time.Duration {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		if _, err := r.ReadSlice('\n'); err == io.EOF {
			break
		} else if err != nil && err != bufio.ErrBufferFull {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// cpuTime returns the user and system CPU time of the process so far. On a
// shared machine it says more about the cost of a read than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
