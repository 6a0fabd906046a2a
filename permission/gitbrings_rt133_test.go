//go:build linux

package permission_test

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestRT133HistoryBypasses checks lines that git runs to create the
// absent protected .lite-agent (or a host-protected conf/prod.yaml) from
// a repository's history, which the gate allowed (round rt133hist): each
// now asks, and each, run by real git, creates the protected path.
func TestRT133HistoryBypasses(t *testing.T) {
	lookGit(t)
	// hidden: a repository whose refs hold no .lite-agent, and a commit
	// no ref or reflog reaches that holds one (HIDDEN in the line).
	hidden := func(t *testing.T, wd string) string {
		gitBringsRepo(t, wd, true)
		h := commitLiteAgentOn(t, wd, "x")
		gitIn(t, wd, "branch", "-q", "-D", "x")
		gitIn(t, wd, "reflog", "expire", "--expire=now", "--all")
		return h
	}
	// folded: branch B holds Conf/a (before conf in a tree's order) and
	// conf/prod.yaml: a look that stops at the first name equal to conf
	// in any case misses the second.
	folded := func(t *testing.T, wd string) string {
		gitIn(t, wd, "init", "-q", "-b", "main")
		writeTreeMode(t, wd, map[string]string{"README": "x\n"}, 0o644)
		gitIn(t, wd, "add", "-A")
		gitIn(t, wd, "commit", "-q", "-m", "main")
		gitIn(t, wd, "checkout", "-q", "-b", "B")
		writeTreeMode(t, wd, map[string]string{"Conf/a": "a\n"}, 0o644)
		writeTreeMode(t, wd, map[string]string{"conf/prod.yaml": "y\n"}, 0o644)
		gitIn(t, wd, "add", "-A")
		gitIn(t, wd, "commit", "-q", "-m", "B")
		gitIn(t, wd, "checkout", "-q", "main")
		return ""
	}
	// worktree: the hidden commit is a linked worktree's HEAD (git
	// worktree add --detach ../wt HIDDEN, which the gate allows), which
	// git checkout worktrees/wt/HEAD reads.
	worktree := func(t *testing.T, wd string) string {
		h := hidden(t, wd)
		gitIn(t, wd, "worktree", "add", "-q", "--detach", filepath.Join(t.TempDir(), "wt"), h)
		return h
	}
	// message: the hidden commit's name is the last commit message, which
	// git reads as a ref by the name COMMIT_EDITMSG.
	message := func(t *testing.T, wd string) string {
		h := hidden(t, wd)
		gitIn(t, wd, "commit", "-q", "--allow-empty", "-m", h)
		return h
	}
	// linked: the index (not a commit) holds conf as a link to elsewhere,
	// a directory with prod.yaml, that git checkout -- . makes.
	linked := func(t *testing.T, wd string) string {
		gitBringsRepo(t, wd, true)
		writeTreeMode(t, wd, map[string]string{"elsewhere/prod.yaml": "y\n"}, 0o644)
		if err := os.Symlink("elsewhere", filepath.Join(wd, "conf")); err != nil {
			t.Fatal(err)
		}
		gitIn(t, wd, "add", "conf")
		if err := os.Remove(filepath.Join(wd, "conf")); err != nil {
			t.Fatal(err)
		}
		return ""
	}
	// collide: a tag of a blob, which a ref reaches, whose name starts
	// with the same 5 digits as the hidden commit's (SHORT5 in the line);
	// git reset --hard takes the commit, the only one the digits name
	// that it can use (git checkout calls them ambiguous).
	collide := func(t *testing.T, wd string) string {
		h := hidden(t, wd)
		blob := gitIn(t, wd, "hash-object", "-w", "--", "README")
		for i := 0; ; i++ {
			body := fmt.Sprintf("object %s\ntype blob\ntag t\ntagger t <t@e> 1 +0000\n\n%d\n", blob, i)
			sum := sha1.Sum([]byte(fmt.Sprintf("tag %d\x00%s", len(body), body)))
			if hex.EncodeToString(sum[:])[:5] != h[:5] {
				continue
			}
			c := exec.Command("git", "hash-object", "-t", "tag", "-w", "--stdin")
			c.Dir, c.Stdin = wd, strings.NewReader(body)
			out, err := c.Output()
			if err != nil {
				t.Fatal(err)
			}
			gitIn(t, wd, "update-ref", "refs/tags/t", strings.TrimSpace(string(out)))
			return h
		}
	}
	cases := []struct {
		name, line string
		setup      func(t *testing.T, wd string) string
		protected  string // relative to wd; .lite-agent when empty
	}{
		{"hidden^0", "git checkout -q HIDDEN^0", hidden, ""},
		{"hidden~0 short", "git reset -q --hard SHORT~0", hidden, ""},
		{"hidden^{tree}", "git checkout -q HIDDEN^{tree} -- .", hidden, ""},
		{"hidden^{commit}", "git checkout -q HIDDEN^{commit}", hidden, ""},
		{"range", "git cherry-pick main..HIDDEN", hidden, ""},
		{"restore --source=x^0", "git restore --source=HIDDEN^0 .", hidden, ""},
		{"restore -s attached", "git restore -sHIDDEN .", hidden, ""},
		{"restore -qs attached", "git restore -qsSHORT .", hidden, ""},
		{"switch --detach ~0", "git switch -q --detach HIDDEN~0", hidden, ""},
		{"merge short^0", "git merge -q SHORT^0", hidden, ""},
		{"case-folded sibling", "git checkout -q B", folded, "conf/prod.yaml"},
		{"a linked worktree's HEAD", "git checkout -q worktrees/wt/HEAD", worktree, ""},
		{"a linked worktree's HEAD merged", "git merge -q worktrees/wt/HEAD", worktree, ""},
		{"COMMIT_EDITMSG", "git checkout -q COMMIT_EDITMSG", message, ""},
		{"an abbreviation a tag shares, reset", "git reset -q --hard SHORT5", collide, ""},
		{"a branch the line makes", "git branch y HIDDEN && git checkout -q y", hidden, ""},
		{"a tag the line makes, short", "git tag t SHORT; git checkout -q t", hidden, ""},
		{"a fetch of . the line makes", "git fetch -q . HIDDEN:refs/heads/y && git checkout -q y", hidden, ""},
		{"COMMIT_EDITMSG the line writes", "git commit -q --allow-empty -m HIDDEN && git checkout -q COMMIT_EDITMSG", hidden, ""},
		{"COMMIT_EDITMSG the line writes, --message=", "git commit -q --allow-empty --message=HIDDEN && git checkout -q COMMIT_EDITMSG", hidden, ""},
		{"COMMIT_EDITMSG from a file the line writes", "echo HIDDEN > m.txt && git commit -q --allow-empty -F m.txt && git checkout -q COMMIT_EDITMSG", hidden, ""},
		{"a tag of a tree the line makes", "git tag t main:evil && git checkout -q t -- .", func(t *testing.T, wd string) string {
			gitBringsRepo(t, wd, false)
			gitIn(t, wd, "branch", "-q", "-D", "B")
			return ""
		}, ""},
		{"an index entry above the path", "git checkout -q -- .", linked, "conf/prod.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home, wd := t.TempDir(), t.TempDir()
			h := tc.setup(t, wd)
			line := tc.line
			if h != "" {
				line = strings.NewReplacer("HIDDEN", h, "SHORT5", h[:5], "SHORT", h[:10]).Replace(line)
			}
			prot := filepath.Join(wd, ".lite-agent")
			if tc.protected != "" {
				prot = filepath.Join(wd, filepath.FromSlash(tc.protected))
			}
			g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
				Protected: []string{filepath.Join(home, ".lite-agent"), prot}})
			if v := decideLine(t, g, line); v.Decision == permission.Allow {
				t.Errorf("%q: allowed (%s), want an ask", line, v.Reason)
			}
			out := runIn(t, home, wd, line, gitIdentity...)
			if _, err := os.Lstat(prot); err != nil {
				t.Errorf("%q did not create %s when run (%v):\n%s", line, prot, err, out)
			}
		})
	}
}

