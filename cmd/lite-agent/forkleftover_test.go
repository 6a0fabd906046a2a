package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/task"
)

// A fork killed before it wrote its log leaves a copied context archive
// and a task list marked task.ForkMarker, and no session lists them (the
// root package's TestAKilledForksLeftoversAreMarkedAndSwept kills a real
// one). verify must name both, as warnings (they are not damage; cleanup
// removes them once old), and never a real list without a log (a shared
// list has none).
func TestVerifyWarnsOfWhatAKilledForkLeft(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	copyTree := func(from, to string) {
		err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(from, path)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(to, rel), 0o700)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(to, rel), b, 0o600)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	archiveDir := filepath.Join(p.SessionsDir, "f1.context")
	listDir := filepath.Join(p.TasksDir, "f1")
	copyTree(filepath.Join(p.SessionsDir, "s1.context"), archiveDir)
	copyTree(filepath.Join(p.TasksDir, "s1"), listDir)
	if err := os.WriteFile(filepath.Join(listDir, task.ForkMarker), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "verify", "--json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); r.code != 0 || err != nil {
		t.Fatalf("verify: code %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	var files []string
	for _, w := range rep.Warnings {
		if w.Kind == "leftover" {
			files = append(files, w.File)
		}
	}
	slices.Sort(files)
	if want := []string{archiveDir, listDir}; !slices.Equal(files, want) {
		t.Errorf("leftover warnings %q, want %q (all warnings %+v)", files, want, rep.Warnings)
	}
}
