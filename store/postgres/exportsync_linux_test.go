package postgres_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// exportSyncEnv names the directory TestExportSyncHelper exports into
// when the test binary is run by TestAnExportSyncsTheDirectoriesItWrites.
const exportSyncEnv = "POSTGRES_EXPORT_SYNC_HELPER"

// TestExportSyncHelper is the traced child of
// TestAnExportSyncsTheDirectoriesItWrites: it exports a project of a
// session and a task list; it does nothing in a normal run.
func TestExportSyncHelper(t *testing.T) {
	out := os.Getenv(exportSyncEnv)
	if out == "" {
		t.Skip("helper of TestAnExportSyncsTheDirectoriesItWrites")
	}
	paths, enc, _ := filesProject(t)
	p := project(t, enc)
	if _, err := p.Checkpointer().Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	importTasks(t, p, "l1", []string{"1", "2"})
	if _, err := p.ExportFiles(t.Context(), paths); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(paths.ProjectDir()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// An export traced (strace) fsyncs, after creating them, the directory
// of every file it creates and the parent of every directory it makes:
// it fsynced each file and reported the export verified, and a power
// loss could still take files, or whole directories, away (their entries
// never written), after which the operator may have dropped the
// database's copy. Likewise a file whose time the export sets is fsynced
// after.
func TestAnExportSyncsTheDirectoriesItWrites(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("strace is not installed (CI is set: run scripts/install-strace.sh)")
		}
		t.Skip("strace is not installed; install it with scripts/install-strace.sh")
	}
	// The traced child needs the database too, and skips without one,
	// leaving nothing to read: skip (or, under CI, fail) here first.
	pgtest.URL(t)
	tmp := t.TempDir()
	trace, out := filepath.Join(tmp, "trace"), filepath.Join(tmp, "out")
	cmd := exec.Command(strace, "-f", "-y", "-o", trace, "-e", "trace=mkdir,mkdirat,openat,utimensat,fsync,fdatasync",
		os.Args[0], "-test.run=^TestExportSyncHelper$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), exportSyncEnv+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the traced export: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	projectDir := string(b)
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A call another thread interrupts is split over two lines: a sync
	// counts once started, a creation unless it failed on its line. The
	// export makes, creates and stamps relative to open directories
	// (mkdirat, openat, utimensat of a descriptor strace -y names with its
	// path) as well as by path (AT_FDCWD).
	const at = `(?:AT_FDCWD[^,]*|\d+<([^>]+)>), "([^"]+)"`
	mkdir := regexp.MustCompile(`mkdir(?:at)?\((?:` + at + `|"([^"]+)")`)
	create := regexp.MustCompile(`openat\(` + at + `, [^)]*O_CREAT`)
	sync := regexp.MustCompile(`f(?:data)?sync\(\d+<([^>]+)>`)
	unsynced := map[string]string{} // parent owed a sync: what was made in it
	untimed := map[string]bool{}    // files whose time was set and not synced since
	utime := regexp.MustCompile(`utimensat\(` + at)
	// named returns the path a match of at names: its name joined to the
	// directory of its descriptor, or the name alone.
	named := func(m []string, i int) string {
		if m[i] != "" && !filepath.IsAbs(m[i+1]) {
			return filepath.Join(m[i], m[i+1])
		}
		return m[i+1]
	}
	created, timed := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var made string
		if m := mkdir.FindStringSubmatch(line); m != nil {
			made = named(m, 1)
			if m[3] != "" {
				made = m[3]
			}
		} else if m := create.FindStringSubmatch(line); m != nil {
			made = named(m, 1)
		}
		switch {
		case strings.HasSuffix(made, ".lock"):
			// The verifying file stores' locks, not data.
		case made != "" && !strings.Contains(line, "= -1") && strings.HasPrefix(made, projectDir+"/"):
			unsynced[filepath.Dir(made)] = made
			created++
		case made == "":
			if m := utime.FindStringSubmatch(line); m != nil && strings.HasPrefix(named(m, 1), projectDir+"/") {
				untimed[named(m, 1)] = true
				timed++
			} else if m := sync.FindStringSubmatch(line); m != nil {
				delete(unsynced, m[1])
				delete(untimed, m[1])
			}
		}
	}
	if created < 5 {
		t.Fatalf("the trace shows %d files and directories made in %s, want at least 5: is it complete?", created, projectDir)
	}
	for dir, made := range unsynced {
		t.Errorf("%s was made in %s, which was not fsynced after", made, dir)
	}
	// A session log's time (its last write's) is set: fsynced after, or
	// a power loss may leave it the export's.
	if timed == 0 {
		t.Errorf("the trace shows no file time set in %s: is it complete?", projectDir)
	}
	for f := range untimed {
		t.Errorf("%s had its time set and was not fsynced after", f)
	}
}
