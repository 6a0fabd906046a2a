package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// An index git reads otherwise than entry after entry is ErrFormat, never
// a list that lacks a gitlink git sees (round 129): git takes a name's
// length from the entry's flags, so an entry whose flags say 74 bytes
// while its name's NUL comes after one byte hid, from a reader that looks
// for the NUL, the gitlink sm after it, whose core.fsmonitor a plain git
// status in the project then ran.
func TestGitlinksAgreeWithGit(t *testing.T) {
	blob := bytes.Repeat([]byte{0xe6}, 20)
	fixed := func(mode uint32, flags uint16) []byte {
		b := make([]byte, 62)
		binary.BigEndian.PutUint32(b[24:], mode)
		copy(b[40:], blob)
		binary.BigEndian.PutUint16(b[60:], flags)
		return b
	}
	d := append([]byte("DIRC"), 0, 0, 0, 2, 0, 0, 0, 2)
	d = append(d, fixed(0o100644, 74)...) // git's name: 74 bytes
	d = append(d, "a\x00"...)             // the NUL's: "a"
	d = append(d, fixed(0o100644, 1)...)
	d = append(d, "b\x00"...)
	d = append(d, "ZZZZ\x00\x00\x00\x50"...) // an extension, to the gitlink's end
	d = append(d, make([]byte, 8)...)        // git's first entry ends here
	d = append(d, fixed(0o160000, 2)...)
	d = append(d, "sm\x00\x00\x00\x00\x00\x00\x00\x00"...)
	d = append(d, make([]byte, 20)...)
	if links, err := Gitlinks(d, 20); !errors.Is(err, ErrFormat) {
		t.Errorf("an entry whose name length is not its NUL's: %q, %v, want ErrFormat", links, err)
	}
}

// The extensions of git's threaded load, which git writes for a large
// index with index.threads, are read when they agree with the entries
// and are ErrFormat when a block would begin elsewhere.
func TestGitlinksThreadedIndex(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q", ".")
	var list strings.Builder
	for i := range 25000 {
		fmt.Fprintf(&list, "100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\tdir%03d/f%05d\n", i/100, i)
	}
	list.WriteString("160000 abababababababababababababababababababab\tdir999/sub\n")
	git(list.String(), "update-index", "--add", "--index-info")
	for _, version := range []string{"4", "2"} {
		git("", "-c", "index.threads=4", "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true",
			"update-index", "--index-version", version)
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.LastIndex(data, []byte("IEOT"))
		if i < 0 {
			t.Fatalf("v%s: git wrote no IEOT", version)
		}
		if links, err := Gitlinks(data, 20); err != nil || !slices.Equal(links, []string{"dir999/sub"}) {
			t.Errorf("v%s: %q, %v, want [dir999/sub]", version, links, err)
		}
		// The second block begins 8 bytes later.
		bad := slices.Clone(data)
		binary.BigEndian.PutUint32(bad[i+8+4+8:], binary.BigEndian.Uint32(bad[i+8+4+8:])+8)
		if links, err := Gitlinks(bad, 20); !errors.Is(err, ErrFormat) {
			t.Errorf("v%s, a block moved: %q, %v, want ErrFormat", version, links, err)
		}
		// EOIE names another start of the extensions.
		bad = slices.Clone(data)
		e := len(bad) - 20 - 8 - 24
		binary.BigEndian.PutUint32(bad[e+8:], binary.BigEndian.Uint32(bad[e+8:])-8)
		if links, err := Gitlinks(bad, 20); !errors.Is(err, ErrFormat) {
			t.Errorf("v%s, EOIE moved: %q, %v, want ErrFormat", version, links, err)
		}
	}
}
