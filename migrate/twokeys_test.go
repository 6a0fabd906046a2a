package migrate_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// A home whose records were written under two keys (session s1 under key
// k1, then, after a key change that left the old logs as they were,
// session s2 under k2): a migration given one key (k2) refuses it with
// ErrUnreadable naming s1's log and first record, writes nothing and
// leaves the source as it was: a record's codec id names its key, and a
// codec reads only its own id (the storage spec: mismatched codec ids fail
// explicitly). With SkipUnreadable the other key's records are left out
// and listed, and the source keeps them.
func TestMigrationOfAHomeWrittenUnderTwoKeys(t *testing.T) {
	ctx := t.Context()
	home := t.TempDir()
	p := resolve(t, workdir, storage.Options{Home: home})
	keys := map[string][]byte{"k1": bytes.Repeat([]byte{1}, codec.KeySize), "k2": bytes.Repeat([]byte{2}, codec.KeySize)}
	for _, id := range []string{"k1", "k2"} {
		c := aead(t, id, keys[id][0])
		cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Codec: c, Namespace: p.Namespace, ProjectID: p.Hash}})
		if err != nil {
			t.Fatal(err)
		}
		sid := map[string]string{"k1": "s1", "k2": "s2"}[id]
		if _, err := cp.Append(ctx, sid, []session.Event{session.UserEvent{Message: model.UserText("under " + id)}}, 0); err != nil {
			t.Fatal(err)
		}
	}
	before := treeHash(t, home)

	dstHome := t.TempDir()
	_, err := migrate.Run(ctx, migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home, Codec: aead(t, "k2", 2)}},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k3", 3)}},
	})
	var se *storage.Error
	if !errors.Is(err, migrate.ErrUnreadable) || !errors.As(err, &se) || filepath.Base(se.File) != "s1.jsonl" || se.Record != "1" {
		t.Fatalf("Run with one key = %v; want ErrUnreadable naming s1.jsonl record 1", err)
	}
	oneLine(t, err)
	unchanged(t, home, before)
	if left := files(t, dstHome); len(left) != 0 {
		t.Errorf("the refused migration left %v", left)
	}

	// The records of the other key are left out, and listed, with
	// SkipUnreadable: the source keeps them, for a migration of their own.
	dst := storage.Options{Home: dstHome, Codec: aead(t, "k3", 3)}
	rep, err := migrate.Run(ctx, migrate.Options{
		From:           migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home, Codec: aead(t, "k2", 2)}},
		To:             migrate.Endpoint{Storage: dst},
		SkipUnreadable: true,
	})
	if err != nil || !rep.Verified || rep.Kinds[storage.KindCheckpoint].Records != 1 || len(rep.Skipped) != 1 || filepath.Base(rep.Skipped[0].File) != "s1.jsonl" {
		t.Fatalf("Run skipping unreadable = %+v, %v; want s2 copied and s1 listed as left out", rep, err)
	}
	unchanged(t, home, before)
	dp := resolve(t, workdir, dst)
	cp, err := session.NewFileCheckpointer(dp.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Codec: dst.Codec, Namespace: dp.Namespace, ProjectID: dp.Hash}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(ctx, "s2", 0)
	if err != nil || len(evs) != 1 {
		t.Errorf("s2 in the destination: %+v, %v", evs, err)
	}
}
