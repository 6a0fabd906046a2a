package postgres_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/task"
)

// A task id may hold any character (task.Import takes ids as they are), and
// the database keeps it as it is. ExportFiles must name each record as the
// file store does (see task.RecordName): an id like "../../x" must not
// lead the export outside the list's directory, and the file store must
// read every exported task back under its id.
func TestExportNamesTaskRecordsAsTheFileStoreDoes(t *testing.T) {
	for _, encoded := range []bool{false, true} {
		t.Run(map[bool]string{false: "plaintext", true: "aead"}[encoded], func(t *testing.T) {
			ctx := t.Context()
			paths, enc, _ := filesProject(t)
			if encoded {
				enc.Codec = aeadEncoding(t, "k1").Codec
			}
			p := project(t, enc)
			ids := []string{"1", "a.b", "../../../../escaped", "sub/dir", "é"}
			importTasks(t, p, "list", ids)
			home := filepath.Dir(filepath.Dir(paths.ProjectDir()))
			before := treeFiles(t, filepath.Dir(home))
			if _, err := p.ExportFiles(ctx, paths); err != nil {
				t.Fatalf("ExportFiles: %v", err)
			}
			for _, f := range treeFiles(t, filepath.Dir(home)) {
				if !slices.Contains(before, f) && !strings.HasPrefix(f, paths.ProjectDir()+string(filepath.Separator)) {
					t.Errorf("the export wrote %s, outside the project directory", f)
				}
			}
			fs, err := task.NewFileStore(paths.TasksDir, "list", enc)
			if err != nil {
				t.Fatal(err)
			}
			checkTaskIDs(t, "the exported files", fs, ids)
			// And back: an import keys each record by its task id.
			p2 := project(t, enc)
			if _, err := p2.ImportFiles(ctx, paths); err != nil {
				t.Fatalf("ImportFiles of the export: %v", err)
			}
			tl2, err := p2.TaskList("list")
			if err != nil {
				t.Fatal(err)
			}
			checkTaskIDs(t, "the database imported from them", tl2, ids)
		})
	}
}

// checkTaskIDs checks that s lists exactly the tasks ids and finds each.
func checkTaskIDs(t *testing.T, what string, s task.Store, ids []string) {
	t.Helper()
	ctx := t.Context()
	got, err := s.List(ctx)
	if err != nil {
		t.Fatalf("%s: List: %v", what, err)
	}
	var gotIDs []string
	for _, tk := range got {
		gotIDs = append(gotIDs, tk.ID)
	}
	slices.Sort(gotIDs)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(gotIDs, want) {
		t.Errorf("%s: ids %q, want %q", what, gotIDs, want)
	}
	for _, id := range ids {
		if _, ok, err := s.Get(ctx, id); err != nil || !ok {
			t.Errorf("%s: Get(%q) = %v, %v", what, id, ok, err)
		}
	}
}

// treeFiles lists the files below root.
func treeFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsPermission(err) {
				return fs.SkipDir
			}
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
