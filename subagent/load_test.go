package subagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/subagent"
)

// layout resolves a layout under the namespace ns with its home and
// workdir in a temporary directory.
func layout(t *testing.T, ns string) storage.ProjectPaths {
	t.Helper()
	root := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: filepath.Join(root, "work"),
		Storage: storage.Options{Namespace: ns, Home: filepath.Join(root, "home")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// write creates the file dir/rel with content, and its directories.
func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func names(defs []subagent.Definition) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name+"@"+string(d.Source))
	}
	return out
}

func TestLoadSeedsGeneralPurposeFirstAndLaterDirectoriesOverride(t *testing.T) {
	paths := layout(t, "acme")
	extra := t.TempDir()
	write(t, paths.GlobalAgentsDir, "reviewer.md", "---\ndescription: global reviewer\n---\nglobal body")
	write(t, paths.GlobalAgentsDir, "planner.md", "---\ndescription: plans\n---\nplan")
	write(t, paths.ProjectAgentsDir, "nested/deeper/reviewer.md", "---\ndescription: project reviewer\n---\nproject body")
	write(t, paths.ProjectAgentsDir, "README.md", "# Our agents\nNo frontmatter here.\n")
	write(t, paths.ProjectAgentsDir, "empty.md", "---\n---\nbody without keys\n")
	write(t, paths.ProjectAgentsDir, "notes.txt", "---\nname: ignored\n---\n")
	write(t, extra, "gp.md", "---\nname: general-purpose\ndescription: replaced\n---\nmine")
	write(t, extra, "planner.md", "---\nmodel: simple\n---\n")

	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths, ExtraDir: extra})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"general-purpose@extra", "planner@extra", "reviewer@project"}
	if diff := cmp.Diff(want, names(defs)); diff != "" {
		t.Fatalf("definitions (-want +got):\n%s", diff)
	}
	if defs[0].Description != "replaced" || defs[0].Prompt != "mine" {
		t.Errorf("general-purpose = %+v", defs[0])
	}
	if defs[1].Description != subagent.NoDescription || defs[1].Model != "simple" || defs[1].Prompt != "" {
		t.Errorf("planner = %+v", defs[1])
	}
	if defs[2].Description != "project reviewer" || defs[2].Prompt != "project body" ||
		defs[2].Path != filepath.Join(paths.ProjectAgentsDir, "nested", "deeper", "reviewer.md") {
		t.Errorf("reviewer = %+v", defs[2])
	}
}

func TestLoadWithoutDirectoriesGivesTheBuiltIn(t *testing.T) {
	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: layout(t, "lite-agent")})
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != subagent.GeneralPurposeName || defs[0].Source != subagent.SourceBuiltin ||
		defs[0].Tools != nil || defs[0].Model != "" || !strings.Contains(defs[0].Prompt, "assumptions") {
		t.Fatalf("defs = %+v", defs)
	}
}

func TestCustomNamespaceProjectDirIsFoundAndDefaultIgnored(t *testing.T) {
	paths := layout(t, "acme")
	if filepath.Base(filepath.Dir(paths.ProjectAgentsDir)) != ".acme" {
		t.Fatalf("project agents dir %s", paths.ProjectAgentsDir)
	}
	write(t, paths.ProjectAgentsDir, "acme-only.md", "---\ndescription: from .acme\n---\n")
	write(t, paths.GlobalAgentsDir, "home-one.md", "---\ndescription: from home\n---\n")
	write(t, filepath.Join(paths.Workdir(), ".lite-agent", "agents"), "lite-only.md", "---\ndescription: from .lite-agent\n---\n")
	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"general-purpose@builtin", "home-one@global", "acme-only@project"}
	if diff := cmp.Diff(want, names(defs)); diff != "" {
		t.Fatalf("definitions (-want +got):\n%s", diff)
	}
}

