package postgres_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
)

// Two task ids of one list whose record files' names differ only in case
// ("A" and "a") are two files here, but one on a case-insensitive file
// system (macOS's, where a data home may be copied): there the second
// replaces the first. task.FileStore.Import refuses such ids with a
// *task.InputError; ExportFiles must refuse them the same way, before it
// writes anything, and ids that differ otherwise, or that are in different
// lists, are exported.
func TestExportRefusesTaskIDsThatDifferOnlyInCase(t *testing.T) {
	cases := []struct {
		name   string
		lists  map[string][]string
		refuse bool
	}{
		{"A and a", map[string][]string{"list": {"1", "A", "a"}}, true},
		{"accented letters", map[string][]string{"list": {"é", "É"}}, true},
		{"a longer id", map[string][]string{"list": {"Task-7", "task-7", "2"}}, true},
		{"in two lists", map[string][]string{"one": {"A"}, "two": {"a"}}, false},
		{"different ids", map[string][]string{"list": {"a", "b", "ab"}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			paths, enc, _ := filesProject(t)
			p := project(t, enc)
			// A session, which the export writes before the task lists.
			if _, err := p.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			for list, ids := range tc.lists {
				importTasks(t, p, list, ids)
			}
			home := filepath.Dir(filepath.Dir(paths.ProjectDir()))
			before, dirsBefore := treeFiles(t, home), treeEntries(t, home)
			_, err := p.ExportFiles(ctx, paths)
			if !tc.refuse {
				if err != nil {
					t.Fatalf("ExportFiles: %v", err)
				}
				return
			}
			var ie *task.InputError
			if !errors.As(err, &ie) || ie.Field != "id" {
				t.Fatalf("ExportFiles = %v, want a *task.InputError about the id", err)
			}
			if after := treeFiles(t, home); !slices.Equal(after, before) {
				t.Errorf("the refused export wrote %q", after)
			}
			if after := treeEntries(t, home); !slices.Equal(after, dirsBefore) {
				t.Errorf("the refused export made directories: %q, before %q", after, dirsBefore)
			}
		})
	}
}

// treeEntries lists every entry below root, directories included.
func treeEntries(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		out = append(out, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
