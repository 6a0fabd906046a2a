package migrate_test

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// benchHome writes a plaintext project of sessions logs of perSession
// events each, cycling through user, assistant and tool result events of a
// few hundred bytes, as session logs hold them.
func benchHome(b *testing.B, sessions, perSession int) (string, storage.ProjectPaths) {
	b.Helper()
	home := b.TempDir()
	p := resolve(b, workdir, storage.Options{Home: home})
	if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
		b.Fatal(err)
	}
	ts := time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC)
	text := strings.Repeat("lorem ipsum dolor sit amet ", 8)
	var buf []byte
	for s := range sessions {
		sid := fmt.Sprintf("s%04d", s)
		buf = buf[:0]
		for i := 1; i <= perSession; i++ {
			var ev session.Event
			switch i % 3 {
			case 1:
				ev = session.UserEvent{Message: model.UserText(text)}
			case 2:
				ev = session.AssistantEvent{Message: model.AssistantBlocks(
					model.Block{Type: model.BlockText, Text: text},
					model.Block{Type: model.BlockToolCall, ID: "c1", Name: "bash", Input: []byte(`{"command":"ls -la"}`)},
				)}
			default:
				ev = session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "c1", Content: text + text}, Turn: i}
			}
			rec, err := session.StoredEvent{Seq: int64(i), SessionID: sid, ParentSeq: int64(i - 1), Time: ts, Event: ev}.MarshalJSON()
			if err != nil {
				b.Fatal(err)
			}
			buf = append(append(buf, rec...), '\n')
		}
		if err := os.WriteFile(filepath.Join(p.SessionsDir, sid+".jsonl"), buf, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return home, p
}

// copyTree is a plain recursive copy: the baseline a migration is measured
// against.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// cpuTime returns the processor time this process has used, user and
// system, so that a benchmark can report work done apart from waiting for a
// busy machine.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMigratePlaintextToAEAD migrates a project of 1,000 sessions
// holding 100,000 events from plaintext to XChaCha20-Poly1305 (the "to=aead"
// case the target is set for) and, for comparison, to plaintext in a new
// home (locks, verification and sync without a codec). Each case reports the
// time of a plain recursive copy of the same tree measured in the same run
// and the ratio of the two, x-copy; the target for to=aead is 3 or less.
// x-copy-cpu is the same ratio for processor time (user and system, all
// threads), which a loaded machine does not inflate.
//
// The copy does not sync, as cp -r does not; the migration must make its
// destination durable before it removes the marker. The file system is
// synced (untimed) after each timed part, so that the migration's syncs
// write back only the migration's own files, never the copy's.
//
// Each round keeps its trees until the case ends, and the two sides take
// turns going first: on ext4 without a journal, creating files soon after
// many were removed is slow (recently freed inodes are skipped one by one),
// so removing a round's trees made the next round's copy slower and slower.
// That effect still depends on what the machine removed in the last minutes;
// compare x-copy only within one run. For a figure free of it, point TMPDIR
// at a new directory at the root of the file system: ext4 puts top-level
// directories in a random block group, most likely one where nothing was
// removed lately. migrate-cpu-ms is the migration's processor time. MW=n
// sets Workers, for experiments.
//
//	go test ./migrate -run '^$' -bench MigratePlaintextToAEAD -benchtime 3x
//	mkdir /bench-1 && TMPDIR=/bench-1 go test ./migrate -run '^$' -bench 'MigratePlaintextToAEAD/to=aead' -benchtime 3x
func BenchmarkMigratePlaintextToAEAD(b *testing.B) {
	home, p := benchHome(b, 1000, 100)
	for _, tc := range []struct {
		name  string
		codec storage.Codec
	}{{"to=aead", aead(b, "k1", 1)}, {"to=plain", nil}} {
		b.Run(tc.name, func(b *testing.B) {
			scratch := b.TempDir()
			var copyTime, migrateTime, copyCPU, migrateCPU time.Duration
			var bytes int64
			n := 0
			for b.Loop() {
				n++
				copyRun := func() {
					start, cpu := time.Now(), cpuTime(b)
					if err := copyTree(p.ProjectDir(), filepath.Join(scratch, fmt.Sprintf("copy%d", n))); err != nil {
						b.Fatal(err)
					}
					copyTime += time.Since(start)
					copyCPU += cpuTime(b) - cpu
				}
				migrateRun := func() {
					start, cpu := time.Now(), cpuTime(b)
					rep, err := migrate.Run(b.Context(), migrate.Options{
						From:    migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
						To:      migrate.Endpoint{Storage: storage.Options{Home: filepath.Join(scratch, fmt.Sprintf("home%d", n)), Codec: tc.codec}},
						Workers: benchWorkers(),
					})
					migrateTime += time.Since(start)
					migrateCPU += cpuTime(b) - cpu
					if err != nil {
						b.Fatal(err)
					}
					if rep.Kinds[storage.KindCheckpoint].Records != 100_000 {
						b.Fatalf("%d records", rep.Kinds[storage.KindCheckpoint].Records)
					}
					bytes = rep.Kinds[storage.KindCheckpoint].SourceBytes
				}
				first, second := copyRun, migrateRun
				if n%2 == 0 {
					first, second = migrateRun, copyRun
				}
				first()
				// Untimed: write back what the first side wrote, so that the
				// second side's syncs flush only its own files.
				syscall.Sync()
				second()
				syscall.Sync()
			}
			b.SetBytes(bytes)
			b.ReportMetric(float64(copyTime.Milliseconds())/float64(n), "copy-ms/op")
			b.ReportMetric(float64(migrateTime.Milliseconds())/float64(n), "migrate-ms/op")
			b.ReportMetric(float64(migrateCPU.Milliseconds())/float64(n), "migrate-cpu-ms/op")
			b.ReportMetric(float64(migrateTime)/float64(copyTime), "x-copy")
			b.ReportMetric(float64(migrateCPU)/float64(copyCPU), "x-copy-cpu")
		})
	}
}

func benchWorkers() int { n, _ := strconv.Atoi(os.Getenv("MW")); return n }
