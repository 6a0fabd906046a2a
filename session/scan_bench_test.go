//go:build linux

package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// BenchmarkScan streams a generated log of 10,000 events of about 2.3 KB
// each (a mix of prompts, replies with tool calls and tool results) with
// Scan, stored in plaintext and under each codec, and reports for every
// codec x-plaintext: its ns/op divided by the plaintext case's in the same
// run (issue 22's target for zstd: 2 or less). cpu-ns/op is the processor
// time (user and system, all threads) per scan and x-plaintext-cpu the same
// ratio for it, which a machine busy with other work does not inflate.
//
//	go test -run '^$' -bench 'Scan$' -benchtime 20x ./session/
func BenchmarkScan(b *testing.B) {
	const n = 10_000
	cases := []codecCase{
		{name: "plaintext"},
		{name: "zstd", codec: codec.Zstd()},
		{name: "gzip", codec: codec.Gzip()},
		{name: "xchacha20poly1305", codec: aead(b, codec.XChaCha20Poly1305, "k1", 1)},
	}
	var plainNs, plainCPU float64
	for _, cc := range cases {
		dir := b.TempDir()
		cp := newCP(b, dir, session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec}})
		for from := 0; from < n; from += 1000 {
			evs := make([]session.Event, 1000)
			for i := range evs {
				evs[i] = resumeEvent(from + i)
			}
			if _, err := cp.Append(context.Background(), "scan", evs, int64(from)); err != nil {
				b.Fatal(err)
			}
		}
		st, err := os.Stat(filepath.Join(dir, "scan.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("codec=%s", cc.name), func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				seen := 0
				for _, err := range cp.Scan(context.Background(), "scan", 0) {
					if err != nil {
						b.Fatal(err)
					}
					seen++
				}
				if seen != n {
					b.Fatalf("scanned %d events, want %d", seen, n)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			cpu := float64(cpuTime()-cpu0) / float64(b.N)
			b.ReportMetric(cpu, "cpu-ns/op")
			if cc.codec == nil {
				plainNs, plainCPU = ns, cpu
			} else if plainNs > 0 {
				b.ReportMetric(ns/plainNs, "x-plaintext")
				b.ReportMetric(cpu/plainCPU, "x-plaintext-cpu")
			}
		})
	}
}
