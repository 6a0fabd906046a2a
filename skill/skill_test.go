package skill_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/skill"
	"github.com/lite-agent/lite-agent-go/storage"
)

var update = flag.Bool("update", false, "rewrite golden files")

func layout(t *testing.T, ns string) (workdir string, paths storage.ProjectPaths) {
	t.Helper()
	workdir = t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: ns, Home: filepath.Join(t.TempDir(), "home")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return workdir, paths
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// skillFile returns a SKILL.md with the given name and description.
func skillFile(name, description, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body + "\n"
}

func summary(skills []skill.Skill) string {
	var lines []string
	for _, s := range skills {
		lines = append(lines, s.Name+"|"+string(s.Source)+"|"+s.Description+"|"+s.Body)
	}
	return strings.Join(lines, "\n")
}

func TestLaterDirectoriesOverrideEarlierOnes(t *testing.T) {
	_, paths := layout(t, "acme")
	extra := filepath.Join(t.TempDir(), "extra")
	writeFile(t, filepath.Join(paths.GlobalSkillsDir, "a", "SKILL.md"), skillFile("alpha", "global alpha", "ga"))
	writeFile(t, filepath.Join(paths.GlobalSkillsDir, "b", "SKILL.md"), skillFile("beta", "global beta", "gb"))
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "b", "SKILL.md"), skillFile("beta", "project beta", "pb"))
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "c", "SKILL.md"), skillFile("gamma", "project gamma", "pc"))
	writeFile(t, filepath.Join(extra, "deep", "er", "c", "SKILL.md"), skillFile("gamma", "extra gamma", "ec"))
	writeFile(t, filepath.Join(extra, "d", "SKILL.md"), skillFile("delta", "extra delta", "ed"))
	// Other file names are not skills.
	writeFile(t, filepath.Join(paths.GlobalSkillsDir, "a", "skill.md"), skillFile("lower", "x", "x"))
	writeFile(t, filepath.Join(paths.GlobalSkillsDir, "a", "README.md"), skillFile("readme", "x", "x"))

	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, ExtraDir: extra})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"alpha|global|global alpha|ga",
		"beta|project|project beta|pb",
		"gamma|extra|extra gamma|ec",
		"delta|extra|extra delta|ed",
	}, "\n")
	if got := summary(skills); got != want {
		t.Fatalf("skills:\n%s\nwant:\n%s", got, want)
	}
	if skills[2].Path != filepath.Join(extra, "deep", "er", "c", "SKILL.md") || skills[2].Dir != filepath.Join(extra, "deep", "er", "c") {
		t.Fatalf("path = %s, dir = %s", skills[2].Path, skills[2].Dir)
	}
}

func TestLaterFileInWalkOrderOverrides(t *testing.T) {
	_, paths := layout(t, "acme")
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "x", "SKILL.md"), skillFile("dup", "first", "1"))
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "y", "SKILL.md"), skillFile("dup", "second", "2"))
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(skills); got != "dup|project|second|2" {
		t.Fatalf("skills = %s", got)
	}
}

func TestCustomNamespaceFindsItsOwnProjectSkillsOnly(t *testing.T) {
	workdir, paths := layout(t, "acme")
	writeFile(t, filepath.Join(workdir, ".acme", "skills", "deploy", "SKILL.md"), skillFile("deploy", "Ship it.", "steps"))
	writeFile(t, filepath.Join(workdir, ".lite-agent", "skills", "wrong", "SKILL.md"), skillFile("wrong", "must not load", "x"))
	writeFile(t, filepath.Join(paths.Home, "skills", "global", "SKILL.md"), skillFile("global", "from the acme home", "g"))
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(skills); got != "global|global|from the acme home|g\ndeploy|project|Ship it.|steps" {
		t.Fatalf("skills = %s", got)
	}
	section := skill.PromptSection(skills)
	if !strings.Contains(section, "  - deploy: Ship it.\n") || strings.Contains(section, "wrong") {
		t.Fatalf("section = %s", section)
	}
}

func TestDefaultNamespaceReadsLiteAgentDir(t *testing.T) {
	workdir, paths := layout(t, "")
	writeFile(t, filepath.Join(workdir, ".lite-agent", "skills", "s", "SKILL.md"), skillFile("s", "d", "b"))
	writeFile(t, filepath.Join(workdir, ".acme", "skills", "t", "SKILL.md"), skillFile("t", "d", "b"))
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(skills); got != "s|project|d|b" {
		t.Fatalf("skills = %s", got)
	}
}

func TestMissingDirectoriesAreSkipped(t *testing.T) {
	_, paths := layout(t, "acme")
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, ExtraDir: filepath.Join(t.TempDir(), "none")})
	if err != nil || len(skills) != 0 {
		t.Fatalf("skills = %v, err = %v", skills, err)
	}
	if got := skill.PromptSection(skills); got != "\n# Skills\n(no skills available)\n" {
		t.Fatalf("section = %q", got)
	}
	if skill.Tool(skills) != nil {
		t.Fatal("load_skill offered without skills")
	}
}