func TestParseFrontmatterRules(t *testing.T) {
	const path = "/agents/sub/reviewer.md"
	for _, tc := range []struct {
		name, src string
		ok        bool
		want      subagent.Definition
		err       string
	}{
		{name: "NoFrontmatterIsSkipped", src: "# Title\nbody"},
		{name: "EmptyFrontmatterIsSkipped", src: "---\n---\nbody"},
		{name: "CommentOnlyFrontmatterIsSkipped", src: "---\n# just a comment\n---\nbody"},
		{name: "NameDefaultsToFileName", src: "---\ndescription: d\n---\n\n  Body text  \n", ok: true,
			want: subagent.Definition{Name: "reviewer", Description: "d", Prompt: "Body text", Path: path}},
		{name: "UnknownKeysCountAsKeys", src: "---\ncolor: blue\n---\nx", ok: true,
			want: subagent.Definition{Name: "reviewer", Description: subagent.NoDescription, Prompt: "x", Path: path}},
		{name: "ToolsList", src: "---\ntools: [ read_file , '', grep ]\n---\n", ok: true,
			want: subagent.Definition{Name: "reviewer", Description: subagent.NoDescription, Tools: []string{"read_file", "grep"}, Path: path}},
		{name: "ToolsCommaString", src: "---\ntools: ' read_file,, grep ,bash'\n---\n", ok: true,
			want: subagent.Definition{Name: "reviewer", Description: subagent.NoDescription, Tools: []string{"read_file", "grep", "bash"}, Path: path}},
		{name: "EmptyToolsInherit", src: "---\ntools: ' , '\n---\n", ok: true,
			want: subagent.Definition{Name: "reviewer", Description: subagent.NoDescription, Path: path}},
		{name: "ExplicitNameAndModel", src: "---\nname: ' Sec Review '\nmodel: claude-x\ndescription: |\n  two\n  lines\n---\n", ok: true,
			want: subagent.Definition{Name: "Sec Review", Description: "two lines", Model: "claude-x", Path: path}},
		{name: "CRLFAndBOM", src: "\ufeff---\r\nname: x\r\n---\r\nbody\r\n", ok: true,
			want: subagent.Definition{Name: "x", Description: subagent.NoDescription, Prompt: "body", Path: path}},
		{name: "ReadmeOpeningWithARule", src: "---\nSome notes\n"},       // no second rule: no agent
		{name: "ProseBetweenRules", src: "---\nSome notes\n---\nmore\n"}, // no keys: no agent
		{name: "ListOfProse", src: "---\n- a\n- b\n---\n"},               // not a mapping: no agent
		// A broken definition still fails: skipped, it would let another
		// definition of the same name stand in for it.
		{name: "UnterminatedFrontmatter", src: "---\nname: x\ntools: [read_file]\n", err: "no closing"},
		{name: "FieldsAsAList", src: "---\n- name: reviewer\n- tools: read_file\n---\n", err: "mapping"},
		{name: "QuotedKeysUnterminated", src: "---\n\"name\": reviewer\n'tools': [read_file]\n", err: "no closing"},
		{name: "FlowStyleUnterminated", src: "---\n{name: reviewer, tools: [read_file]}\n", err: "no closing"},
		{name: "ExplicitKeyUnterminated", src: "---\n? tools\n: read_file\n", err: "no closing"},
		{name: "CapitalisedKeysUnterminated", src: "---\nName: reviewer\nTools: [read_file]\n", err: "no closing"},
		{name: "DuplicateKey", src: "---\nname: a\nname: b\n---\n", err: "duplicate key"},
		{name: "ToolsMapping", src: "---\ntools: {a: b}\n---\n", err: "tools must be"},
		{name: "NameList", src: "---\nname: [a]\n---\n", err: "name must be a string"},
		{name: "EmptyName", src: "---\nname: '  '\n---\n", err: "name is empty"},
		{name: "ControlInName", src: "---\nname: \"a\\u0007b\"\n---\n", err: "control character"},
		{name: "InvalidUTF8", src: "---\nname: \xff\n---\n", err: "UTF-8"},
		{name: "MalformedYAML", src: "---\nname: [\n---\n", err: "frontmatter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, ok, err := subagent.Parse(path, []byte(tc.src))
			if tc.err != "" {
				var de *subagent.Error
				if !errors.As(err, &de) || de.Path != path || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want *Error naming %s containing %q", err, path, tc.err)
				}
				return
			}
			if err != nil || ok != tc.ok {
				t.Fatalf("ok, err = %v, %v; want %v", ok, err, tc.ok)
			}
			if diff := cmp.Diff(tc.want, def); diff != "" {
				t.Fatalf("definition (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadFailsNamingTheFileUnlessAskedToSkip(t *testing.T) {
	paths := layout(t, "acme")
	bad := write(t, paths.ProjectAgentsDir, "bad.md", "---\nname: a\nname: b\n---\n")
	write(t, paths.ProjectAgentsDir, "good.md", "---\ndescription: fine\n---\n")
	_, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths})
	var de *subagent.Error
	if !errors.As(err, &de) || de.Path != bad {
		t.Fatalf("err = %v, want *Error naming %s", err, bad)
	}
	var skipped []string
	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths, OnInvalid: func(e *subagent.Error) { skipped = append(skipped, e.Path) }})
	if err != nil || !slices.Equal(skipped, []string{bad}) || len(defs) != 2 || defs[1].Name != "good" {
		t.Fatalf("defs %v, skipped %v, err %v", names(defs), skipped, err)
	}
}

