package postgres_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Two sessions, or two task lists, whose ids differ only in case ("abc"
// and "ABC") are stored here in two files or directories, but in one on a
// case-insensitive file system (macOS's, where an exported home may be
// copied), where the second replaces or merges into the first. ExportFiles
// must refuse such a pair with a *storage.Error matching
// storage.ErrIDCaseCollision before it writes anything; a session and a
// task list with such ids (in different directories) are exported.
func TestExportRefusesSessionAndListIDsThatDifferOnlyInCase(t *testing.T) {
	cases := []struct {
		name     string
		sessions []string
		lists    []string
		refuse   bool
	}{
		{"two sessions", []string{"s1", "abc", "ABC"}, nil, true},
		{"two sessions, longer ids", []string{"Run-7_x", "run-7_X"}, nil, true},
		{"two task lists", []string{"s1"}, []string{"list", "LIST"}, true},
		{"a session and a list", []string{"abc"}, []string{"ABC"}, false},
		{"different ids", []string{"abc", "abd"}, []string{"l1", "l2"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			paths, enc, _ := filesProject(t)
			p := project(t, enc)
			for _, id := range tc.sessions {
				if _, err := p.Checkpointer().Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("hello " + id)}}, session.AnyHead); err != nil {
					t.Fatal(err)
				}
			}
			for _, list := range tc.lists {
				importTasks(t, p, list, []string{"1"})
			}
			home := filepath.Dir(filepath.Dir(paths.ProjectDir()))
			before, dirsBefore := treeFiles(t, home), treeEntries(t, home)
			rep, err := p.ExportFiles(ctx, paths)
			if !tc.refuse {
				if err != nil || rep.Sessions != len(tc.sessions) || rep.TaskLists != len(tc.lists) {
					t.Fatalf("ExportFiles = %+v, %v", rep, err)
				}
				return
			}
			var se *storage.Error
			if !errors.As(err, &se) || !errors.Is(err, storage.ErrIDCaseCollision) {
				t.Fatalf("ExportFiles = %v, want a *storage.Error matching ErrIDCaseCollision", err)
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