func TestSameDirectoryIsReadOnce(t *testing.T) {
	workdir := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(workdir, ".acme")},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "s", "SKILL.md"), skillFile("s", "d", "b"))
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, ExtraDir: paths.ProjectSkillsDir})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(skills); got != "s|global|d|b" {
		t.Fatalf("skills = %s", got)
	}
}

func TestLinksInsideSkillsDirectoriesAreNotFollowed(t *testing.T) {
	_, paths := layout(t, "acme")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "---\nname: leaked\n---\nprivate key\n")
	writeFile(t, filepath.Join(outside, "linked", "SKILL.md"), skillFile("linked", "via a linked dir", "x"))
	if err := os.MkdirAll(filepath.Join(paths.ProjectSkillsDir, "evil"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "linked"), filepath.Join(paths.ProjectSkillsDir, "dirlink")); err != nil {
		t.Fatal(err)
	}

	// A linked directory is not entered.
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err != nil || len(skills) != 0 {
		t.Fatalf("skills = %v, err = %v", summary(skills), err)
	}

	// A SKILL.md that is a link is invalid.
	link := filepath.Join(paths.ProjectSkillsDir, "evil", "SKILL.md")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), link); err != nil {
		t.Fatal(err)
	}
	_, err = skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	var se *skill.Error
	if !errors.As(err, &se) || se.Path != link || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "private key") {
		t.Fatal("the link target's content leaked into the error")
	}
}

func TestLinkedSkillsDirectoryIsRead(t *testing.T) {
	_, paths := layout(t, "acme")
	real := filepath.Join(t.TempDir(), "dotfiles-skills")
	writeFile(t, filepath.Join(real, "s", "SKILL.md"), skillFile("s", "d", "b"))
	if err := os.MkdirAll(paths.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, paths.GlobalSkillsDir); err != nil {
		t.Fatal(err)
	}
	skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if len(skills) != 1 || skills[0].Path != filepath.Join(paths.GlobalSkillsDir, "s", "SKILL.md") {
		t.Fatalf("skills = %+v", skills)
	}
}

func TestInvalidSkillFailsLoadNamingTheFile(t *testing.T) {
	cases := map[string]struct {
		content string
		detail  string
	}{
		"malformed yaml":      {"---\nname: [unclosed\n---\nbody", "frontmatter:"},
		"unterminated":        {"---\nname: x\nbody without end", "no closing ---"},
		"list frontmatter":    {"---\n- a\n- b\n---\nbody", "must be a mapping"},
		"scalar frontmatter":  {"---\njust text\n---\nbody", "must be a mapping"},
		"duplicate key":       {"---\nname: a\nname: b\n---\nbody", "duplicate key"},
		"name mapping":        {"---\nname: {a: 1}\n---\nbody", "name must be a string"},
		"description list":    {"---\ndescription: [a, b]\n---\nbody", "description must be a string"},
		"tags mapping":        {"---\ntags: {a: 1}\n---\nbody", "tags must be a string or a list"},
		"tag item mapping":    {"---\ntags: [a, {b: 1}]\n---\nbody", "tags must be a string"},
		"empty name":          {"---\nname: \"  \"\n---\nbody", "name is empty"},
		"name with newline":   {"---\nname: \"a\\nb\"\n---\nbody", "control character"},
		"name too long":       {"---\nname: " + strings.Repeat("n", 129) + "\n---\nbody", "longer than 128"},
		"invalid utf8":        {"---\nname: a\xff\n---\nbody", "UTF-8"},
		"oversized":           {strings.Repeat("x", skill.MaxFileBytes+1), "larger than"},
		"tab indentation bad": {"---\nname: a\n\tdescription: b\n---\nbody", "frontmatter:"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, paths := layout(t, "acme")
			good := filepath.Join(paths.ProjectSkillsDir, "a-good", "SKILL.md")
			bad := filepath.Join(paths.ProjectSkillsDir, "b-bad", "SKILL.md")
			writeFile(t, good, skillFile("good", "fine", "ok"))
			writeFile(t, bad, tc.content)

			_, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
			var se *skill.Error
			if !errors.As(err, &se) || se.Path != bad {
				t.Fatalf("err = %v, want an *Error for %s", err, bad)
			}
			if !strings.HasPrefix(err.Error(), "invalid skill "+bad+": ") || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("message %q, want it to contain %q", err, tc.detail)
			}

			// With OnInvalid the file is reported and skipped.
			var reported []string
			skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, OnInvalid: func(e *skill.Error) { reported = append(reported, e.Path) }})
			if err != nil {
				t.Fatal(err)
			}
			if summary(skills) != "good|project|fine|ok" || len(reported) != 1 || reported[0] != bad {
				t.Fatalf("skills = %s, reported = %v", summary(skills), reported)
			}
		})
	}
}

func TestSkillsPathThatIsNotADirectoryFails(t *testing.T) {
	_, paths := layout(t, "acme")
	writeFile(t, paths.ProjectSkillsDir, "a file")
	_, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, OnInvalid: func(*skill.Error) {}})
	var se *skill.Error
	if !errors.As(err, &se) || se.Path != paths.ProjectSkillsDir || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("err = %v", err)
	}
}

