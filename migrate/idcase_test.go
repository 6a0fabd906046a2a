package migrate_test

import (
	"errors"
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A file home on a case-sensitive file system may hold sessions, or task
// lists, whose ids differ only in case (abc.jsonl and ABC.jsonl). Their
// copy in a new home is one file on a case-insensitive file system
// (macOS's, where a migrated home may be copied), where one replaces the
// other. A migration refuses such a source with a *storage.Error matching
// storage.ErrIDCaseCollision before it writes anything, the dry run too,
// and the source stays as it was.
func TestMigrationRefusesIDsThatDifferOnlyInCase(t *testing.T) {
	cases := []struct {
		name     string
		sessions []string
		lists    []string
		all      bool
		refuse   bool
	}{
		{"two sessions", []string{"abc", "ABC"}, nil, false, true},
		{"two sessions, whole home", []string{"abc", "ABC"}, nil, true, true},
		{"two task lists", []string{"s1"}, []string{"list", "List"}, false, true},
		{"a session and a list", []string{"abc"}, []string{"ABC"}, false, false},
	}
	for _, tc := range cases {
		for _, dry := range []bool{false, true} {
			name := tc.name
			if dry {
				name += ", dry run"
			}
			t.Run(name, func(t *testing.T) {
				ctx := t.Context()
				home := t.TempDir()
				p := resolve(t, workdir, storage.Options{Home: home})
				enc := storage.Encoding{Namespace: p.Namespace, ProjectID: p.Hash}
				cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range tc.sessions {
					if _, err := cp.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("hi " + id)}}, session.AnyHead); err != nil {
						t.Fatal(err)
					}
				}
				for _, list := range tc.lists {
					st, err := task.NewFileStore(p.TasksDir, list, enc)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := st.Create(ctx, task.CreateInput{Subject: "in " + list}); err != nil {
						t.Fatal(err)
					}
				}
				before := treeHash(t, home)
				dstHome := t.TempDir()
				rep, err := migrate.Run(ctx, migrate.Options{
					From:        migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
					To:          migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
					AllProjects: tc.all,
					DryRun:      dry,
				})
				unchanged(t, home, before)
				if !tc.refuse {
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					return
				}
				var se *storage.Error
				if !errors.As(err, &se) || !errors.Is(err, storage.ErrIDCaseCollision) {
					t.Fatalf("Run = %+v, %v; want a *storage.Error matching ErrIDCaseCollision", rep, err)
				}
				if ents, err := os.ReadDir(dstHome); err != nil || len(ents) != 0 {
					t.Errorf("the refused migration wrote %v (%v)", ents, err)
				}
			})
		}
	}
}
