package permission

import (
	"bufio"
	"bytes"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// FuzzGitTreeEntry feeds treeEntries, the decoder of git tree objects the
// history check reads from a repository anyone may have made, arbitrary
// bodies and names: it must never panic, and a name it finds must be one
// of the body's entries, its object name the 20 bytes after the name.
func FuzzGitTreeEntry(f *testing.F) {
	h := bytes.Repeat([]byte{0xab}, 20)
	entry := func(mode, name string) []byte { return append([]byte(mode+" "+name+"\x00"), h...) }
	f.Add(append(entry("100644", "README"), entry("40000", ".lite-agent")...), ".lite-agent")
	f.Add(entry("40000", ".Lite-Agent"), ".lite-agent")
	f.Add(entry("120000", "conf"), "conf")
	f.Add([]byte("100644 x\x00short"), "x")
	f.Add([]byte("100644x\x00"), "x")
	f.Add(entry("40000", "K"), "\u212a") // Kelvin sign folds to k
	f.Fuzz(func(t *testing.T, body []byte, name string) {
		_ = treeEntries(body, name, func(dir bool, x plumbing.Hash) error {
			i := bytes.Index(body, x[:])
			if i < 0 {
				t.Fatalf("found %q as %x, not in the body", name, x)
			}
			if dir && !bytes.Contains(body, []byte("40000 ")) {
				t.Fatalf("found %q as a directory without a directory mode", name)
			}
			return nil
		})
	})
}

// FuzzGitHeaderLinks feeds headerLinks, the reader of commit and tag
// headers, arbitrary bodies: it must never panic, and every object it
// returns must be spelled in the headers (before the first empty line)
// after its key.
func FuzzGitHeaderLinks(f *testing.F) {
	const a, b = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	f.Add([]byte("tree "+a+"\nparent "+b+"\nauthor t <t@e> 0 +0000\n\nmsg\nparent "+a+"\n"), true)
	f.Add([]byte("object "+a+"\ntype commit\ntag v1\n\n"), false)
	f.Add([]byte("tree "+a+"\r\nparent "+b), true)
	f.Add([]byte("tree zz\nparent "+b[:39]+"\n"), true)
	f.Fuzz(func(t *testing.T, body []byte, _ bool) {
		trees, parents, objects := headerLinks(body)
		headers := bytes.ToLower(body) // git reads object names in either case
		if i := bytes.Index(headers, []byte("\n\n")); i >= 0 {
			headers = headers[:i+1]
		}
		for key, hs := range map[string][]plumbing.Hash{"tree ": trees, "parent ": parents, "object ": objects} {
			for _, x := range hs {
				if !bytes.Contains(headers, []byte(key+x.String())) {
					t.Fatalf("%s%s is not spelled in the headers %q", key, x, headers)
				}
			}
		}
	})
}

// FuzzGitIndexScan feeds scanIndex, the reader of the git index the
// history check reads, arbitrary files: it must never panic, and a file
// of n bytes is read without waiting past its end.
func FuzzGitIndexScan(f *testing.F) {
	entry := func(name string) []byte {
		b := make([]byte, 62)
		b[60], b[61] = byte(len(name)>>8), byte(len(name))
		b = append(b, name...)
		return append(b, make([]byte, 8-(62+len(name))%8)...)
	}
	v2 := append([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x02"), entry("README")...)
	v2 = append(v2, entry(".lite-agent/hooks.json")...)
	f.Add(append(v2, make([]byte, 20)...))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + string(make([]byte, 62)) + "\x00a\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00link\x00\x00\x00\x04abcd" + string(make([]byte, 20))))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = scanIndex(bufio.NewReader(bytes.NewReader(b)), int64(len(b)), []string{".lite-agent", "conf/prod.yaml"}, time.Now().Add(time.Second))
	})
}
