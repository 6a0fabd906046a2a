package archive_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// note50KB returns about 50 000 bytes of log-like text, unique per seed.
func note50KB(seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d\n", seed)
	for i := 0; b.Len() < 50_000; i++ {
		fmt.Fprintf(&b, "2026-07-22T12:00:%02dZ INFO request %d handled in %d ms path=/api/v1/items/%d\n", i%60, i, i*7%250, i*31)
	}
	return b.String()
}

// rawNs measures the raw file operation op, in ns, for the ratio metric.
func rawNs(b *testing.B, op func()) float64 {
	const n = 20
	start := time.Now()
	for range n {
		op()
	}
	return float64(time.Since(start).Nanoseconds()) / n
}

// rawWrite writes data durably, as an archive note is written.
func rawWrite(b *testing.B, path string, data []byte) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkPut50KB puts 50 KB notes under each codec: new content (a note
// written atomically plus an index line appended, both fsynced) and content
// already there (index decoded, stored note decoded and compared). The
// x-raw metric is the time per Put over one fsynced 50 KB write (new) or
// one 50 KB read (existing) measured in the same run.
func BenchmarkPut50KB(b *testing.B) {
	for _, cc := range codecMatrix()[:4] {
		c := cc.codec(b)
		opts := archive.Options{Encoding: storage.Encoding{Codec: c}, SessionID: "s1"}
		b.Run(cc.name+"/new", func(b *testing.B) {
			root := b.TempDir()
			raw := rawNs(b, func() { rawWrite(b, filepath.Join(root, "raw"), []byte(note50KB(0))) })
			contents := make([]string, 100)
			for i := range contents {
				contents[i] = note50KB(i)
			}
			var a *archive.FileArchive
			i := 0
			for b.Loop() {
				if i%len(contents) == 0 { // keep the index short: a fresh archive every 100 notes
					b.StopTimer()
					a = open(b, filepath.Join(root, fmt.Sprint(i)), opts)
					b.StartTimer()
				}
				if _, err := a.Put(b.Context(), contents[i%len(contents)], nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.SetBytes(50_000)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
		b.Run(cc.name+"/existing", func(b *testing.B) {
			root := b.TempDir()
			a := open(b, filepath.Join(root, "s1.context"), opts)
			content := note50KB(0)
			put(b, a, content, nil)
			raw := rawNs(b, func() { os.ReadFile(filepath.Join(root, "s1.context", "notes", sha(content)+".md")) })
			for b.Loop() {
				if _, err := a.Put(b.Context(), content, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(50_000)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
	}
}

// BenchmarkRead50KB reads the first 16 KiB page of a 50 KB note under each
// codec, each read in a new generation. The x-raw metric is the time per
// Read over one 50 KB file read measured in the same run.
func BenchmarkRead50KB(b *testing.B) {
	for _, cc := range codecMatrix()[:4] {
		b.Run(cc.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "s1.context")
			a := open(b, dir, archive.Options{Encoding: storage.Encoding{Codec: cc.codec(b)}, SessionID: "s1"})
			content := note50KB(0)
			e := put(b, a, content, nil)
			raw := rawNs(b, func() { os.ReadFile(filepath.Join(dir, "notes", e.Ref+".md")) })
			var gen int64
			for b.Loop() {
				out, err := a.Read(b.Context(), archive.ReadRequest{Ref: e.Ref, Generation: gen})
				if err != nil || !strings.Contains(out, "nextOffset=") {
					b.Fatal(err)
				}
				gen++
			}
			b.SetBytes(50_000)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
	}
}

// BenchmarkVerify100x50KB verifies an archive of 100 notes of 50 KB under
// each codec. The x-raw metric is the time per Verify over reading the
// index and the 100 note files raw, measured in the same run.
func BenchmarkVerify100x50KB(b *testing.B) {
	for _, cc := range codecMatrix()[:4] {
		b.Run(cc.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "s1.context")
			a := open(b, dir, archive.Options{Encoding: storage.Encoding{Codec: cc.codec(b)}, SessionID: "s1"})
			for i := range 100 {
				put(b, a, note50KB(i), nil)
			}
			raw := rawNs(b, func() {
				os.ReadFile(filepath.Join(dir, "index.jsonl"))
				ents, _ := os.ReadDir(filepath.Join(dir, "notes"))
				for _, e := range ents {
					os.ReadFile(filepath.Join(dir, "notes", e.Name()))
				}
			})
			for b.Loop() {
				problems, err := a.Verify(b.Context())
				if err != nil || len(problems) != 0 {
					b.Fatal(err, problems)
				}
			}
			b.SetBytes(100 * 50_000)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
	}
}
