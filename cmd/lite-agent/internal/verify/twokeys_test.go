package verify

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// A home whose sessions were written under two keys (s1 under k1, s2 under
// k2), verified with one of them (k2): the other key's records are
// problems naming the codec they were written with (Found) and are summed
// up in Mismatches; the records of the key given are not problems.
func TestFilesReportsRecordsOfAnotherKey(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	project := filepath.Join(home, "projects", "p")
	dir := filepath.Join(project, storage.SessionsDirName)
	codecs := map[string]storage.Codec{}
	for i, id := range []string{"k1", "k2"} {
		key := bytes.Repeat([]byte{byte(i + 1)}, codec.KeySize)
		c, err := codec.NewAEAD(codec.AEADOptions{KeyID: id, Key: func(context.Context, string) ([]byte, error) { return key, nil }})
		if err != nil {
			t.Fatal(err)
		}
		codecs[id] = c
		cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: storage.Encoding{Codec: c, Namespace: "ns", ProjectID: "p"}})
		if err != nil {
			t.Fatal(err)
		}
		sid := map[string]string{"k1": "s1", "k2": "s2"}[id]
		if _, err := cp.Append(ctx, sid, []session.Event{session.UserEvent{Message: model.UserText("under " + id)}}, 0); err != nil {
			t.Fatal(err)
		}
	}
	var rep Report
	if err := Files(ctx, home, []string{project}, codecs["k2"], "ns", &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || filepath.Base(rep.Problems[0].File) != "s1.jsonl" || !strings.Contains(rep.Problems[0].Found, "k1") {
		t.Fatalf("problems %+v; want one, for s1.jsonl, found written under k1", rep.Problems)
	}
	if len(rep.Mismatches) != 1 || !strings.Contains(rep.Mismatches[0].Found, "k1") || rep.Mismatches[0].Records != 1 {
		t.Errorf("mismatches %+v; want one record under k1", rep.Mismatches)
	}
}
