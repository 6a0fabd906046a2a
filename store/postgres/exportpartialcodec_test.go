package postgres_test

import (
	"context"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// A migrate --from-store killed once it had written every file leaves a
// copy a rerun must be able to clear (RemovePartialExport), whatever the
// project's task ids. The record of a task whose id is not its file's
// stem ("a.b" is stored as a_b.json) is encoded again for the file, and
// with an AEAD codec every encoding has a new nonce: the rerun cannot
// compare the file's bytes with a new encoding, only what they decode to.
// Before the fix it refused the export's own file as "differs from what
// the export writes there", so no rerun could ever complete.
func TestRemovePartialExportClearsReencodedTaskRecords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		aead  bool
		tasks []string
	}{
		{"plain, ids that are stems", false, []string{"1", "2"}},
		{"plain, an id that is not its stem", false, []string{"1", "a.b"}},
		{"aead, ids that are stems", true, []string{"1", "2"}},
		{"aead, an id that is not its stem", true, []string{"1", "a.b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			paths, enc, _ := filesProject(t)
			if tc.aead {
				key := []byte("0123456789abcdef0123456789abcdef")
				c, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: func(context.Context, string) ([]byte, error) { return key, nil }})
				if err != nil {
					t.Fatal(err)
				}
				enc = storage.Encoding{Codec: c, Namespace: enc.Namespace, ProjectID: enc.ProjectID}
			}
			p := project(t, enc)
			if _, err := p.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			importTasks(t, p, "s1", tc.tasks)
			if _, err := p.ExportFiles(ctx, paths); err != nil {
				t.Fatalf("ExportFiles: %v", err)
			}
			// What a killed export left: every file written, no marker
			// (the caller's), here the whole copy.
			if err := p.RemovePartialExport(ctx, paths); err != nil {
				t.Fatalf("RemovePartialExport of the export's own files: %v", err)
			}
			if left := treeFiles(t, paths.ProjectDir()); len(left) != 0 {
				t.Errorf("left after the clearing: %q", left)
			}
			if _, err := p.ExportFiles(ctx, paths); err != nil {
				t.Fatalf("ExportFiles after the clearing: %v", err)
			}
		})
	}
}
