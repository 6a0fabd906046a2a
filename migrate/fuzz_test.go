package migrate_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// FuzzMigrateSessionLog migrates an arbitrary plaintext session log with
// SkipUnreadable to gzip and checks that the copy reads as the source does
// (the session store reads the same events from both), that the migration
// copied every record up to the first that a reader must refuse (bodies as
// they are; the destination being encoded, only valid UTF-8), and that the
// source is unchanged. Each input is a whole migration
// (files, locks, a sync), so the fuzzer runs a few inputs a second; give it
// a short -fuzzminimizetime (such as 5s), as goroutine scheduling makes
// coverage vary from run to run:
//
//	go test ./migrate -run '^$' -fuzz '^FuzzMigrateSessionLog$' -fuzztime 5m -fuzzminimizetime 5s
func FuzzMigrateSessionLog(f *testing.F) {
	f.Add([]byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}` + "\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		home := t.TempDir()
		p := resolve(t, workdir, storage.Options{Home: home})
		if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.SessionsDir, "s1.jsonl"), log, 0o600); err != nil {
			t.Fatal(err)
		}
		src, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: storage.Encoding{ProjectID: p.Hash}})
		if err != nil {
			t.Fatal(err)
		}
		want := readable(t, src)
		// The migration copies every record before the first that a reader
		// must refuse or that an encoded destination cannot hold (invalid
		// UTF-8); the store may read fewer, as it decodes the events.
		var copyable int64
		undecodable := false // the first record left out needs a codec
		for l := range bytes.Lines(log) {
			if !bytes.HasSuffix(l, []byte("\n")) {
				break // a torn tail: not a record
			}
			l = bytes.Trim(l, " \t\r\n")
			if len(l) == 0 {
				continue
			}
			if len(l) > session.MaxLineBytes {
				break
			}
			if err := logframe.Check(l, "s1", copyable+1, false); err != nil {
				var se *storage.Error
				undecodable = errors.As(err, &se) && se.Op == "decode"
				break
			}
			if !utf8.Valid(l) {
				break
			}
			copyable++
		}
		want = want[:min(int(copyable), len(want))]
		before := treeHash(t, home)

		dstHome := t.TempDir()
		rep, err := migrate.Run(t.Context(), migrate.Options{
			From:           migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
			To:             migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: codec.Gzip()}},
			SkipUnreadable: true,
			Workers:        1,
		})
		if copyable == 0 && undecodable {
			// Nothing copied and a record that needs a codec: a wrong
			// configuration, refused even with SkipUnreadable, and nothing
			// is left at the destination.
			if !errors.Is(err, migrate.ErrUnreadable) {
				t.Fatalf("Run: %v, want ErrUnreadable", err)
			}
			unchanged(t, home, before)
			if left := files(t, dstHome); len(left) != 0 {
				t.Fatalf("the refused migration left %v", left)
			}
			return
		}
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		unchanged(t, home, before)
		if got := rep.Kinds[storage.KindCheckpoint].Records; got != copyable {
			t.Fatalf("copied %d records, want %d", got, copyable)
		}
		dst, err := session.NewFileCheckpointer(filepath.Join(rep.Destination.Root, "sessions"),
			session.FileOptions{Encoding: storage.Encoding{Codec: codec.Gzip(), ProjectID: rep.Destination.Hash}})
		if err != nil {
			t.Fatal(err)
		}
		got := readable(t, dst)
		if len(got) != len(want) {
			t.Fatalf("the store reads %d events from the copy, %d from the source", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("record %d:\n got %s\nwant %s", i+1, got[i], want[i])
			}
		}
	})
}

// readable returns the events the session store reads from log s1 of cp
// before its first error, as JSON.
func readable(t *testing.T, cp *session.FileCheckpointer) []string {
	var evs []string
	for ev, err := range cp.Scan(t.Context(), "s1", 0) {
		if err != nil {
			break
		}
		b, err := ev.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, string(b))
	}
	return evs
}