func TestLoadNeverFollowsLinksInsideAgentsDir(t *testing.T) {
	paths := layout(t, "acme")
	outside := write(t, t.TempDir(), "secret.md", "---\ndescription: outside\n---\n")
	if err := os.MkdirAll(paths.ProjectAgentsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(paths.ProjectAgentsDir, "linked.md")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(paths.ProjectAgentsDir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	_, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths})
	var de *subagent.Error
	if !errors.As(err, &de) || de.Path != link || !strings.Contains(de.Detail, "symbolic link") {
		t.Fatalf("err = %v, want the link refused", err)
	}
	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths, OnInvalid: func(*subagent.Error) {}})
	if err != nil || len(defs) != 1 {
		t.Fatalf("defs %v, err %v: a linked file or directory was read", names(defs), err)
	}
}

func TestLoadStopsWhenContextIsDone(t *testing.T) {
	paths := layout(t, "acme")
	write(t, paths.GlobalAgentsDir, "a.md", "---\nname: a\n---\n")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := subagent.Load(ctx, subagent.LoadOptions{Paths: paths}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestDescribeListsDefinitionsOrPlaceholder(t *testing.T) {
	if got := subagent.Describe(nil); got != "(no subagents available)" {
		t.Errorf("Describe(nil) = %q", got)
	}
	got := subagent.Describe([]subagent.Definition{
		subagent.GeneralPurpose(),
		{Name: "reviewer", Description: "old"},
		{Name: "reviewer", Description: "Reviews changes."},
	})
	want := "  - general-purpose: " + subagent.GeneralPurpose().Description + "\n  - reviewer: Reviews changes.\n"
	if got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	section := subagent.PromptSection([]subagent.Definition{{Name: "r", Description: "d"}}, subagent.PromptOptions{})
	for _, s := range []string{"\n# Subagents\n", "  - r: d\n", "Omit model to inherit the current model.\n", "Never call Agent again just to wait"} {
		if !strings.Contains(section, s) {
			t.Errorf("section lacks %q:\n%s", s, section)
		}
	}
	section = subagent.PromptSection(nil, subagent.PromptOptions{ModelCatalog: "Choose model from these configured profiles: simple: bounded read-only lookup (m)."})
	if !strings.Contains(section, "(no subagents available)\nChoose model") || strings.Contains(section, "Omit model") {
		t.Errorf("section:\n%s", section)
	}
}

func TestSystemPromptPrefix(t *testing.T) {
	got := subagent.SystemPrompt("reviewer", "/w", "Body.")
	want := "You are the \"reviewer\" subagent operating in /w. Return your final answer as your last message.\n\nBody."
	if got != want {
		t.Errorf("got %q", got)
	}
	if got := subagent.SystemPrompt("x", "/w", ""); strings.HasSuffix(got, "\n") {
		t.Errorf("empty body: %q", got)
	}
}

// A cloned repository's .acme/agents linked outside the workdir would hand
// the definitions (and any .md with frontmatter) found there to the model:
// Load refuses it.
func TestProjectAgentsDirLinkedOutsideTheWorkdirIsRefused(t *testing.T) {
	paths := layout(t, "acme")
	outside := t.TempDir()
	write(t, outside, "priv.md", "---\nname: priv\ndescription: private notes\n---\nsecret\n")
	if err := os.MkdirAll(filepath.Dir(paths.ProjectAgentsDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, paths.ProjectAgentsDir); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	defs, err := subagent.Load(t.Context(), subagent.LoadOptions{Paths: paths, OnInvalid: func(*subagent.Error) {}})
	var de *subagent.Error
	if !errors.As(err, &de) || de.Path != paths.ProjectAgentsDir || !strings.Contains(de.Detail, "leads outside") {
		t.Fatalf("defs %v, err %v: want the linked directory refused", names(defs), err)
	}
}
