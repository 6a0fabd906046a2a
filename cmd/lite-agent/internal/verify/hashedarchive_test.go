package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// The archive of a session whose id is not a file id (a host's own
// checkpointer may use any id) is named session-<sha256 of the id>.context,
// which does not give the id back. verify must not pass it over in
// silence: a plaintext archive, whose records' codec context the id is no
// part of, is checked like any other, and an encoded one, which cannot be
// decoded without the id, is reported as not verified.
func TestFilesDoesNotPassOverAnArchiveNamedByHash(t *testing.T) {
	key := make([]byte, codec.KeySize)
	aead, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: func(context.Context, string) ([]byte, error) { return key, nil }})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		codec   storage.Codec
		problem bool // the damaged note is reported as a problem
	}{
		{"plaintext", nil, true},
		{"encoded", aead, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			home := t.TempDir()
			project := filepath.Join(home, "projects", "p")
			const sid = "user@example.com/1"
			ctxDir := storage.SessionContextDir(filepath.Join(project, storage.SessionsDirName), sid)
			if !strings.HasPrefix(filepath.Base(ctxDir), "session-") {
				t.Fatalf("%s is not named by hash", ctxDir)
			}
			enc := storage.Encoding{Codec: tt.codec, ProjectID: "p"}
			ar, err := archive.NewFileArchive(ctxDir, archive.Options{Encoding: enc, SessionID: sid})
			if err != nil {
				t.Fatal(err)
			}
			e, err := ar.Put(ctx, "kept", nil)
			if err != nil {
				t.Fatal(err)
			}
			// Damage the note.
			note := filepath.Join(ctxDir, archive.NotesDir, e.Ref+archive.NoteSuffix)
			if err := os.WriteFile(note, []byte("damaged"), 0o600); err != nil {
				t.Fatal(err)
			}
			var rep Report
			if err := Files(ctx, home, []string{project}, tt.codec, "", &rep); err != nil {
				t.Fatal(err)
			}
			if tt.problem {
				if rep.ProblemCount == 0 || !strings.Contains(rep.Problems[0].File, filepath.Base(ctxDir)) {
					t.Errorf("the damaged note of %s was not reported: problems %+v, warnings %+v", ctxDir, rep.Problems, rep.Warnings)
				}
				return
			}
			found := false
			for _, w := range rep.Warnings {
				found = found || w.File == ctxDir && w.Kind == "unverified"
			}
			if !found {
				t.Errorf("the archive %s, which cannot be decoded without its session id, is not reported as unverified: problems %+v, warnings %+v", ctxDir, rep.Problems, rep.Warnings)
			}
		})
	}
}
