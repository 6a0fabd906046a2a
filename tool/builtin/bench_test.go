package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// ratio reports a benchmark's time per operation as a multiple of a
// baseline measured in the same run.
func ratio(b *testing.B, baseline float64, unit string) {
	if baseline > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, unit)
	}
}

func perOp(b *testing.B) float64 { return float64(b.Elapsed().Nanoseconds()) / float64(b.N) }

// BenchmarkReadFile measures read_file (path rules, an os.Root, the read
// and the UTF-16 cut) against os.ReadFile of the same file ("x-ReadFile").
func BenchmarkReadFile(b *testing.B) {
	for _, size := range []int{1 << 10, 40 << 10} {
		dir := b.TempDir()
		p := filepath.Join(dir, "f.txt")
		writeFile(b, p, strings.Repeat("0123456789abcde\n", size/16))
		tools, err := builtin.FileTools(builtin.FileOptions{Workdir: dir})
		if err != nil {
			b.Fatal(err)
		}
		read := byName(b, tools, "read_file")
		input := json.RawMessage(`{"path":"f.txt"}`)
		var baseline float64
		b.Run(fmt.Sprintf("size=%d/baseline=os.ReadFile", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := os.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
			baseline = perOp(b)
		})
		b.Run(fmt.Sprintf("size=%d/read_file", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if res, err := read.Call(context.Background(), nil, input); err != nil || res.IsError {
					b.Fatal(res.Content, err)
				}
			}
			ratio(b, baseline, "x-ReadFile")
		})
	}
}

// BenchmarkWriteFile measures write_file (path rules, a snapshot of the
// old content to an in-memory recorder, the atomic replace) against a bare
// atomic replace of the same file: temporary file, write, fsync, rename,
// fsync of the directory ("x-raw"), with and without the agent's list of
// protected paths.
func BenchmarkWriteFile(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10} {
		content := strings.Repeat("x", size)
		dir := b.TempDir()
		var baseline float64
		b.Run(fmt.Sprintf("size=%d/baseline=raw-atomic", size), func(b *testing.B) {
			p := filepath.Join(dir, "raw.txt")
			for b.Loop() {
				f, err := os.CreateTemp(dir, ".raw.*.tmp")
				if err != nil {
					b.Fatal(err)
				}
				f.WriteString(content)
				f.Sync()
				f.Close()
				if err := os.Rename(f.Name(), p); err != nil {
					b.Fatal(err)
				}
				if d, err := os.Open(dir); err == nil {
					d.Sync()
					d.Close()
				}
			}
			baseline = perOp(b)
		})
		paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: dir, Storage: storage.Options{Home: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		for _, cfg := range []struct {
			snap    bool
			protect bool
		}{{false, false}, {true, false}, {true, true}} {
			snap := cfg.snap
			opts := builtin.FileOptions{Workdir: dir}
			if snap {
				opts.Snapshots = discard{}
			}
			name := fmt.Sprintf("size=%d/write_file/snapshots=%t", size, snap)
			if cfg.protect {
				opts.Protected = paths.ProtectedPaths()
				name += "/protected"
			}
			tools, err := builtin.FileTools(opts)
			if err != nil {
				b.Fatal(err)
			}
			write := byName(b, tools, "write_file")
			input, _ := json.Marshal(map[string]string{"path": "w.txt", "content": content})
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if res, err := write.Call(context.Background(), nil, input); err != nil || res.IsError {
						b.Fatal(res.Content, err)
					}
				}
				ratio(b, baseline, "x-raw")
			})
		}
	}
}

// discard is a recorder that keeps nothing.
type discard struct{}

func (discard) RecordSnapshot(context.Context, *tool.Call, session.FileSnapshotEvent) error {
	return nil
}

// BenchmarkProtectedRefusal measures a write_file the protected list
// refuses, with no disk write to hide the cost of the check, against a
// path the workspace rules refuse before any check ("../escape.txt"): by name
// (".acme/hooks.json") and by identity only (a hard link to
// permissions.json, opened beneath the workspace first).
func BenchmarkProtectedRefusal(b *testing.B) {
	dir := b.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: dir, Storage: storage.Options{Namespace: "acme", Home: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	writeFile(b, filepath.Join(dir, ".acme", "permissions.json"), "{}")
	if err := os.Link(filepath.Join(dir, ".acme", "permissions.json"), filepath.Join(dir, "hard.json")); err != nil {
		b.Fatal(err)
	}
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: dir, Protected: paths.ProtectedPaths()})
	if err != nil {
		b.Fatal(err)
	}
	write := byName(b, tools, "write_file")
	for _, p := range []string{"../escape.txt", ".acme/hooks.json", "hard.json"} {
		input, _ := json.Marshal(map[string]string{"path": p, "content": "x"})
		b.Run("path="+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res, err := write.Call(context.Background(), nil, input); err != nil || !res.IsError {
					b.Fatal(res.Content, err)
				}
			}
		})
	}
}