// asksAllocatingLittle checks that g asks about the bash line and
// allocates no more than 64 MiB deciding.
func asksAllocatingLittle(t *testing.T, g *permission.Gate, line string) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v := decideLine(t, g, line)
	runtime.ReadMemStats(&after)
	if v.Decision == permission.Allow {
		t.Errorf("%q: allowed (%s), want an ask", line, v.Reason)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("%q: the gate allocated %d MiB", line, n>>20)
	}
}

// decideLine decides the bash line with g.
func decideLine(t *testing.T, g *permission.Gate, line string) permission.Verdict {
	t.Helper()
	in, err := json.Marshal(map[string]string{"command": line})
	if err != nil {
		t.Fatal(err)
	}
	v, err := g.Decide(t.Context(), permission.Call{Name: "bash", Input: in})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRT133HistoryAfterUnshallow checks that what a gate remembers of a
// shallow clone's history (its commits without the protected path) does
// not hide the commits that git fetch --unshallow adds below them: one
// gate allowed git checkout -q main~1 after the fetch, which a new gate
// asks about, and which created .lite-agent.
func TestRT133HistoryAfterUnshallow(t *testing.T) {
	lookGit(t)
	up, home, parent := t.TempDir(), t.TempDir(), t.TempDir()
	gitIn(t, up, "init", "-q", "-b", "main")
	writeTreeMode(t, up, map[string]string{".lite-agent/hooks.json": "{}"}, 0o644)
	gitIn(t, up, "add", "-A")
	gitIn(t, up, "commit", "-q", "-m", "one")
	gitIn(t, up, "rm", "-q", "-r", ".lite-agent")
	if err := os.WriteFile(filepath.Join(up, "README"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, up, "add", "-A")
	gitIn(t, up, "commit", "-q", "-m", "two")
	gitIn(t, parent, "clone", "-q", "--depth", "1", "file://"+up, "wd")
	wd := filepath.Join(parent, "wd")
	g := bringsGate(home, wd)
	if v := decideLine(t, g, "git checkout -q main"); v.Decision != permission.Allow {
		t.Fatalf("the shallow clone: %v (%s), want it allowed", v.Decision, v.Reason)
	}
	gitIn(t, wd, "fetch", "-q", "--unshallow")
	line := "git checkout -q main~1"
	if v := decideLine(t, g, line); v.Decision == permission.Allow {
		t.Errorf("%q after the fetch: allowed (%s), want an ask", line, v.Reason)
	}
	out := runIn(t, home, wd, line, gitIdentity...)
	if _, err := os.Lstat(filepath.Join(wd, ".lite-agent")); err != nil {
		t.Errorf("%q did not create .lite-agent when run (%v):\n%s", line, err, out)
	}
}

// TestRT133LooseObjectBomb checks that a loose object whose zlib stream
// inflates far beyond the size its header gives (a commit of 100 bytes
// followed by 256 MiB of zeros, 256 KB on disk) is not inflated whole: go-git's
// storage read it to the end (4 GiB took 48 s and 15 GB of memory in
// lite-agent permissions check). git calls it corrupt; the line asks.
func TestRT133GitLooseObjectBomb(t *testing.T) {
	lookGit(t)
	home, wd := t.TempDir(), t.TempDir()
	gitBringsRepo(t, wd, true)
	b := gitIn(t, wd, "rev-parse", "B")
	p := filepath.Join(wd, ".git", "objects", b[:2], b[2:])
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write([]byte("commit 100\x00"))
	zeros := make([]byte, 1<<20)
	for range 256 {
		zw.Write(zeros)
	}
	zw.Close()
	os.Chmod(p, 0o644)
	if err := os.WriteFile(p, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g := bringsGate(home, wd)
	asksAllocatingLittle(t, g, "git checkout -q B")
}

// TestRT133IndexRead checks the index the history check reads itself: an
// entry of .lite-agent that only the index holds (behind many others,
// whose names a version 4 index shares prefixes of, and an entry with
// extended flags) makes git checkout -- . ask in versions 2, 3 and 4, a
// split index asks, and a large index without it (200,000 entries) is
// read without keeping its entries: go-git's decoder took 6.8 s and 620
// MB for 1.5 million.
func TestRT133GitIndexRead(t *testing.T) {
	lookGit(t)
	gate := func(home, wd string) *permission.Gate {
		return bringsGate(home, wd)
	}
	entries := func(t *testing.T, wd string, n int, extra string) {
		blob := gitIn(t, wd, "hash-object", "-w", "--", "README")
		var in strings.Builder
		for i := range n {
			fmt.Fprintf(&in, "100644 %s\td%03d/sub/a-file-with-a-long-name-%07d.txt\n", blob, i%1000, i)
		}
		if extra != "" {
			fmt.Fprintf(&in, "100644 %s\t%s\n", blob, extra)
		}
		c := exec.Command("git", "update-index", "--index-info")
		c.Dir, c.Stdin = wd, strings.NewReader(in.String())
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	for _, tc := range []struct {
		name string
		args []string // git update-index args after the entries are in
		ask  bool
	}{
		{"version 2", []string{"--index-version", "2"}, true},
		{"version 3", []string{"--index-version", "3"}, true},
		{"version 4", []string{"--index-version", "4"}, true},
		{"split", []string{"--split-index"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, wd := t.TempDir(), t.TempDir()
			gitBringsRepo(t, wd, true)
			entries(t, wd, 3000, ".lite-agent/hooks.json")
			gitIn(t, wd, "add", "--intent-to-add", "--", "README") // no change; an i-t-a entry needs a new file
			os.WriteFile(filepath.Join(wd, "new.txt"), []byte("n\n"), 0o644)
			gitIn(t, wd, "add", "--intent-to-add", "new.txt")
			gitIn(t, wd, append([]string{"update-index"}, tc.args...)...)
			line := "git checkout -q -- ."
			if v := decideLine(t, gate(home, wd), line); (v.Decision != permission.Allow) != tc.ask {
				t.Errorf("%q: %v (%s)", line, v.Decision, v.Reason)
			}
		})
	}
	t.Run("large", func(t *testing.T) {
		home, wd := t.TempDir(), t.TempDir()
		gitBringsRepo(t, wd, true)
		entries(t, wd, 200000, "")
		gitIn(t, wd, "update-index", "--index-version", "4")
		// What the gate allocates for git checkout, beyond what it does
		// for git status (which lists the index's submodules too).
		alloc := func(line string) (uint64, permission.Verdict) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			v := decideLine(t, gate(home, wd), line)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc, v
		}
		base, _ := alloc("git status")
		n, v := alloc("git checkout -q B")
		if v.Decision != permission.Allow {
			t.Errorf("%v (%s), want it allowed", v.Decision, v.Reason)
		}
		if n > base+16<<20 {
			t.Errorf("the history check allocated %d MiB", (n-base)>>20)
		}
	})
}

// TestRT133OrdinaryLinesStayAllowed checks lines of several git commands
// in a repository whose history never held .lite-agent: the words of
// the other commands, which now count as revisions the line may name,
// leave them allowed.
func TestRT133GitOrdinaryLinesStayAllowed(t *testing.T) {
	lookGit(t)
	home, wd := t.TempDir(), t.TempDir()
	gitBringsRepo(t, wd, true)
	main := gitIn(t, wd, "rev-parse", "main")
	gitIn(t, wd, "remote", "add", "origin", "https://example.com/x.git")
	g := bringsGate(home, wd)
	for _, line := range []string{
		"git add -A && git commit -q -m 'fix the parser' && git checkout -q B",
		"git branch y " + main, "git branch y main", "git tag -a v1 -m 'release: 1.0'", "git fetch -q origin main:main",
		"git commit -qam 'fix: the parser' --allow-empty && git checkout -q B",
		"git commit -q -m 'fix: the parser' --allow-empty && git checkout -q B",
		"git commit -q '-mfix: the parser' --allow-empty && git checkout -q B",
		"git stash -q && git checkout -q B && git stash pop -q",
		"git log --oneline -3 && git checkout -q B~0",
		"git branch y " + main[:8] + " && git checkout -q y",
		"git diff --stat HEAD~1 && git reset -q --hard B",
		"git commit -q --allow-empty -m " + main + " && git checkout -q B",
		"git checkout -q B^0", "git restore -s" + main[:10] + " .", "git merge -q " + main[:7] + "^0",
	} {
		if v := decideLine(t, g, line); v.Decision != permission.Allow {
			t.Errorf("%q: %v (%s), want it allowed", line, v.Decision, v.Reason)
		}
	}
}

// TestRT133DeltaChain checks a repository with a pack (as a clone from a
// remote keeps it) whose tree is at the end of a chain of 50,000 deltas
// of 50 bytes: go-git resolved it by recursion, keeping every level (a
// million took 7 s and 2.4 GB where git takes 0.6 s); the check now
// looks at the chain's length first, and the line asks.
func TestRT133GitDeltaChain(t *testing.T) {
	lookGit(t)
	home, wd := t.TempDir(), t.TempDir()
	gitBringsRepo(t, wd, true)
	const n = 50000
	hdr := func(typ byte, size int) []byte {
		b := []byte{typ<<4 | byte(size&15)}
		for size >>= 4; size > 0; size >>= 7 {
			b[len(b)-1] |= 0x80
			b = append(b, byte(size&0x7f))
		}
		return b
	}
	ofs := func(rel int) []byte {
		b := []byte{byte(rel & 0x7f)}
		for rel >>= 7; rel > 0; rel >>= 7 {
			rel--
			b = append([]byte{0x80 | byte(rel&0x7f)}, b...)
		}
		return b
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zip := func(b []byte) []byte {
		z.Reset()
		zw.Reset(&z)
		zw.Write(b)
		zw.Close()
		return z.Bytes()
	}
	empty, _ := hex.DecodeString("e69de29bb2d1d6434b8b29ae775a0c2d1ad4fbe9")
	var pack bytes.Buffer
	pack.WriteString("PACK\x00\x00\x00\x02")
	binary.Write(&pack, binary.BigEndian, uint32(n+2))
	var prev []byte
	prevOff := 0
	for i := 0; i <= n; i++ {
		tree := append([]byte(fmt.Sprintf("100644 f%09d\x00", i)), empty...)
		off := pack.Len()
		if prev == nil {
			pack.Write(hdr(2, len(tree)))
			pack.Write(zip(tree))
		} else {
			d := append([]byte{byte(len(prev)), byte(len(tree)), byte(len(tree))}, tree...)
			pack.Write(hdr(6, len(d)))
			pack.Write(ofs(off - prevOff))
			pack.Write(zip(d))
		}
		prev, prevOff = tree, off
	}
	treeSum := sha1.Sum(append([]byte(fmt.Sprintf("tree %d\x00", len(prev))), prev...))
	commit := fmt.Sprintf("tree %x\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\nchain\n", treeSum)
	pack.Write(hdr(1, len(commit)))
	pack.Write(zip([]byte(commit)))
	sum := sha1.Sum(pack.Bytes())
	pack.Write(sum[:])
	c := exec.Command("git", "index-pack", "--stdin")
	c.Dir, c.Stdin = wd, &pack
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git index-pack: %v\n%s", err, out)
	}
	commitSum := sha1.Sum([]byte(fmt.Sprintf("commit %d\x00%s", len(commit), commit)))
	gitIn(t, wd, "update-ref", "refs/heads/chain", hex.EncodeToString(commitSum[:]))
	gitIn(t, wd, "ls-tree", "chain") // git reads it
	g := bringsGate(home, wd)
	asksAllocatingLittle(t, g, "git checkout -q main")
}

// TestRT133RefToAHiddenCommit checks that a git command that points a ref
// (or COMMIT_EDITMSG, or a linked worktree's HEAD) at a commit no ref
// reaches asks: run in the background, git branch -f B H moved B after a
// later line, sleep 3; git checkout -q B, was judged on the old B, and
// the two lines, both allowed, created .lite-agent.
func TestRT133GitRefToAHiddenCommit(t *testing.T) {
	lookGit(t)
	home, wd := t.TempDir(), t.TempDir()
	gitBringsRepo(t, wd, true)
	h := commitLiteAgentOn(t, wd, "x")
	gitIn(t, wd, "branch", "-q", "-D", "x")
	gitIn(t, wd, "reflog", "expire", "--expire=now", "--all")
	other := filepath.Join(t.TempDir(), "other") // a repository on this machine whose main is H
	gitIn(t, wd, "clone", "-q", wd, other)
	gitIn(t, other, "fetch", "-q", wd, h)
	gitIn(t, other, "reset", "-q", "--hard", h)
	g := bringsGate(home, wd)
	for _, line := range []string{
		"(sleep 1; git fetch -q OTHER main:y) &", "(sleep 1; git branch -f B H) &", "git tag t H", "git fetch -q . H:refs/heads/y", "git push -q . H:refs/heads/y",
		"git worktree add -q --detach sub H", "git commit -q --allow-empty -m H", "git branch y SHORT",
	} {
		line = strings.NewReplacer("SHORT", h[:9], "H", h, "OTHER", other).Replace(line)
		if v := decideLine(t, g, line); v.Decision == permission.Allow {
			t.Errorf("%q: allowed (%s), want an ask", line, v.Reason)
		}
	}
	// The line after a commit -F in the background, which git reads.
	if v := decideLine(t, g, "sleep 3; git checkout -q COMMIT_EDITMSG"); v.Decision == permission.Allow {
		t.Errorf("git checkout COMMIT_EDITMSG: allowed (%s), want an ask", v.Reason)
	}
	// What the two lines do when run.
	runIn(t, home, wd, "(sleep 1; git branch -f B "+h+") &", gitIdentity...)
	out := runIn(t, home, wd, "sleep 3; git checkout -q B", gitIdentity...)
	if _, err := os.Lstat(filepath.Join(wd, ".lite-agent")); err != nil {
		t.Errorf("the lines did not create .lite-agent when run (%v):\n%s", err, out)
	}
}