func TestSkillFileThatIsAFIFOFailsWithoutBlocking(t *testing.T) {
	_, paths := layout(t, "acme")
	fifo := filepath.Join(paths.ProjectSkillsDir, "f", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
		done <- err
	}()
	select {
	case err := <-done:
		var se *skill.Error
		if !errors.As(err, &se) || se.Path != fifo || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}

func TestUnreadableSubdirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any directory")
	}
	_, paths := layout(t, "acme")
	locked := filepath.Join(paths.ProjectSkillsDir, "locked")
	writeFile(t, filepath.Join(locked, "SKILL.md"), skillFile("l", "d", "b"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o700) })
	_, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	var se *skill.Error
	if !errors.As(err, &se) || se.Path != locked || !errors.Is(err, os.ErrPermission) {
		t.Fatalf("err = %v", err)
	}
}

func TestTooManySkillFilesFails(t *testing.T) {
	_, paths := layout(t, "acme")
	for i := range skill.MaxSkills + 1 {
		writeFile(t, filepath.Join(paths.GlobalSkillsDir, "s"+strconv.Itoa(i), "SKILL.md"), "body")
	}
	_, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths})
	if err == nil || !strings.Contains(err.Error(), "more than 1000 skill files") {
		t.Fatalf("err = %v", err)
	}
}

func TestPromptSectionIsPinned(t *testing.T) {
	skills := []skill.Skill{
		{Name: "release-notes", Description: "Write release notes from the merged pull requests.", Tags: []string{"docs", "release"}},
		{Name: "db-migrations", Description: skill.NoDescription},
		{Name: "review", Description: "Review a change for security problems.", Tags: []string{"security"}},
	}
	for _, tc := range []struct {
		golden string
		skills []skill.Skill
	}{
		{"prompt.golden", skills},
		{"prompt_empty.golden", nil},
	} {
		got := skill.PromptSection(tc.skills)
		path := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Fatalf("%s changed; got:\n%s\nwant:\n%s", tc.golden, got, want)
		}
	}
}

func TestListRendersOneLinePerSkill(t *testing.T) {
	got := skill.List([]skill.Skill{{Name: "a", Description: "first"}, {Name: "b", Description: "second", Tags: []string{"x", "y z"}}})
	if want := "  - a: first\n  - b: second [x, y z]\n"; got != want {
		t.Fatalf("list = %q, want %q", got, want)
	}
	if got := skill.List(nil); got != "(no skills available)" {
		t.Fatalf("empty list = %q", got)
	}
}

func TestLoadStopsWhenTheContextIsDone(t *testing.T) {
	_, paths := layout(t, "acme")
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "s", "SKILL.md"), skillFile("s", "d", "b"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := skill.Load(ctx, skill.LoadOptions{Paths: paths}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// A cloned repository's .acme/skills (or .acme itself) linked to a directory
// outside the workdir would hand that directory's SKILL.md files to the
// model, which read_file may not read: Load refuses it. A link inside the
// workdir still works, and .acme linked to the data home is read once, as
// global.
func TestProjectSkillsDirLinkedOutsideTheWorkdirIsRefused(t *testing.T) {
	for _, linked := range []string{"skills", ""} {
		workdir, paths := layout(t, "acme")
		outside := t.TempDir()
		writeFile(t, filepath.Join(outside, "skills", "s", "SKILL.md"), skillFile("s", "outside", "private"))
		link, target := paths.ProjectSkillsDir, filepath.Join(outside, "skills")
		if linked == "" {
			link, target = filepath.Dir(paths.ProjectSkillsDir), outside
		}
		if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths, OnInvalid: func(*skill.Error) {}})
		var se *skill.Error
		if !errors.As(err, &se) || se.Path != paths.ProjectSkillsDir || !strings.Contains(se.Detail, "leads outside "+workdir) {
			t.Fatalf("link %q: skills %v, err %v: want the project directory refused", linked, summary(skills), err)
		}
	}

	workdir, paths := layout(t, "acme")
	writeFile(t, filepath.Join(workdir, "shared", "s", "SKILL.md"), skillFile("s", "inside", "b"))
	if err := os.MkdirAll(filepath.Dir(paths.ProjectSkillsDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "shared"), paths.ProjectSkillsDir); err != nil {
		t.Fatal(err)
	}
	if skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths}); err != nil || summary(skills) != "s|project|inside|b" {
		t.Fatalf("a link inside the workdir: skills %v, err %v", summary(skills), err)
	}

	workdir, paths = layout(t, "acme")
	writeFile(t, filepath.Join(paths.GlobalSkillsDir, "g", "SKILL.md"), skillFile("g", "mine", "b"))
	if err := os.Symlink(paths.Home, filepath.Join(workdir, ".acme")); err != nil {
		t.Fatal(err)
	}
	if skills, err := skill.Load(t.Context(), skill.LoadOptions{Paths: paths}); err != nil || summary(skills) != "g|global|mine|b" {
		t.Fatalf(".acme linked to the home: skills %v, err %v", summary(skills), err)
	}
}
