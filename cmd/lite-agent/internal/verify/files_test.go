package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

func TestTaskListsListsValidListDirectoriesOnly(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"b", "a", "a.lock", "not valid"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "c"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, dir, only string
		want            []string
	}{
		{"every list", dir, "", []string{"a", "b"}},
		{"one list", dir, "b", []string{"b"}},
		{"a missing list", dir, "zz", nil},
		{"a missing directory", filepath.Join(dir, "none"), "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TaskLists(tt.dir, tt.only)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("TaskLists(%q) = %v, %v; want %v", tt.only, got, err, tt.want)
			}
		})
	}
	if _, err := os.Lstat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("TaskLists created its directory: %v", err)
	}
}

func TestFilesReportsDamageAndUnfinishedMigrations(t *testing.T) {
	for _, tt := range []struct {
		name         string
		setup        func(t *testing.T, home, project string)
		projects     int
		files        int
		problemKinds []string
	}{
		{"missing project", func(*testing.T, string, string) {}, 0, 0, nil},
		{"empty project", func(t *testing.T, _, project string) { mkdir(t, project) }, 1, 0, nil},
		{"marker in the home", func(t *testing.T, home, project string) {
			mkdir(t, project)
			write(t, filepath.Join(home, migrate.MarkerName), "{}")
		}, 1, 0, []string{"migration"}},
		{"damaged task record", func(t *testing.T, _, project string) {
			list := filepath.Join(project, storage.TasksDirName, "l1")
			mkdir(t, list)
			write(t, filepath.Join(list, "1"+task.RecordSuffix), "{not json")
		}, 1, 1, []string{"record"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(storage.ProjectsDir(home), "p1")
			tt.setup(t, home, project)
			rep := Report{Problems: []Problem{}}
			if err := Files(context.Background(), home, []string{project}, nil, storage.DefaultNamespace, &rep); err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, pr := range rep.Problems {
				kinds = append(kinds, pr.Kind)
			}
			if rep.Projects != tt.projects || rep.Files != tt.files || !slices.Equal(kinds, tt.problemKinds) || rep.ProblemCount != len(kinds) {
				t.Errorf("report %+v; want %d projects, %d files, problems %v", rep, tt.projects, tt.files, tt.problemKinds)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestFilesReportsSessionLogsInDirectoryOrder checks many logs at once (the
// checks run several at a time) and expects the report one at a time would
// give: every log counted, damage and warnings in the directory's order.
func TestFilesReportsSessionLogsInDirectoryOrder(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	project := filepath.Join(home, "projects", "p")
	dir := filepath.Join(project, storage.SessionsDirName)
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const logs = 40
	var damaged, torn []string
	for i := range logs {
		id := fmt.Sprintf("s%02d", i)
		ev := session.UserEvent{Message: model.Message{Role: model.RoleUser, Text: "hello " + id}}
		if _, err := cp.Append(ctx, id, []session.Event{ev, ev}, 0); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, id+session.LogSuffix)
		switch {
		case i%7 == 3:
			appendTo(t, file, "{not a record}\n")
			damaged = append(damaged, file)
		case i%11 == 5:
			appendTo(t, file, `{"seq":3`)
			torn = append(torn, file)
		}
	}
	var rep Report
	if err := Files(ctx, home, []string{project}, nil, "", &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Files != logs {
		t.Errorf("Files = %d, want %d", rep.Files, logs)
	}
	var gotDamaged, gotTorn []string
	for _, p := range rep.Problems {
		gotDamaged = append(gotDamaged, p.File)
	}
	for _, w := range rep.Warnings {
		gotTorn = append(gotTorn, w.File)
	}
	if !slices.Equal(gotDamaged, damaged) || !slices.Equal(gotTorn, torn) {
		t.Errorf("problems in %v, warnings in %v; want %v and %v", gotDamaged, gotTorn, damaged, torn)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Files(cctx, home, []string{project}, nil, "", &Report{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Files with a cancelled context = %v, want context.Canceled", err)
	}
}

func appendTo(t *testing.T, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFilesReportsATornArchiveIndexTailAsAWarning checks that a context
// archive whose index ends with a torn tail (a put killed while appending)
// is reported as a session log's torn tail is: a warning, not a problem;
// and that the tails a put set aside are not checked as records.
func TestFilesReportsATornArchiveIndexTailAsAWarning(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	project := filepath.Join(home, "projects", "p")
	ctxDir := storage.SessionContextDir(filepath.Join(project, storage.SessionsDirName), "s1")
	enc := storage.Encoding{ProjectID: "p"}
	ar, err := archive.NewFileArchive(ctxDir, archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ar.Put(ctx, "kept", nil); err != nil {
		t.Fatal(err)
	}
	// The archive's session has a log: an archive without one is a
	// leftover, warned of apart.
	write(t, filepath.Join(project, storage.SessionsDirName, "s1.jsonl"), "")
	index := filepath.Join(ctxDir, archive.IndexFile)
	appendTo(t, index, `{"ref":"0123`)
	write(t, filepath.Join(ctxDir, archive.TornPrefix+"1753185600000"), "an older torn tail")
	var rep Report
	if err := Files(ctx, home, []string{project}, nil, "", &rep); err != nil {
		t.Fatal(err)
	}
	if rep.ProblemCount != 0 || len(rep.Warnings) != 1 {
		t.Fatalf("problems %+v, warnings %+v; want one warning", rep.Problems, rep.Warnings)
	}
	if w := rep.Warnings[0]; w.File != index || w.Kind != string(storage.ProblemTorn) || w.Record != "1" {
		t.Errorf("warning %+v, want a torn tail of %s at line 1", w, index)
	}
}
