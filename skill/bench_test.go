package skill_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lite-agent/lite-agent-go/skill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// BenchmarkLoad measures Load over n skills beside reading the same files
// with os.ReadFile in the same run.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{10, 100} {
		root := b.TempDir()
		paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: filepath.Join(root, "w"), Storage: storage.Options{Namespace: "acme", Home: filepath.Join(root, "h")}})
		if err != nil {
			b.Fatal(err)
		}
		var files []string
		for i := range n {
			dir := filepath.Join(paths.ProjectSkillsDir, "s"+strconv.Itoa(i))
			os.MkdirAll(dir, 0o700)
			file := filepath.Join(dir, "SKILL.md")
			os.WriteFile(file, []byte("---\nname: s"+strconv.Itoa(i)+"\ndescription: A skill for benchmarks.\ntags: [a, b]\n---\n# Body\n\nSome instructions.\n"), 0o600)
			files = append(files, file)
		}
		b.Run("raw-read/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				for _, f := range files {
					if _, err := os.ReadFile(f); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("load/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if s, err := skill.Load(b.Context(), skill.LoadOptions{Paths: paths}); err != nil || len(s) != n {
					b.Fatal(len(s), err)
				}
			}
		})
	}
}
