package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// searchBenchTree writes 2,000 files of about 2 KB in 100 directories,
// one line in fifty of the Go files holding "needle".
func searchBenchTree(b *testing.B) string {
	dir := b.TempDir()
	body := strings.Repeat("some ordinary line of source text here\n", 49) + "a needle line\n"
	for d := range 100 {
		for f := range 20 {
			ext := ".go"
			if f%4 == 0 {
				ext = ".md"
			}
			writeFile(b, filepath.Join(dir, fmt.Sprintf("pkg%03d/sub/f%02d%s", d, f, ext)), body)
		}
	}
	writeFile(b, filepath.Join(dir, ".gitignore"), "*.tmp\nbuild/\n")
	return dir
}

// BenchmarkSearch measures glob and grep on a tree of 2,000 files, with
// and without a Readable filter asking a real permission policy, against
// a walk that lstats every entry ("x-walk") and one that also reads every
// file and runs the regexp on it ("x-walkread"), in the same run.
func BenchmarkSearch(b *testing.B) {
	dir := searchBenchTree(b)
	re := regexp.MustCompile("needle")
	var walkBase, readBase float64
	b.Run("baseline=walk", func(b *testing.B) {
		for b.Loop() {
			n := 0
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if _, err := d.Info(); err == nil {
					n++
				}
				return nil
			})
		}
		walkBase = perOp(b)
	})
	b.Run("baseline=walkread", func(b *testing.B) {
		for b.Loop() {
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if d.Type().IsRegular() {
					data, err := os.ReadFile(p)
					if err == nil {
						re.Match(data)
					}
				}
				return nil
			})
		}
		readBase = perOp(b)
	})
	base, err := permission.New(permission.Options{Rules: []permission.Rule{permission.FilePath("secrets/**", permission.Deny)}})
	if err != nil {
		b.Fatal(err)
	}
	policy, err := permission.Workspace(base, permission.WorkspaceOptions{Workdir: dir})
	if err != nil {
		b.Fatal(err)
	}
	readable := func(ctx context.Context, _, p string) (bool, error) {
		in, _ := json.Marshal(map[string]string{"path": p})
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: in})
		return v.Decision == permission.Allow, err
	}
	for _, filter := range []string{"none", "policy"} {
		opts := builtin.SearchOptions{}
		if filter == "policy" {
			opts.Readable = readable
		}
		tools, err := builtin.SearchTools(builtin.FileOptions{Workdir: dir}, opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, tc := range []struct {
			tool, input string
			base        *float64
			unit        string
		}{
			{"glob", `{"pattern":"**/*.go"}`, &walkBase, "x-walk"},
			{"grep", `{"pattern":"needle"}`, &readBase, "x-walkread"},
			{"grep", `{"pattern":"needle","type":"go"}`, &readBase, "x-walkread"},
		} {
			tl := byName(b, tools, tc.tool)
			b.Run(fmt.Sprintf("filter=%s/%s%s", filter, tc.tool, tc.input), func(b *testing.B) {
				for b.Loop() {
					if res, err := tl.Call(context.Background(), nil, json.RawMessage(tc.input)); err != nil || res.IsError {
						b.Fatal(res.Content, err)
					}
				}
				ratio(b, *tc.base, tc.unit)
			})
		}
	}
}
