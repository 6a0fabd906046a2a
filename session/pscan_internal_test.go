package session

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// TestBytesInFlightAreCapped checks that a slow consumer of a log of long
// lines never has more than the cap (here 2 MB, not inflightBytes, so that
// the log is small) between the reader and itself (plus the one chunk that
// may exceed it alone), however many chunks the channels could hold.
func TestBytesInFlightAreCapped(t *testing.T) {
	// Longer than chunkBytes: each line is a chunk of its own.
	const line, limit = chunkBytes + 88<<10, 2 << 20
	var log bytes.Buffer
	log.Grow(40 * (line + 256))
	content := strings.Repeat("x", line)
	for i := range 40 {
		fmt.Fprintf(&log, `{"seq":%d,"sessionId":"s","parentSeq":%s,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"%s"}}}`+"\n",
			i+1, map[bool]string{true: "null", false: fmt.Sprint(i)}[i == 0], content)
	}
	var lrs lineReaders
	lr := lrs.get(bytes.NewReader(log.Bytes()), MaxLineBytes)
	defer lrs.put(lr)
	fl := &flight{limit: limit}
	records := 0
	res, err := scan(t.Context(), storage.Encoding{}, lr, scanOpts{id: "s", file: "s.jsonl", since: 1 << 62, workers: 8, flight: fl},
		func(scanRecord) bool { records++; time.Sleep(2 * time.Millisecond); return true },
		func(p problem) bool { t.Errorf("problem: %v", p.Err); return false })
	if err != nil || records != 40 || res.records != 40 {
		t.Fatalf("scan: %d records, %+v, %v", records, res, err)
	}
	// Without the cap, the 16 slots of the order channel alone would let
	// 9.6 MB through.
	if peak, most := fl.peak.Load(), int64(limit+line+1024); peak > most || peak < line {
		t.Errorf("peak bytes in flight %d, want between %d and %d", peak, line, most)
	}
}
