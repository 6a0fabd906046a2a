package migrate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// FuzzMigrateSessionLog migrates an arbitrary plaintext session log with
// SkipUnreadable to gzip and checks that the copy holds exactly the records
// the session store reads from the source before its first bad one, and
// that the source is unchanged. Each input is a whole migration (files,
// locks, a sync), so the fuzzer runs a few inputs a second; give it a short
// -fuzzminimizetime (such as 5s), as goroutine scheduling makes coverage vary
// from run to run:
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
		var want []string
		for ev, err := range src.Scan(t.Context(), "s1", 0) {
			if err != nil {
				break
			}
			b, _ := ev.MarshalJSON()
			want = append(want, string(b))
		}
		before := treeHash(t, home)

		dstHome := t.TempDir()
		rep, err := migrate.Run(t.Context(), migrate.Options{
			From:           migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
			To:             migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: codec.Gzip()}},
			SkipUnreadable: true,
			Workers:        1,
		})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		unchanged(t, home, before)
		if got := rep.Kinds[storage.KindCheckpoint].Records; got != int64(len(want)) {
			t.Fatalf("copied %d records, the session store reads %d", got, len(want))
		}
		dst, err := session.NewFileCheckpointer(filepath.Join(rep.Destination.Root, "sessions"),
			session.FileOptions{Encoding: storage.Encoding{Codec: codec.Gzip(), ProjectID: rep.Destination.Hash}})
		if err != nil {
			t.Fatal(err)
		}
		evs, err := dst.Read(t.Context(), "s1", 0)
		if err != nil {
			t.Fatalf("read the copy: %v", err)
		}
		for i, ev := range evs {
			b, _ := ev.MarshalJSON()
			if string(b) != want[i] {
				t.Fatalf("record %d:\n got %s\nwant %s", i+1, b, want[i])
			}
		}
	})
}
