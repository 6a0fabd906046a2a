//go:build linux

package permission_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// repoInit makes the fixture's workdir a repository with one commit of
// the file f; repoTracked does the same with id_ed25519, which it then
// removes, so that a worktree elsewhere shows that file's content.
const (
	repoInit    = `git init -q; echo a > f; git add f; git -c user.name=a -c user.email=a@b commit -qm m; `
	repoTracked = `git init -q; echo x > id_ed25519; git add id_ed25519; git -c user.name=a -c user.email=a@b commit -qm m; rm id_ed25519; `
	evilMonitor = `printf '[core]\n\tfsmonitor = cat ../home/.ssh/id_ed25519 >&2; false\n'`
	// repoNested makes sub/r a repository of its own, which the
	// workdir's records as a submodule (a gitlink, without .gitmodules).
	repoNested = `mkdir -p sub/r; (cd sub/r && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		`git init -q; git add sub/r 2>/dev/null; git -c user.name=a -c user.email=a@b commit -qm m; `
	nestedMonitor = `printf '[core]\n\tfsmonitor = cat ../../../home/.ssh/id_ed25519 >&2; false\n'`
	// craftedIndex rewrites .git/index: an entry "a" whose flags give its
	// name 74 bytes, over a second entry and an extension's header as a
	// reader that looks for the name's NUL sees them, then the gitlink
	// sub/r at the offset git computes from the flags.
	craftedIndex = `python3 -c 'import hashlib, struct, subprocess
sha = bytes.fromhex(subprocess.check_output(["git", "-C", "sub/r", "rev-parse", "HEAD"]).decode().strip())
blob = bytes.fromhex("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
def e(mode, oid, flags): return struct.pack(">10I", 0, 0, 0, 0, 0, 0, mode, 0, 0, 0) + oid + struct.pack(">H", flags)
d = b"DIRC" + struct.pack(">II", 2, 2) + e(0o100644, blob, 74) + b"a\0" + e(0o100644, blob, 1) + b"b\0"
d += b"ZZZZ" + struct.pack(">I", 80) + bytes(8) + e(0o160000, sha, 5) + b"sub/r" + bytes(5)
open(".git/index", "wb").write(d + hashlib.sha1(d).digest())'`
	// repoPartial makes the workdir a partial clone of the remote o
	// (which the case names) that lacks the blob of f's second version.
	repoPartial = repoInit + `echo b > f; git -c user.name=a -c user.email=a@b commit -qam b; b=$(git rev-parse HEAD:f); rm .git/objects/${b%${b#??}}/${b#??}; ` +
		`git config core.repositoryformatversion 1; git config extensions.partialClone o; git config remote.o.promisor true; `
	// repoModule adds ../src, whose files have the attribute filter=x,
	// as the submodule sub/r, then takes it out of the worktree (its git
	// directory stays in .git/modules/sub/r) and turns submodule.recurse
	// on.
	repoModule = `mkdir ../src; (cd ../src && git init -q && echo a > f && echo '* filter=x' > .gitattributes && git add . && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		repoInit + `git config user.name a; git config user.email a@b; git -c protocol.file.allow=always submodule add -q ../src sub/r 2>/dev/null; git commit -qm s; ` +
		`git submodule deinit -q -f sub/r; git config submodule.sub/r.url ../src; git config submodule.recurse true; `
)

// canaryRepoConfig are copied repositories (their setup stands in for an
// archive or a directory handed over) whose own git configuration makes
// an ordinary git line run a command or read outside the project
// ("GitSpawn"): each setup, then line, printed the key in real bash and
// the line was allowed, since the gate trusted what .git/config held
// before the line.
var canaryRepoConfig = []struct{ setup, line string }{
	{`git init -q; git config core.fsmonitor 'cat ../home/.ssh/id_ed25519 >&2; false'`, `git status`},
	{repoInit + `git config diff.external 'sh -c "cat ../home/.ssh/id_ed25519"'; echo b > f`, `git diff`},
	{`git init -q; git config filter.x.clean 'cat ../home/.ssh/id_ed25519'; echo '* filter=x' > .gitattributes; echo a > f`, `git add f; git show :f`},
	{repoInit + `printf '[diff.x]\n\ttextconv = cat ../home/.ssh/id_ed25519;:\n' >> .git/config; echo '* diff=x' > .gitattributes; echo b > f`, `git diff`},
	{repoTracked + `git config core.worktree ../../home/.ssh`, `git diff`},
	{`git init -q; ` + evilMonitor + ` > evil.conf; git config includeIf.gitdir:/nowhere/.path ../evil.conf; git config include.path ../evil.conf`, `git status`},
	{`git init -q; printf '[CORE]\n\tFsMonitor = "cat ../home/.ssh/id_ed25519 >&2; \\\n false"\n' >> .git/config`, `git status`},
	{`git init -q; printf '[core]\r\n\tfsmonitor = cat ../home/.ssh/id_ed25519 >&2; false\r\n' >> .git/config`, `git status`},
	{`git init -q; printf '[core] fsmonitor=cat ../home/.ssh/id_ed25519 >&2; false\n' >> .git/config`, `git status`},
	{`git init -q; git init -q --bare ../common; ` + evilMonitor + ` >> ../common/config; echo ../../common > .git/commondir`, `git status`},
	{`git init -q; printf '[extensions]\n\tworktreeConfig = true\n' >> .git/config; ` + evilMonitor + ` > .git/config.worktree`, `git status`},
	{`git init -q; git config core.fsmonitor .git/hooks/fsmon; printf '#!/bin/sh\ncat ../home/.ssh/id_ed25519 >&2\nexit 1\n' > .git/hooks/fsmon; chmod +x .git/hooks/fsmon`, `git status`},
	{repoInit + `git config core.pager 'cat ../home/.ssh/id_ed25519; cat'`, `script -qc 'git log' /dev/null`},
	{repoInit + `git config pager.log 'cat ../home/.ssh/id_ed25519; cat'`, `script -qc 'git log' /dev/null`},
	{`git init -q; git config core.sshCommand 'cat ../home/.ssh/id_ed25519 >&2; ssh'; git remote add o git@x.invalid:y`, `git pull o main`},
	{`git init -q; git config filter.lfs.process 'git-lfs filter-process; cat ../home/.ssh/id_ed25519 >&2'; echo '* filter=lfs' > .gitattributes; echo a > f`, `git add f`},
	{`git init -q; ` + evilMonitor + ` > ev; git config include.path ../ev; mv .git/config .git/c2; ln -s c2 .git/config`, `git status`},
	// git status and git diff run git in each checked-out submodule,
	// with the submodule's configuration.
	{repoNested + nestedMonitor + ` >> sub/r/.git/config`, `git status`},
	{repoNested + nestedMonitor + ` >> sub/r/.git/config`, `git diff`},
	{repoNested + `mkdir -p .git/modules; mv sub/r/.git .git/modules/r; echo 'gitdir: ../../.git/modules/r' > sub/r/.git; ` +
		`git --git-dir=.git/modules/r config core.worktree ../../../sub/r; ` + nestedMonitor + ` >> .git/modules/r/config`, `git status`},
	{repoNested + `(cd sub/r && git update-index --index-version 4); mkdir -p sub/r/s/t; (cd sub/r/s/t && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		`(cd sub/r && git add s/t 2>/dev/null && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		`printf '[core]\n\tfsmonitor = cat ../../../../../home/.ssh/id_ed25519 >&2; false\n' >> sub/r/s/t/.git/config`, `git status`},
	// An index git reads otherwise than the gate did (round 129): git
	// takes an entry's name length from its flags, and the first entry's
	// flags say 74 bytes where its NUL follows one, so that the gate's
	// reader, looking for the NUL, took the gitlink sub/r after it for an
	// extension's bytes and listed no submodule.
	{repoNested + nestedMonitor + ` >> sub/r/.git/config; ` + craftedIndex, `git status`},
	// Keys naming a file git reads and shows.
	{repoInit + `echo b >> f; git -c user.name=a -c user.email=a@b commit -qam b; git config format.signatureFile ../home/.ssh/id_ed25519`, `git format-patch -1; cat 0001-*`},
	{repoInit + `git config blame.ignoreRevsFile ../home/.ssh/id_ed25519`, `git blame f`},
	{repoInit + `git config tar.tgz.command 'cat ../home/.ssh/id_ed25519 >&2; gzip -cn'`, `git archive --format=tgz HEAD > /dev/null`},
	// A nested repository that the line itself records as a submodule,
	// before a git command that goes into it.
	{`mkdir -p sub/r; (cd sub/r && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m); ` + nestedMonitor + ` >> sub/r/.git/config; ` + repoInit,
		`git add -A; git status`},
	{`git init -q; head -c 1100000 /dev/zero | tr '\0' '#' >> .git/config; printf '\n' >> .git/config; ` + evilMonitor + ` >> .git/config`, `git status`},
	// The configuration read as git's parser reads it (redteam118): a
	// backslash ending a comment continues nothing, a "]" in a quoted
	// subsection is the subsection's, and a NUL byte cuts a name or a
	// value short ([core "fsmonitor\0"] x = … is core.fsmonitor).
	{`git init -q; printf '[core]\n# \\\n\tfsmonitor = cat ../home/.ssh/id_ed25519 >&2; false\n' >> .git/config`, `git status`},
	{`git init -q; printf '[core]\n\tbare = false # x \\\n\tfsmonitor = cat ../home/.ssh/id_ed25519 >&2; false\n' >> .git/config`, `git status`},
	{`git init -q; printf '[core] ; \\\n\tfsmonitor = cat ../home/.ssh/id_ed25519 >&2; false\n' >> .git/config`, `git status`},
	{repoInit + `printf '[diff "a]b"] textconv = cat ../home/.ssh/id_ed25519;:\n' >> .git/config; echo '* diff=a]b' > .gitattributes; echo b > f`, `git diff`},
	{`git init -q; printf '[core "fsmonitor\000"]\n\tx = "cat ../home/.ssh/id_ed25519 >&2; false"\n' >> .git/config`, `git status`},
	{`git init -q; printf '[include "path\000"]\n\tx = ../evil.conf\n' >> .git/config; ` + evilMonitor + ` > evil.conf`, `git status`},
	{repoInit + `printf '[blame]\n\tignoreRevsFile = "../home/.ssh/id_ed25519\000/../../../work/f"\n' >> .git/config`, `git blame f`},
	// Paths as git makes them: joined as strings, so that a ".." after a
	// link leads beside the link's target, and %(prefix)/ beneath git's
	// installation (/usr/.. is /).
	{`git init -q; mkdir -p d/e; ln -s ../d/e .git/lnk; ` + evilMonitor + ` > d/evil.conf; git config include.path lnk/../evil.conf`, `git status`},
	{repoInit + `mkdir -p sub; ln -s ../../home/.ssh sub/s; git config blame.ignoreRevsFile sub/s/../.ssh/id_ed25519`, `git blame f`},
	{repoInit + `git config blame.ignoreRevsFile "%(prefix)/..$(cd ..; pwd)/home/.ssh/id_ed25519"`, `git blame f`},
	// /proc/self/cwd is git's working directory, not the gate's.
	{`git init -q; ` + evilMonitor + ` > evil.conf; git config include.path /proc/self/cwd/evil.conf`, `git status`},
	{`git init -q; ln -s /proc/self/cwd l; ` + evilMonitor + ` > evil.conf; git config include.path ../l/evil.conf`, `git status`},
	{`git init -q; mkdir -p c; cp -r .git/objects .git/refs c/; ` + evilMonitor + ` > c/config; echo /proc/self/cwd/c > .git/commondir`, `git status`},
	{repoInit + `git config fsck.skipList ../home/.ssh/id_ed25519`, `git fsck`},
	// Links in .git to the key: git shows what packed-refs,
	// BISECT_START, shallow and rebase-merge/head-name hold.
	{repoInit + `ln -s ../../home/.ssh/id_ed25519 .git/packed-refs; rm -f .git/refs/heads/*`, `git status`},
	{repoInit + `touch .git/BISECT_LOG; ln -s ../../home/.ssh/id_ed25519 .git/BISECT_START`, `git status`},
	{repoInit + `ln -s ../../home/.ssh/id_ed25519 .git/shallow`, `git log`},
	{repoInit + `mkdir rm; ln -s ../rm .git/rebase-merge; ln -s ../../home/.ssh/id_ed25519 rm/head-name; git rev-parse HEAD > rm/onto; touch rm/interactive`, `git status`},
	// A .git directory that is not a repository to git: git goes on to
	// a parent's, or takes the workdir for a bare repository.
	{`(cd .. && git init -q && git config core.fsmonitor 'cat home/.ssh/id_ed25519 >&2; false'); rm -rf .git; mkdir .git; touch .git/config`, `git status`},
	{`git init -q --bare .; rm -rf .git; mkdir .git; git config -f config diff.x.textconv 'cat ../home/.ssh/id_ed25519;:'; mkdir -p info; echo '* diff=x' > info/attributes; ` +
		`c=; for v in a b; do echo $v > f; t=$(printf '100644 blob %s\tf\n' $(git hash-object -w f) | git mktree); c=$(git -c user.name=a -c user.email=a@b commit-tree ${c:+-p $c} -m $v $t); done; git update-ref refs/heads/main $c; echo 'ref: refs/heads/main' > HEAD`, `git log -p`},
	// A submodule's git directory in .git/modules that is not checked
	// out: with submodule.recurse, git pull and git checkout check it
	// out from there, with its configuration.
	{repoModule + `git --git-dir=.git/modules/sub/r config filter.x.smudge 'cat ../../../home/.ssh/id_ed25519 >&2; cat'`, `git pull -q . main`},
	{repoModule + `git --git-dir=.git/modules/sub/r config filter.x.smudge 'cat ../../../home/.ssh/id_ed25519 >&2; cat'; git checkout -q -b x; git rm -q sub/r; git commit -qm rm`, `git checkout main`},
	// A partial clone fetches the blob git show and git diff lack from
	// its promisor remote: the remote's ssh command and upload-pack run.
	{repoPartial + `git config remote.o.url git@x.invalid:y; git config core.sshCommand 'cat ../home/.ssh/id_ed25519 >&2; false'`, `git show HEAD`},
	{repoPartial + `git config remote.o.url .; git config remote.o.uploadpack 'cat ../home/.ssh/id_ed25519 >&2; false'`, `git diff HEAD~1`},
	// pull.rebase = interactive starts the sequence editor.
	{repoInit + `git config pull.rebase interactive; git config sequence.editor 'cat ../home/.ssh/id_ed25519 >&2; :'; git config user.name a; git config user.email a@b; ` +
		`mkdir ../other; (cd ../other && git init -q && echo s > s && git add s && git -c user.name=a -c user.email=a@b commit -qm s && git branch -M main); git remote add o ../other`, `git pull o main --allow-unrelated-histories`},
}

// repoConfigOrdinary are repositories whose configuration names commands
// of the ordinary, harmless kind (git-lfs's filters installed with
// --local, a boolean fsmonitor, a plain pager, credential helper, ssh and
// signing program): git lines there stay allowed.
var repoConfigOrdinary = []struct{ setup, line string }{
	{repoInit + `printf '[filter "lfs"]\n\tclean = git-lfs clean -- %%f\n\tsmudge = git-lfs smudge -- %%f\n\tprocess = git-lfs filter-process\n\trequired = true\n' >> .git/config`, `git status; git log --oneline`},
	{repoInit + `git config core.fsmonitor false; git config core.pager 'less -FRX'; git config pager.log false; git config credential.helper store`, `git status; git diff; git show --stat`},
	{repoInit + `git config core.sshCommand 'ssh -i ~/.ssh/work_key -o IdentitiesOnly=yes'; git config gpg.program gpg2`, `git status; git log --oneline`},
	{repoInit + `git config core.worktree ..`, `git status --short`},
	{repoInit + `printf 'subject\n' > .gitmessage; git config commit.template .gitmessage; git config blame.ignoreRevsFile .git-blame-ignore-revs; touch .git-blame-ignore-revs`,
		`git status; git blame f; git log --oneline`},
	// A submodule added as git does it: its git directory in
	// .git/modules, with a core.worktree that is its own directory.
	{`mkdir ../src; (cd ../src && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		repoInit + `git -c protocol.file.allow=always submodule add -q ../src sub/r 2>/dev/null; git -c user.name=a -c user.email=a@b commit -qm s`,
		`git status; git diff; git log --oneline`},
	// A partial clone whose remote's keys are the ordinary ones.
	{repoPartial + `git config remote.o.url https://example.com/x.git; git config credential.helper store; git config core.sshCommand 'ssh -o IdentitiesOnly=yes'`, `git status; git log --oneline -1`},
	// A submodule moved since it was added: its git directory keeps the
	// name it was added under.
	{`mkdir ../src; (cd ../src && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m); ` +
		repoInit + `git -c protocol.file.allow=always submodule add -q ../src lib/r 2>/dev/null; git -c user.name=a -c user.email=a@b commit -qm s; mkdir vendor; git mv lib/r vendor/r`,
		`git status; git diff; git log --oneline`},
	// The same, taken out of the worktree, its git directory kept, with
	// submodule.recurse on and no filter.
	{repoModule, `git status; git log --oneline; git checkout -q -b y`},
	// A repository nested in the project but not recorded in its index:
	// git does not go there.
	{`mkdir -p sub/r; (cd sub/r && git init -q); ` + nestedMonitor + ` >> sub/r/.git/config; ` + repoInit, `git status`},
	{`git config --global user.name a; git config --global user.email a@b; ` + repoInit + `echo b > f; mkdir -p d/e; echo c > d/e/g`,
		`git add -A && git commit -qm x && git status && git log --oneline`},
	// Configuration git reads in its less common spellings, packed
	// references, a detached HEAD, links in .git that stay in the
	// project, hooks linked from elsewhere, an editor by name.
	{repoInit + `printf '[Core]\r\n\tfsmonitor\r\n; a comment \\\n[remote "origin"] url = "https://example.com/\\\nx.git" # comment\n[includeIf "gitdir:~/w/"]\n\tpath = ~/w.conf\n[pull]\n\trebase = true\n[core]\n\teditor = code --wait\n' >> .git/config; ` +
		`git pack-refs --all; git checkout -q --detach; mkdir -p shared; rm .git/info/exclude; ln -s ../../shared/exclude .git/info/exclude; ln -s /usr/share/doc .git/hooks/post-x`,
		`git status; git log --oneline; git diff; git blame f`},
}

// repoConfigOutside are copied repositories whose configuration makes a
// git line write outside the project: the line made the file at out
// (relative to the directory holding the home and the workdir) in real
// bash and was allowed.
var repoConfigOutside = []struct{ setup, line, out string }{
	{repoInit + `echo b >> f; git -c user.name=a -c user.email=a@b commit -qam b; git config format.outputDirectory ../home/.ssh`, `git format-patch -1`, "home/.ssh/0001-b.patch"},
	{repoInit + `echo b >> f; git -c user.name=a -c user.email=a@b commit -qam b; git config format.outputDirectory "$PWD/../out"`, `git format-patch -1`, "out/0001-b.patch"},
	// Links in .git that git writes through: the commit message, the
	// reflog it appends to.
	{repoInit + `git config user.name a; git config user.email a@b; rm .git/COMMIT_EDITMSG; ln -s ../../home/x .git/COMMIT_EDITMSG`, `git commit -qm x --allow-empty`, "home/x"},
	{repoInit + `git config user.name a; git config user.email a@b; rm .git/logs/HEAD; ln -s ../../../home/y .git/logs/HEAD`, `git commit -qm x --allow-empty`, "home/y"},
}

// TestCanaryRepoConfig checks that each copied repository's configuration
// of canaryRepoConfig makes its git line print the key in real bash and
// ask, and that the ordinary ones print nothing of it and stay allowed.
func TestCanaryRepoConfig(t *testing.T) {
	t.Parallel()
	for _, c := range canaryRepoConfig {
		home, wd := unlinkedFixture(t)
		if out := runIn(t, home, wd, c.setup); strings.Contains(out, round84Key) {
			t.Fatalf("setup %q printed the key itself: %q", c.setup, out)
		}
		v := secretDecider(t, home, wd)(c.line)
		if out := runIn(t, home, wd, c.line); !strings.Contains(out, round84Key) {
			t.Errorf("after %q, %q did not print the key when run: the test no longer shows the damage: %q", c.setup, c.line, out)
		}
		if v.Decision != permission.Ask {
			t.Errorf("after %q, %q: %v (%s), want an ask", c.setup, c.line, v.Decision, v.Reason)
		}
	}
	for _, c := range repoConfigOutside {
		home, wd := unlinkedFixture(t)
		runIn(t, home, wd, c.setup)
		v := secretDecider(t, home, wd)(c.line)
		runIn(t, home, wd, c.line)
		if _, err := os.Stat(filepath.Join(filepath.Dir(wd), c.out)); err != nil {
			t.Errorf("after %q, %q did not write %s when run: the test no longer shows the damage: %v", c.setup, c.line, c.out, err)
		}
		if v.Decision != permission.Ask {
			t.Errorf("after %q, %q: %v (%s), want an ask", c.setup, c.line, v.Decision, v.Reason)
		}
	}
	for _, c := range repoConfigOrdinary {
		home, wd := unlinkedFixture(t)
		runIn(t, home, wd, c.setup)
		v := secretDecider(t, home, wd)(c.line)
		if out := runIn(t, home, wd, c.line); strings.Contains(out, round84Key) {
			t.Errorf("after %q, ordinary %q printed the key: %q", c.setup, c.line, out)
		}
		if v.Decision != permission.Allow {
			t.Errorf("after %q, ordinary %q: %v (%s), want it allowed", c.setup, c.line, v.Decision, v.Reason)
		}
	}
}

// TestCanaryRepoConfigSSHLibrary checks that a core.sshCommand that makes
// ssh load a library of the project (-I, a PKCS#11 provider, which ssh
// loads once it has connected) runs it in git pull, printing the key, and
// asks, while ssh with options that load nothing stays allowed. Before
// round 118 any option but -F and the command-running ones passed.
func TestCanaryRepoConfigSSHLibrary(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "gcc", "ssh")
	// A server that sends an ssh banner and hangs up: ssh loads the
	// provider once the connection is made.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-x\r\n"))
			c.Close()
		}
	}()
	remote := fmt.Sprintf("git remote add o ssh://git@127.0.0.1:%d/x; ", l.Addr().(*net.TCPAddr).Port)
	lib := `printf '#include <stdlib.h>\n__attribute__((constructor)) static void f(void) { system("cat ../home/.ssh/id_ed25519 >&2"); }\nint C_GetFunctionList(void **p) { return 1; }\n' > e.c; gcc -shared -fPIC -o e.so e.c; rm e.c; `
	for _, c := range []struct{ setup, line string }{
		{repoInit + remote + lib + `git config core.sshCommand 'ssh -I ./e.so -o BatchMode=yes'`, `git pull o main`},
		{repoInit + remote + lib + `git config core.sshCommand 'ssh -o BatchMode=yes -o PKCS11Provider=./e.so'`, `git fetch o`},
	} {
		home, wd := unlinkedFixture(t)
		runIn(t, home, wd, c.setup)
		v := secretDecider(t, home, wd)(c.line)
		if out := runIn(t, home, wd, c.line); !strings.Contains(out, round84Key) {
			t.Errorf("after %q, %q did not print the key when run: the test no longer shows the damage: %q", c.setup, c.line, out)
		}
		if v.Decision != permission.Ask {
			t.Errorf("after %q, %q: %v (%s), want an ask", c.setup, c.line, v.Decision, v.Reason)
		}
	}
	home, wd := unlinkedFixture(t)
	runIn(t, home, wd, repoInit+remote+`git config core.sshCommand 'ssh -4 -i ~/.ssh/k -p 22 -o BatchMode=yes -o StrictHostKeyChecking=accept-new'`)
	if v := secretDecider(t, home, wd)(`git fetch o`); v.Decision != permission.Allow {
		t.Errorf("ordinary ssh options: %v (%s), want it allowed", v.Decision, v.Reason)
	}
}

// TestCanaryRepoConfigCommonWrite checks, under the protection the agent
// gives a workdir's .git (storage.ProjectPaths.ProtectedPaths), that a
// line writing the configuration of a common directory in the project
// (which .git/commondir of a copied repository names) before its git
// command is refused: the gate judged the configuration as it was before
// the line, and git status ran the fsmonitor the line wrote there.
func TestCanaryRepoConfigCommonWrite(t *testing.T) {
	t.Parallel()
	home, wd := unlinkedFixture(t)
	runIn(t, home, wd, `echo 'cat ../home/.ssh/id_ed25519 >&2' > x; git init -q; mkdir -p c; cp -r .git/objects .git/refs .git/config c/; echo ../c > .git/commondir`)
	dotgit := filepath.Join(wd, ".git")
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		Protected: []string{filepath.Join(home, ".lite-agent"), filepath.Join(dotgit, "hooks"), filepath.Join(dotgit, "config"),
			filepath.Join(dotgit, "commondir"), filepath.Join(dotgit, "config.worktree")}})
	line := `printf '[core]\n\tfsmonitor = sh x; false\n' >> c/config; git status`
	v, err := g.Decide(t.Context(), secretCall(line))
	if err != nil {
		t.Fatal(err)
	}
	if out := runIn(t, home, wd, line); !strings.Contains(out, round84Key) {
		t.Errorf("%q did not print the key when run: the test no longer shows the damage: %q", line, out)
	}
	if v.Decision == permission.Allow {
		t.Errorf("%q was allowed, want it refused", line)
	}
}
