package gitindex

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Gitlinks finds the gitlinks of indexes git writes: versions 2, 3
// (an intent-to-add entry has the extended flags) and 4 (names
// prefix-compressed), with SHA-1 and SHA-256 object names, among long and
// short names that share prefixes.
func TestGitlinksOfRealIndexes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, format := range []string{"sha1", "sha256"} {
		for _, version := range []string{"2", "3", "4"} {
			t.Run(format+"/v"+version, func(t *testing.T) {
				dir := t.TempDir()
				git := func(args ...string) {
					t.Helper()
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
				git("init", "-q", "--object-format="+format, ".")
				var want []string
				for i := range 40 {
					name := fmt.Sprintf("pkg/%s/file%02d.txt", strings.Repeat("d", i%7+1), i)
					if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				// A long name before a short one: version 4 strips more
				// than 127 bytes, which takes git's varint two bytes.
				long := filepath.Join(dir, "pkg", strings.Repeat("e", 150), "f.txt")
				if err := os.MkdirAll(filepath.Dir(long), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(long, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				git("add", "pkg")
				git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("cd", hashLenOf(format))+",pkh/sub")
				want = append(want, "pkh/sub")
				for i := 0; i < 40; i += 9 {
					// Added after git add, which would drop them: no directory.
					link := fmt.Sprintf("pkg/%s/sub%02d", strings.Repeat("d", i%7+1), i)
					hash := strings.Repeat("ab", 20)
					if format == "sha256" {
						hash = strings.Repeat("ab", 32)
					}
					git("update-index", "--add", "--cacheinfo", "160000,"+hash+","+link)
					want = append(want, link)
				}
				if version == "3" {
					if err := os.WriteFile(filepath.Join(dir, "later.txt"), nil, 0o644); err != nil {
						t.Fatal(err)
					}
					git("add", "-N", "later.txt")
				}
				git("update-index", "--index-version", version)
				data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
				if err != nil {
					t.Fatal(err)
				}
				if got := data[7]; fmt.Sprint(got) != version {
					t.Fatalf("index version %d, want %s", got, version)
				}
				hashLen := hashLenOf(format)
				got, err := Gitlinks(data, hashLen)
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("gitlinks = %q, want %q", got, want)
				}
				// A split index is opaque.
				git("update-index", "--split-index")
				split, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
				if err != nil {
					t.Fatal(err)
				}
				if links, err := Gitlinks(split, hashLen); err == nil {
					t.Errorf("split index read as %q", links)
				}
				git("update-index", "--no-split-index")
				// Cut anywhere in the entries, the index is opaque, never misread.
				for cut := 12; cut < len(data)-100; cut += 97 {
					if links, err := Gitlinks(data[:cut], hashLen); err == nil && len(links) == len(want) {
						t.Errorf("cut at %d: %q, nil error", cut, links)
					}
				}
			})
		}
	}
}

func hashLenOf(format string) int {
	if format == "sha256" {
		return 32
	}
	return 20
}

// Gitlinks never panics, whatever the bytes: an index a command wrote
// is the command's.
func FuzzGitlinks(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), 20)
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x02"), 32)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		if hashLen != 20 && hashLen != 32 {
			return
		}
		Gitlinks(data, hashLen)
	})
}
