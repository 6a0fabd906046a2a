package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// Keys of the migration tests, as --key-env takes them.
const (
	migKey1 = "0101010101010101010101010101010101010101010101010101010101010101"
	migKey2 = "0202020202020202020202020202020202020202020202020202020202020202"
)

// migCodec builds the codec the CLI builds for --codec name with the key in
// environment variable env.
func migCodec(t *testing.T, name, env, keyID string) storage.Codec {
	t.Helper()
	key := keySource{}
	if env != "" {
		key.env = env
	}
	c, err := buildCodec(name, key, keyID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// migFixture writes, through the stores, a project of the home for
// workdir: a session of three batches, its context archive of two notes, its
// task list with a dependency, and a spilled output.
func migFixture(t *testing.T, home, workdir, namespace string, c storage.Codec) {
	t.Helper()
	ctx := context.Background()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Namespace: namespace, Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Codec: c, Namespace: p.Namespace, ProjectID: p.Hash}
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]session.Event{
		{session.UserEvent{Message: model.UserText("fix the build")}},
		{session.AssistantEvent{Message: model.AssistantText("looking")}, session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "c1", Content: "ok"}, Turn: 1}},
		{session.AssistantEvent{Message: model.AssistantText("done"), Usage: model.Usage{InputTokens: 900, OutputTokens: 12}, InputEstimate: 500}},
	} {
		if _, err := cp.Append(ctx, "s1", b, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	ar, err := archive.NewFileArchive(storage.SessionContextDir(p.SessionsDir, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, note := range []string{"first note", "second note"} {
		if _, err := ar.Put(ctx, note, map[string]any{"kind": "file"}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := task.NewFileStore(p.TasksDir, "s1", enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"design", "build"} {
		if _, err := st.Create(ctx, task.CreateInput{Subject: s}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Update(ctx, "2", task.UpdateInput{AddBlockedBy: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	sp, err := spill.NewFileStore(p.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Put(ctx, "spilled output"); err != nil {
		t.Fatal(err)
	}
}

// migRead reads the project of migFixture through the stores and returns
// what they give, as text; any error fails the test.
func migRead(t *testing.T, home, workdir, namespace string, c storage.Codec) string {
	t.Helper()
	ctx := context.Background()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Namespace: namespace, Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Codec: c, Namespace: p.Namespace, ProjectID: p.Hash}
	var b strings.Builder
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(ctx, "s1", 0)
	if err != nil || len(evs) != 4 {
		t.Fatalf("read session of %s: %d records, %v", home, len(evs), err)
	}
	for _, ev := range evs {
		j, _ := ev.MarshalJSON()
		b.Write(j)
		b.WriteByte('\n')
	}
	ar, err := archive.NewFileArchive(storage.SessionContextDir(p.SessionsDir, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ar.Search(ctx, archive.Query{Text: "note"})
	if err != nil || !strings.Contains(res, "second note") {
		t.Fatalf("search archive of %s: %q %v", home, res, err)
	}
	b.WriteString(res)
	st, err := task.NewFileStore(p.TasksDir, "s1", enc)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.List(ctx)
	if err != nil || len(ts) != 2 {
		t.Fatalf("list tasks of %s: %v %v", home, ts, err)
	}
	j, _ := json.Marshal(ts)
	b.Write(j)
	sp, err := spill.NewFileStore(p.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	body, ok, err := sp.Get(ctx, spill.Ref("spilled output"))
	if err != nil || !ok {
		t.Fatalf("spill of %s: %v %v", home, ok, err)
	}
	b.WriteString(body)
	return b.String()
}

// contentTree describes every entry under root by type and content, to
// prove that a migration left it byte for byte as it was. A missing root
// has no entries.
func contentTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root && os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		desc := d.Type().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += hex.EncodeToString(sum[:])
		}
		out[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s changed:\n got %v\nwant %v", what, got, want)
	}
}

// readmeRecipes returns the command lines of the code blocks of the recipes
// (the "### " subsections) of the README section "Migrating data", without
// comments and blank lines.
func readmeRecipes(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## Migrating data\n")
	if start < 0 {
		t.Fatal(`README.md has no "## Migrating data" section`)
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	recipes := strings.Index(section, "\n### ")
	if recipes < 0 {
		t.Fatal("the section has no recipes")
	}
	var lines []string
	in := false
	for _, l := range strings.Split(section[recipes:], "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			in = !in
		case in && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#"):
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

func TestMigrateREADMERecipesWorkAsWritten(t *testing.T) {
	lines := readmeRecipes(t)
	home := isolateEnv(t)
	workdir := filepath.Join(home, "project")
	if err := os.Mkdir(workdir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(workdir)
	dataHome := filepath.Join(home, ".lite-agent")
	migFixture(t, dataHome, workdir, "", nil)
	want := migRead(t, dataHome, workdir, "", nil)
	original := contentTree(t, dataHome)

	if len(lines) < 9 {
		t.Fatalf("the recipes have %d command lines: %q", len(lines), lines)
	}
	sawMigrate := 0
	for _, line := range lines {
		if rest, ok := strings.CutPrefix(line, "lite-agent "); ok {
			args := strings.Fields(rest)
			for i, a := range args {
				if tail, ok := strings.CutPrefix(a, "~/"); ok {
					args[i] = filepath.Join(home, tail)
				}
			}
			r := runCLI(t, args...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
			}
			if args[len(args)-1] != "--all" && strings.Contains(line, " migrate ") {
				sawMigrate++
				if !strings.Contains(r.stdout, "verified:") {
					t.Errorf("%s: %s", line, r.stdout)
				}
			}
			continue
		}
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = workdir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
	}
	if sawMigrate != 3 {
		t.Errorf("%d migrate commands, want one per recipe", sawMigrate)
	}

	// After the three recipes, the data lives under namespace acme,
	// encrypted with the second key, and reads as it did at the start.
	k2, err := os.ReadFile(filepath.Join(home, "lite-agent-k2.key"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("MIGRATE_TEST_K2", strings.TrimSpace(string(k2)))
	c := migCodec(t, codecXChaCha, "MIGRATE_TEST_K2", "k2")
	if got := migRead(t, filepath.Join(home, ".acme"), workdir, "acme", c); got != want {
		t.Errorf("after the recipes:\n got %s\nwant %s", got, want)
	}
	// Every recipe left its source in place: the first one is the
	// original home, byte for byte.
	sameTree(t, "the original home", contentTree(t, filepath.Join(home, ".lite-agent.plaintext")), original)
}

// childEnvMigrate makes the test binary a migrating child (see
// migrateChild).
const childEnvMigrate = "LITE_AGENT_MIGRATE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnvMigrate) != "" {
		os.Exit(migrateChild())
	}
	if who := os.Getenv(childEnvMCPServer); who != "" {
		os.Exit(mcpServerChild(who))
	}
	os.Exit(m.Run())
}

// migrateChild is the child of
// TestMigrateInterruptedIsReportedByVerifyAndRerunSucceeds: it migrates
// $MIGRATE_FROM to $MIGRATE_TO, says "ready" on stdout after two files,
// and waits there, mid-migration, to be killed.
func migrateChild() int {
	to, err := buildCodec(codecXChaCha, keySource{env: "MIGRATE_KEY"}, "k1")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var once sync.Once
	_, err = migrate.Run(context.Background(), migrate.Options{
		From:    migrate.Endpoint{Workdir: os.Getenv("MIGRATE_WORKDIR"), Storage: storage.Options{Home: os.Getenv("MIGRATE_FROM")}},
		To:      migrate.Endpoint{Storage: storage.Options{Home: os.Getenv("MIGRATE_TO"), Codec: to}},
		Workers: 1,
		// After every file: the child stops between two files.
		ProgressInterval: -1,
		Progress: func(p migrate.Progress) {
			if p.Files < 2 {
				return
			}
			once.Do(func() { fmt.Println("ready") })
			_, _ = io.Copy(io.Discard, os.Stdin) // until killed
		},
	})
	fmt.Fprintln(os.Stderr, "the migration finished:", err)
	return 3
}

func TestMigrateInterruptedIsReportedByVerifyAndRerunSucceeds(t *testing.T) {
	isolateEnv(t)
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "new")
	const workdir = "/srv/app"
	migFixture(t, src, workdir, "", nil)
	before := contentTree(t, src)
	t.Setenv("MIGRATE_KEY", migKey1)

	child := childtest.Start(t, "ready", childEnvMigrate+"=1", "MIGRATE_FROM="+src, "MIGRATE_TO="+dst, "MIGRATE_WORKDIR="+workdir)
	if err := child.Kill(); err != nil {
		t.Fatal(err)
	}
	childtest.StaleLocks(t, dst) // the migration's lock, which the killed child held
	sameTree(t, "the source", contentTree(t, src), before)

	target := []string{"--home", dst, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "MIGRATE_KEY"}
	r := runCLI(t, append(target, "verify")...)
	if r.code != 1 || !strings.Contains(r.stdout, "migration: incomplete migration") {
		t.Fatalf("verify of the interrupted destination: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, append(target, "verify", "--json")...)
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 1 || len(rep.Problems) == 0 || rep.Problems[0].Kind != "migration" {
		t.Fatalf("verify --json: exit %d, %v, %s", r.code, err, r.stdout)
	}

	r = runCLI(t, "--home", src, "--workdir", workdir, "migrate", "--to-home", dst, "--to-codec", codecXChaCha, "--to-key-env", "MIGRATE_KEY")
	if r.code != 0 {
		t.Fatalf("rerun: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, append(target, "verify")...)
	if r.code != 0 {
		t.Fatalf("verify after the rerun: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, want := migRead(t, dst, workdir, "", migCodec(t, codecXChaCha, "MIGRATE_KEY", "k1")), migRead(t, src, workdir, "", nil); got != want {
		t.Errorf("destination differs:\n got %s\nwant %s", got, want)
	}
	sameTree(t, "the source", contentTree(t, src), before)
}

func TestMigrateBadInputExitsWithOneLine(t *testing.T) {
	isolateEnv(t)
	t.Setenv("K1", migKey1)
	t.Setenv("K2", migKey2)
	const workdir = "/srv/app"
	for _, tc := range []struct {
		name string
		// args gets the source home and the destination home.
		args    func(src, dst string) []string
		prepare func(t *testing.T, src, dst string)
		code    int
		want    string
	}{
		{
			name: "wrong source codec",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "migrate", "--to-home", dst}
			},
			code: 1, want: "records are encoded with xchacha20poly1305.v1.k1; pass --codec xchacha20poly1305 and its key",
		},
		{
			name: "wrong source key",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K2", "migrate", "--to-home", dst}
			},
			code: 1, want: "if the source's --codec and key are right",
		},
		{
			// Skipping every record would leave an empty destination that
			// verifies: refused, with no hint to skip.
			name: "wrong source key, skipping unreadable records",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K2", "migrate", "--to-home", dst, "--skip-unreadable"}
			},
			code: 1, want: "no record could be decoded with the source configuration",
		},
		{
			name: "destination not empty",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", dst, "--all-projects"}
			},
			prepare: func(t *testing.T, src, dst string) {
				if err := os.MkdirAll(filepath.Join(dst, "skills"), 0o700); err != nil {
					t.Fatal(err)
				}
			},
			code: 1, want: "the destination is not empty",
		},
		{
			name: "destination inside the source",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", filepath.Join(src, "new"), "--all-projects"}
			},
			code: 1, want: "the destination is inside the source",
		},
		{
			name: "destination is the source",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", src, "--to-codec", "none"}
			},
			code: 1, want: "the destination is the source",
		},
		{
			name: "symlink in the source",
			args: func(src, dst string) []string {
				return []string{"--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", dst}
			},
			prepare: func(t *testing.T, src, dst string) {
				p, _ := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: src}})
				if err := os.Symlink("/etc/passwd", filepath.Join(p.SpillDir, "0123456789abcdef.txt")); err != nil {
					t.Fatal(err)
				}
			},
			code: 1, want: "symlink in the migrated tree",
		},
		{
			name: "missing destination home",
			args: func(src, dst string) []string { return []string{"--home", src, "migrate"} },
			code: 2, want: "--to-home",
		},
		{
			name: "destination workdir with all projects",
			args: func(src, dst string) []string {
				return []string{"--home", src, "migrate", "--to-home", dst, "--all-projects", "--to-workdir", "/srv/b"}
			},
			code: 2, want: "--to-workdir",
		},
		{
			name: "two destination key sources",
			args: func(src, dst string) []string {
				return []string{"--home", src, "migrate", "--to-home", dst, "--to-codec", codecXChaCha, "--to-key-env", "K1", "--to-key-file", "/k"}
			},
			code: 2, want: "mutually exclusive",
		},
		{
			name: "encrypting destination without a key",
			args: func(src, dst string) []string {
				return []string{"--home", src, "migrate", "--to-home", dst, "--to-codec", codecAES256GCM}
			},
			code: 2, want: "needs a key",
		},
		{
			name: "destination key without a codec",
			args: func(src, dst string) []string {
				return []string{"--home", src, "migrate", "--to-home", dst, "--to-key-env", "K2"}
			},
			code: 2, want: "need --to-codec",
		},
		{
			name: "invalid destination namespace",
			args: func(src, dst string) []string {
				return []string{"--home", src, "migrate", "--to-home", dst, "--to-namespace", "Bad"}
			},
			code: 2, want: "--to-namespace",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, dst := t.TempDir(), filepath.Join(t.TempDir(), "new")
			migFixture(t, src, workdir, "", migCodec(t, codecXChaCha, "K1", "k1"))
			if tc.prepare != nil {
				tc.prepare(t, src, dst)
			}
			before, dstBefore := contentTree(t, src), contentTree(t, dst)
			r := runCLI(t, tc.args(src, dst)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			wantOneErrorLine(t, r)
			sameTree(t, "the source", contentTree(t, src), before)
			sameTree(t, "the destination", contentTree(t, dst), dstBefore)
		})
	}
}

func TestMigrateKeepsTheSourceCodecUnlessToldAndReportsAsJSON(t *testing.T) {
	isolateEnv(t)
	t.Setenv("K1", migKey1)
	const workdir = "/srv/app"
	src := t.TempDir()
	c1 := migCodec(t, codecXChaCha, "K1", "k1")
	migFixture(t, src, workdir, "", c1)
	want := migRead(t, src, workdir, "", c1)

	// Without --to-codec the destination keeps the source's codec and key;
	// --to-workdir gives the project a new hash.
	dst := filepath.Join(t.TempDir(), "moved")
	r := runCLI(t, "--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1",
		"migrate", "--to-home", dst, "--to-namespace", "acme", "--to-workdir", "/srv/moved", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep migrate.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	oldHash, _ := storage.ProjectHash(workdir)
	newHash, _ := storage.ProjectHash("/srv/moved")
	if !rep.Verified || rep.Source.Hash != oldHash || rep.Destination.Hash != newHash || rep.Destination.Codec != c1.ID() ||
		rep.Destination.Namespace != "acme" || rep.Kinds[storage.KindCheckpoint].Records != 4 || rep.Records != 11 {
		t.Errorf("report %+v", rep)
	}
	if got := migRead(t, dst, "/srv/moved", "acme", c1); got != want {
		t.Errorf("moved project:\n got %s\nwant %s", got, want)
	}

	// --to-codec none decrypts; --dry-run writes nothing.
	plain := filepath.Join(t.TempDir(), "plain")
	r = runCLI(t, "--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", plain, "--to-codec", "none", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "dry run: would migrate project "+oldHash) {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(plain); !os.IsNotExist(err) {
		t.Errorf("dry run created %s", plain)
	}
	r = runCLI(t, "--home", src, "--workdir", workdir, "--codec", codecXChaCha, "--key-env", "K1", "migrate", "--to-home", plain, "--to-codec", "none")
	if r.code != 0 || !regexp.MustCompile(`checkpoint\s+1 files\s+4 records`).MatchString(r.stdout) || !strings.Contains(r.stdout, "verified:") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := migRead(t, plain, workdir, "", nil); got != want {
		t.Errorf("decrypted project:\n got %s\nwant %s", got, want)
	}
}

func TestVerifyReportsTheMarkerOfAnUnfinishedMigration(t *testing.T) {
	isolateEnv(t)
	const workdir = "/srv/app"
	for _, tc := range []struct {
		name   string
		marker func(home string, p storage.ProjectPaths) string // the directory holding it
	}{
		{"home", func(home string, _ storage.ProjectPaths) string { return home }},
		{"project", func(_ string, p storage.ProjectPaths) string { return p.ProjectDir() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			migFixture(t, home, workdir, "", nil)
			p, _ := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: home}})
			for _, args := range [][]string{{"verify"}, {"verify", "--all"}} {
				r := runCLI(t, append([]string{"--home", home, "--workdir", workdir}, args...)...)
				if r.code != 0 {
					t.Fatalf("%v before the marker: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
				}
			}
			marker := filepath.Join(tc.marker(home, p), migrate.MarkerName)
			if err := os.WriteFile(marker, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"verify"}, {"verify", "--all"}} {
				r := runCLI(t, append([]string{"--home", home, "--workdir", workdir}, args...)...)
				if r.code != 1 || !strings.Contains(r.stdout, "migration: incomplete migration: "+marker) {
					t.Errorf("%v with the marker: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}
