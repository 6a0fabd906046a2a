package session

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/storage"
)

// BenchmarkEncodeBatch measures what Append does besides locking and
// writing: stamping and encoding a batch of 64 events of about 1 KB into a
// recycled buffer.
func BenchmarkEncodeBatch(b *testing.B) {
	events := make([]Event, 64)
	for i := range events {
		events[i] = UserEvent{Message: model.UserText(fmt.Sprintf("%06d ", i) + strings.Repeat("lorem ipsum dolor sit amet ", 34))}
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = encodeBatch(context.Background(), storage.Encoding{}, buf[:0], "bench", "f", 0, "2026-07-22T12:00:00.000Z", events, MaxLineBytes); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/rec")
}
