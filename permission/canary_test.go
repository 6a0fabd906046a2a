//go:build linux

package permission_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The attacks of issue 14, classes 1–5, and variants of each. Every line
// tries to remove the canary file c, to write the fake home's .bashrc, or
// to write a protected file. The fixture (see canaryFixture) also holds an
// evil "ls" in bin/, symbolic links link → ~/.bashrc, hooks → .git/hooks
// and dotgit → .git, and an empty directory sub/.
var canaryAttacks = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; time -p echo $((x))`,
		`x='a[$(rm -f c)]'; cat <<< $((x))`,
		`x='a[$(rm -f c)]'; echo ${x/a/$((x))}`,
		`x='a[$(rm -f c)]'; echo ${y:-$((x))}`,
		`set -- 'a[$(rm -f c)]'; echo $(($1))`,
		`x='a[$(rm -f c)]'; case x in x) echo $((x)) ;& *) ;; esac`,
		`[[ 'a[$(rm -f c)]' -lt 1 ]]`,
		`x='a[$(rm -f c)]'; a=(1); echo {1..2} ${#a[x]}`,
		`x='a[$(rm -f c)]'; a=(1); echo ${a[@]:x}`,
		`echo ${y:-$(rm -f c)}`,
		`x='a[$(rm -f c)]'; nice -n 1 echo $((x))`,
		`x='a[$(rm -f c)]'; echo $(( \
x ))`,
		`x='a[$(rm -f c)]'; echo $((x))`,
		`x='a[$(rm -f c)]'; echo ${!x}`,
		`x='$(rm -f c)'; echo ${x@P}`,
		`x='a[$(rm -f c)]'; echo ${HOME:x:1}`,
		`x='b[$(rm -f c)]'; a=(1); echo ${a[x]}`,
		`x='a[$(rm -f c)]'; [[ x -eq 1 ]]`,
		`x='a[$(rm -f c)]'; (( x ))`,
		`x='a[$(rm -f c)]'; for ((i=x;0;)); do :; done`,
		`x='a[$(rm -f c)]'; let x`,
		`printf -v 'a[$(rm -f c)]' x`,
		`read 'a[$(rm -f c)]' <<< x`,
		`test -v 'a[$(rm -f c)]'`,
		`echo $(( a[$(rm -f c)] ))`,
		`declare -i n; n='a[$(rm -f c)]'`,
		`x='a[$(rm -f c)]'; echo $[x]`,
		`x='a[$(rm -f c)]'; echo "${HOME:0:x}"`,
		`x='a[$(rm -f c)]'; : $((x+1))`,
		`x='a[$(rm -f c)]'; echo "${!x}"`,
		`x='$(rm -f c)'; echo "${x@P}"`,
		`x='a[$(rm -f c)]'; arr=(); echo "${arr[x]}"`,
		`x='a[$(rm -f c)]'; [[ $x -gt 0 ]]`,
		`x='a[$(rm -f c)]' && let "y=x"`,
		`printf -v 'b[$(rm -f c)]' %s 1`,
		`x='a[$(rm -f c)]'; while (( x )); do break; done`,
		`x='a[$(rm -f c)]'; case 1 in $((x))) ;; esac`,
		`x=a[\$\(rm\ -f\ c\)]; echo $((x))`,
		`x='a[$(rm -f c)]'; [[ -v $x ]]`,
		`echo hi; x='a[$(rm -f c)]'; echo $((x))`,
		"x='a[$(rm -f c)]'; echo $(\\\n(x))",
		`[ -v 'a[$(rm -f c)]' ]`,
		`x='a[$(rm -f c)]'; : "${x:=1}"; echo $[x]`,
		`x='a[$(rm -f c)]'; echo "${#x[x]}"`,
		`x='a[$(rm -f c)]'; case 1 in $((x))) ;; esac`,
	},
	"2-environment": {
		`time -p GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`nice -n 1 env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`env --unset=X GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`git --no-pager -c core.fsmonitor='rm -f c; false' status`,
		`git -P -c core.fsmonitor='rm -f c; false' status`,
		`command -- env GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`timeout -s KILL 5 env GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`git -c $'core.fsmonitor=rm -f c; false' status`,
		`$'git' -c core.fsmonitor='rm -f c; false' status`,
		`export X='rm -f c; false'; git --config-env core.fsmonitor=X status`,
		`env - PATH=bin ls`,
		`git grep --open='rm -f c;' -e readme`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`git -c core.fsmonitor='rm -f c; false' status`,
		`git -c alias.p='!rm -f c' p`,
		`git -C . -c core.fsmonitor='rm -f c; false' status`,
		`export GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'"; git status`,
		`GIT_PAGER='rm -f c;' git -p status`,
		`echo 'rm -f c' > x; BASH_ENV=x bash -c :`,
		`echo 'rm -f c' > x && env BASH_ENV=x bash -c ls`,
		`PATH=bin ls`,
		`env -i PATH=bin ls`,
		`env -- GIT_CONFIG_PARAMETERS="'core.fsmonitor'='rm -f c; false'" git status`,
		`X='rm -f c; false' git --config-env=core.fsmonitor=X status`,
		`printf 'rm -f c\n' > git-foo && chmod +x git-foo && git --exec-path=. foo`,
		`git -c core.pager='rm -f c' -p status`,
		`env -u HOME GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`git '-c' 'core.fsmonitor=rm -f c; false' status`,
		`\git -c core.fsmonitor='rm -f c; false' status`,
		`command git -c core.fsmonitor='rm -f c; false' status`,
		`timeout 5 git -c core.fsmonitor='rm -f c; false' status`,
		`git status && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`GIT_CONFIG_GLOBAL=x git status`,
		`echo '[core] fsmonitor = rm -f c; false' > x; GIT_CONFIG_GLOBAL=x git status`,
		`echo '[core] fsmonitor = rm -f c; false' > x; git --git-dir=.git -c include.path=../x status`,
		`git -c core.fsmonitor=rm\ -f\ c\;false status`,
		"git -c core.fsmonitor='rm -f c; false' \\\nstatus",
		`nice git -c core.fsmonitor='rm -f c; false' status`,
		`TZ=x SHELLOPTS=xtrace PS4='$(rm -f c)' ls`,
		`BASH_FUNC_ls%%='() { rm -f c; }' ls`,
		`git --paginate -P status`,
	},
	"3-guards-and-wrappers": {
		`perl '-MPOSIX;qx(rm -f c)' /dev/null`,
		`node --import 'data:text/javascript,import cp from "child_process"; cp.execSync("rm -f c")' /dev/null`,
		`jobs -x rm -f c`,
		`jobs -x /bin/rm -f c`,
		`nice --adj 5 rm -f c`,
		`timeout --k 1 5 rm -f c`,
		`command -- rm -f c`,
		`/lib64/ld-linux-x86-64.so.2 /bin/rm -f c`,
		`time -p rm -f c`,
		`! rm -f c`,
		`ls | rm -f c`,
		`[[ -f c ]] && rm -f c`,
		`if true; then rm -f c; fi`,
		`while rm -f c; do break; done`,
		`case x in x) rm -f c ;;& *) ;; esac`,
		`for PATH in bin; do ls; done`,
		`export "PATH=bin"; ls`,
		`declare -n p=PATH; p=bin; ls`,
		`printf -vPATH bin; ls`,
		`hash -p /bin/rm ls; ls -f c`,
		`trap -- 'rm -f c' EXIT`,
		`env -S 'rm -f c'`,
		`strace -f -o /dev/null rm -f c`,
		`script -qc 'rm -f c' /dev/null`,
		`unshare rm -f c`,
		`setpriv rm -f c`,
		`prlimit rm -f c`,
		`for PATH in bin; do echo hi; ls; done`,
		`export PATH=bin && ls`,
		`typeset -n p=PATH; p=bin; ls`,
		`readonly PATH=bin; ls`,
		`printf -v PATH %s bin; ls`,
		`hash -p ./bin/ls ls; ls`,
		`trap 'rm -f c' EXIT; echo hi`,
		`trap -- "rm -f c" ERR; false`,
		`env -S'rm -f c'`,
		`env --split-string='rm -f c'`,
		"shopt -s expand_aliases; alias ls='rm -f c'\nls",
		`xargs rm -f <<< c`,
		`find . -name c -delete`,
		`find . -name c -exec rm {} +`,
		`echo c | xargs -I{} rm -f {}`,
		`nice -n 1 setpriv rm -f c`,
		`timeout 5 unshare rm -f c`,
		`command -p rm -f c`,
		`builtin eval 'rm -f c'`,
		`eval 'rm -f c'`,
		`. /dev/stdin <<< 'rm -f c'`,
		`source <(echo 'rm -f c')`,
		`exec rm -f c`,
		`f() { rm -f c; }; f`,
		`coproc rm -f c`,
		`ls; rm -f c`,
		`/bin/rm -f c`,
		`r\m -f c`,
		`'rm' -f c`,
		`"r"m -f c`,
		`$'\x72m' -f c`,
		`{rm,-f,c}`,
		"ls && \\\nrm -f c",
		"echo hi # x\nrm -f c",
		`ls $(rm -f c)`,
		"ls `rm -f c`",
		`echo "$(rm -f c)"`,
		`ls <(rm -f c)`,
		`PATH=bin; ls`,
		`for PATH in bin; do command ls; done`,
		`cd bin && PATH=. ls`,
		`setsid rm -f c`,
		`sed -n '1e rm -f c' c`,
		`sed 's/.*/rm -f c/e' c`,
		`awk 'BEGIN{system("rm -f c")}'`,
		`tar -cf /dev/null --to-command='rm -f c' c`,
		`tar cf x.tar c && tar xf x.tar --to-command='rm -f c'`,
		`tar cf x.tar c && tar xf x.tar --to-com='rm -f c'`,
		`rsync -e 'sh -c "rm -f c"' c x:y`,
		`while read PATH; do ls; done < out.txt`,
		`getopts a: OPT -aX; $OPT`,
		`mapfile -C 'rm -f c' -c 1 arr < out.txt`,
	},
	"4-redirections": {
		`echo x > pre-commit && sed -i'.git/hooks/*' s/x/y/ pre-commit`,
		`echo x > pre-commit && sed --in-place=../work/.git/hooks/'*' s/x/y/ pre-commit`,
		`echo '{}' > .lite-agent/permissions && sed -i.json s/x/y/ .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && sed -ni.json p .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && sed -i'*.json' s/x/y/ .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && cp -b -S .json README .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && mv --backup --suffix=.json README .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && cp --backup=simple --su=.json README .lite-agent/permissions`,
		`gzip -rq .git`,
		`echo '{}' | gzip > .lite-agent/permissions.json.gz && gunzip -f .lite-agent/permissions.json.gz`,
		`echo '{}' | xz > .lite-agent/permissions.json.xz && xz -dfq .lite-agent/permissions.json.xz`,
		`echo '{}' | zstd -q > .lite-agent/permissions.json.zst && unzstd -qf .lite-agent/permissions.json.zst`,
		`echo '{}' > x.json && gzip -c x.json > .lite-agent/permissions.json.gz && gunzip -Nf .lite-agent/permissions.json.gz`,
		`xxd README .git/config`,
		`xxd -ps README .git/config`,
		`xxd README x && xxd -r x .git/config`,
		`shuf -o .git/config README`,
		`shuf --output=.git/config README`,
		`sdiff -o .git/config README README`,
		`ptx -G README .git/config`,
		`zstd -qf README -o .git/config`,
		`echo evil >> "${HOME}/.bashrc"`,
		`echo evil >>~/'.bashrc'`,
		`echo evil 3>>~/.bashrc >&3`,
		`echo evil 2>&1 1>>~/.bashrc`,
		`echo x 1<>.git/config`,
		`echo evil >> ~+/../home/.bashrc`,
		`cd && echo evil >> .bashrc`,
		`pushd .git && echo x > config`,
		`cd sub && cd ../.git && echo x > config`,
		`echo x | sort -mo.git/config`,
		`echo x | iconv --output=.git/config`,
		`cp -vt.git/hooks README`,
		`touch -r README .git/hooks/pre-commit`,
		`truncate -s 0 .git/config`,
		`mkdir -p .git/hooks/x`,
		`uniq README .git/config`,
		`xz ~/.bashrc`,
		`echo '{}' > .lite-agent/permissions && gzip -f -S .json .lite-agent/permissions`,
		`echo evil >> ~/.bashrc`,
		`echo evil >| ~/.bashrc`,
		`echo evil &>> ~/.bashrc`,
		`> ~/.bashrc echo evil`,
		`echo x > .git/hooks/pre-commit`,
		`echo '[core] fsmonitor = "rm -f c; false"' >> .git/config && git status`,
		`echo x > /dev/tcp/127.0.0.1/9`,
		`echo evil 1>>~/.bashrc`,
		`echo evil >>$HOME/.bashrc`,
		`echo evil >> "$HOME/.bashrc"`,
		`echo evil >> ~/".bashrc"`,
		`echo evil > link`,
		`echo x > hooks/pre-commit`,
		`echo x > sub/../.git/hooks/pre-commit`,
		`echo x > ./.git/hooks/post-checkout`,
		`echo x >.git//hooks/pre-commit`,
		`echo -e '[core]\n\tfsmonitor = rm -f c' >> .git/config; git status`,
		`echo hi 2> ~/.bashrc`,
		`echo hi 3> ~/.bashrc`,
		`echo hi <> ~/.bashrc`,
		`echo hi >& ~/.bashrc`,
		`echo evil | tee -a ~/.bashrc`,
		`echo evil | tee .git/hooks/pre-commit`,
		`{ echo evil; } >> ~/.bashrc`,
		`(echo evil) >> ~/.bashrc`,
		`echo evil >> ~/.bash''rc`,
		`echo x > dotgit/config`,
		"cat <<'EOF' > ~/.bashrc\nevil\nEOF",
		`echo x > ~/.lite-agent/permissions.json`,
		`echo x >> .lite-agent/permissions.json`,
		`sed -i 's/^/x/' ~/.bashrc`,
		`echo x | dd of=.git/config`,
		`git status > .git/hooks/pre-commit`,
		`ls > ~/.bashrc`,
		`echo x > link2/../.bashrc`,
		`echo x > dotgit/hooks/pre-commit`,
		`cd .git && echo x > config`,
		`cd ~ && echo evil >> .bashrc`,
		`echo evil > ~/.bashrc 2>&1`,
		`echo '[core]' > sub/x; cp sub/x .git/config`,
		`echo x | tee -- .git/config`,
		`echo evil >> ~/.config/../.bashrc`,
		`printf '%s\n' '--- a/.lite-agent/permissions.json' '+++ b/.lite-agent/permissions.json' '@@ -1 +1 @@' '-{"version":1,"rules":[]}' '\ No newline at end of file' '+{}' > p.diff && git apply p.diff`,
		`git clean -fdxq`,
		`git stash -u -q`,
		`link ~/.lite-agent/permissions.json hl && echo '{}' > hl`,
		`git init -q ~/.lite-agent`,
		`git clone -q . ~/.lite-agent/x`,
		`echo x >> .git/info/exclude && echo x > ~/.bashrc`,
		`echo '[core]' | sort --outp=.git/config`,
		`sed --in-pl 's/^/x/' .git/config`,
		`echo x | tee {a,.git/config}`,
		`cp --target=.git/hooks sub/.keep`,
		`tar --cre --fil=.git/config README`,
		`unlink ~/.bashrc`,
		`shred -u ~/.bashrc`,
		`rmdir ~/.config/../.config 2>/dev/null; unlink link2/../.bashrc`,
		`echo x 2>.git/hooks/post-checkout`,
		`echo x | dd of=.git/config`,
		`echo x 1<>.lite-agent/permissions.json`,
	},
	"5-globs": {
		`echo x | tee .git/[[:alpha:]]onfig`,
		`cp README .git/hook[[:lower:]]/`,
		`echo x | tee ~/.lite-agent/permissions.js[[:alpha:]]n`,
		`echo x | tee .git/{"config",x}`,
		`echo x | tee ~/.lite-agent/{x,'permissions'.json}`,
		`echo '{}' > .lite-agent/permissions && sed -i.json s/x/y/ .lite-agent/permission?`,
		`echo x > ~/.lite-agent/permissions.js[o]n`,
		`echo x | tee ~/.lite-agent/{permissions,x}.json`,
		`echo x | tee ~/.lite-agent/permissions.{json,x}`,
		`echo x > .git/hooks/pre-comm?t`,
		`echo x | tee .lite-agent/permissions.js?n`,
		`truncate -s 0 .gi?/config`,
		`cp README .git/hook[s]/`,
		`echo x > .l*/permissions.json`,
		`sed -i s/a/b/ .git/conf[i]g`,
		`echo x | tee ~/.lite-agent/permissions.json{,}`,
		`echo x > .git/./hooks/../conf?g`,
		`echo '{"version":1,"rules":[]}' > ~/.lite-agen?/permissions.jso?`,
		`echo x > ~/.lite-agen*/permissions.json`,
		`echo x > ~/.lite-agent/permission[s].json`,
		`echo x > ~/.[l]ite-agent/permissions.json`,
		`echo x > .git/hook?/pre-commit`,
		`echo x > .git/conf*`,
		`echo x > .git/[c]onfig`,
		`echo x > .lite-agen?/permissions.json`,
		`echo x | tee ~/.lite-agen?/permissions.jso?`,
		`echo x >> ~/.lite-agent/*.json`,
		`echo x > ~/.lite-agen?/../.lite-agent/permissions.json`,
		`echo x > ~/.??te-agent/permissions.json`,
		`echo x > .gi?/hooks/pre-commit`,
		`cp /dev/null ~/.lite-agen?/permissions.jso?`,
		`echo x > $HOME/.lite-agen?/permissions.json`,
		`echo x > "$HOME"/.lite-agen?/permissions.json`,
		`echo x > ~/.lite-agen[t]/permissions.json`,
		`echo x > ~/.lite-agen?/permissions.json 2>/dev/null`,
		`echo x > .git/c?nfig && git status`,
		`echo x > dotgi?/config`,
		`echo x > ~/.bash*`,
		`echo x > .git/hooks/*`,
		`echo x > .lite-agen[t]/permissions.json`,
		`cp out.txt .lite-agent/permission[s].json`,
		`tee .gi?/hooks/x < out.txt`,
	},
}

// canaryOrdinary are lines that both policies must still allow.
var canaryOrdinary = []string{
	"ls -la", "git status", "echo hi", "echo hi > out.txt", "echo hi >> out.txt",
	"ls -la > list.txt 2>&1", "git status --short", `echo "$HOME"`, "ls sub", "echo hi 2>/dev/null",
	"git status && ls", "echo 'a b' > sub/out.txt",
}

// canaryOrdinaryAllowBash are lines that the "allow bash" policy must
// still allow.
var canaryOrdinaryAllowBash = []string{
	"cat README", "grep -r x .", "mkdir -p build && echo ok > build/x", "git log --oneline",
	"git diff", "sed -n 1p README", "wc -l README", "for f in *; do echo \"$f\"; done",
	"cp README copy.txt", "timeout 5 ls", "[[ -f README ]] && echo yes",
}

// canaryTemplate builds the fixture every line starts from once: a fake
// home with a .bashrc and a data home holding the user's permissions.json,
// and a git workdir with one commit, the canary c, a project permission
// file and an evil bin/ls.
func canaryTemplate(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	wd := filepath.Join(root, "work")
	files := map[string]string{
		"home/.bashrc":   "# the user's bashrc\n",
		"home/.config/x": "x\n",
		// Go's telemetry off: otherwise each go command in a fixture
		// home starts a detached child that writes its counters there
		// after the line ended, and t.TempDir's removal fails on the
		// directory it is filling (seen with go on PATH by a symlink).
		"home/.config/go/telemetry/mode":    "off\n",
		"home/.lite-agent/permissions.json": canaryUserRules,
		"work/c":                            "canary\n",
		"work/README":                       "readme\n",
		"work/.lite-agent/permissions.json": `{"version":1,"rules":[]}`,
		"work/sub/.keep":                    "",
		"work/bin/ls":                       "/bin/rm -f c\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(wd, "bin", "ls"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "README"},
		{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = canaryEnv(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(wd, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// The user's permissions.json of the allow-list scenario.
const canaryUserRules = `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"git status"}},"effect":"allow"},
 {"tool":"bash","when":{"command":{"startsWith":"ls"}},"effect":"allow"},
 {"tool":"bash","when":{"command":{"startsWith":"echo"}},"effect":"allow"},
 {"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"},
 {"tool":"bash","when":{"command":{"startsWith":"curl"}},"effect":"deny"}]}`

// The user's permissions.json of the "allow bash" scenario.
const canaryAllowBashRules = `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"},
 {"tool":"bash","effect":"allow"}]}`

func canaryEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "GIT_CONFIG_NOSYSTEM=1"}
}

// canaryFixture copies the template to a fresh directory and adds the
// symbolic links; it returns the root.
func canaryFixture(t *testing.T, template string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(template)); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	for link, to := range map[string]string{
		"link":   filepath.Join(home, ".bashrc"),
		"link2":  filepath.Join(home, ".config"),
		"hooks":  filepath.Join(wd, ".git", "hooks"),
		"dotgit": filepath.Join(wd, ".git"),
	} {
		if err := os.Symlink(to, filepath.Join(wd, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// canarySnapshot records what the attacks must not change: the canary,
// the fake home (the data home included), the project config directory,
// and .git/config and .git/hooks.
func canarySnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	wd := filepath.Join(root, "work")
	for _, dir := range []string{filepath.Join(root, "home"), filepath.Join(wd, ".lite-agent"), filepath.Join(wd, ".git", "hooks")} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				snap[p] = "dir"
				return nil
			}
			b, _ := os.ReadFile(p)
			snap[p] = string(b)
			return nil
		})
	}
	for _, f := range []string{filepath.Join(wd, "c"), filepath.Join(wd, ".git", "config")} {
		b, err := os.ReadFile(f)
		if err != nil {
			snap[f] = "missing"
		} else {
			snap[f] = string(b)
		}
	}
	return snap
}

// changed returns the first path whose snapshot differs, or "".
func changed(before, after map[string]string) string {
	for p, v := range before {
		if after[p] != v {
			return p
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			return p
		}
	}
	return ""
}

// canaryGate builds the gate of one scenario over the fixture at root, as
// liteagent builds it: the file policy behind the workspace wrapper, the
// protected paths of the project, no approval handler.
func canaryGate(t *testing.T, root, userRules string) *permission.Gate {
	t.Helper()
	return permission.NewGate(canaryGateOptions(t, root, userRules))
}

// canaryGateOptions are the options canaryGate builds its gate with.
func canaryGateOptions(t *testing.T, root, userRules string) permission.GateOptions {
	t.Helper()
	home := filepath.Join(root, "home")
	wd := filepath.Join(root, "work")
	data := filepath.Join(home, ".lite-agent")
	if err := os.WriteFile(filepath.Join(data, "permissions.json"), []byte(userRules), 0o644); err != nil {
		t.Fatal(err)
	}
	st := storage.Options{Home: data}
	fp, err := permission.NewFilePolicy(permission.FileOptions{Workdir: wd, Storage: st, HomeDir: home, DisableManaged: true})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := permission.Workspace(fp, permission.WorkspaceOptions{Workdir: wd, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: st})
	if err != nil {
		t.Fatal(err)
	}
	prot := paths.ProtectedPaths()
	for _, s := range fp.Sources() {
		prot = append(prot, s.Path)
	}
	return permission.GateOptions{Policy: pol, Workdir: wd, HomeDir: home, Protected: prot}
}

// runBash runs line with /bin/bash in the fixture, killing its process
// group after limit, and reports whether it ran that long.
func runBash(t *testing.T, root, line string, limit time.Duration) (killed bool) {
	t.Helper()
	return runBashUntil(t, root, line, limit, nil)
}

// runBashUntil is runBash that also kills the process group as soon as
// done (if not nil) reports true.
func runBashUntil(t *testing.T, root, line string, limit time.Duration, done func() bool) (killed bool) {
	t.Helper()
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%q took %v", line, d)
		}
	}()
	runLineUntil(t, root, line, limit, done, "")
	return time.Since(start) >= limit
}

// damaged reports whether an entry of the snapshot before (the canary,
// the fake home's files, the project's config and .git/config and hooks)
// is no longer what it was in the fixture at root: a file there was
// removed or rewritten. A file a line only adds (a tool's state in the
// home) does not count here, so that a line is stopped early only for a
// change that stays.
func damaged(t *testing.T, root string, before map[string]string) bool {
	now := canarySnapshot(t, root)
	for p, v := range before {
		if now[p] != v {
			return true
		}
	}
	return false
}

// runLine runs line through real bash in the workdir of the fixture at
// root, with the canary environment (pathDir, if set, first on PATH, and
// env added), in its own process group killed after limit, and returns
// what it printed.
func runLine(t *testing.T, root, line string, limit time.Duration, pathDir string, env ...string) []byte {
	t.Helper()
	return runLineUntil(t, root, line, limit, nil, pathDir, env...)
}

// runLineUntil is runLine that also kills the line's process group as soon
// as done (if not nil), polled while the line runs, reports true: a line
// that did its damage and then waits (gpg for its agent, an editor for a
// terminal) need not be waited out. The line has run when bash has exited
// and so has every process it left in its process group (a job sent to
// the background, nohup's): a late change is seen however slow the
// machine, and limit only bounds a line that would never end.
func runLineUntil(t *testing.T, root, line string, limit time.Duration, done func() bool, pathDir string, env ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	cmd := exec.Command("/bin/bash", "-c", line)
	cmd.Dir = filepath.Join(root, "work")
	base := canaryEnv(filepath.Join(root, "home"))
	for i, kv := range base {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok && pathDir != "" {
			base[i] = "PATH=" + pathDir + ":" + p
		}
	}
	cmd.Env = append(base, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A process that keeps the output open (setsid's child, in a group
	// of its own) is waited for up to WaitDelay, as before.
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Logf("%q: %v", line, err)
		return nil
	}
	pgid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	var waitErr error
	bashRuns := true
	for {
		select {
		case waitErr = <-exited:
			bashRuns = false
		case <-ctx.Done():
		case <-tick.C:
		}
		if !bashRuns && !groupAlive(pgid) {
			break
		}
		if ctx.Err() != nil || done != nil && done() {
			syscall.Kill(-pgid, syscall.SIGKILL)
			if bashRuns {
				waitErr = <-exited
			}
			break
		}
	}
	killLeftIn(root)
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) {
		t.Logf("%q: %v", line, waitErr)
	}
	return out.Bytes()
}

// killLeftIn kills the processes still working in the fixture at root
// once its line is done, and waits until none is left: a process of a
// group of its own is not killed with the line's group (timeout puts
// itself and its command in one: hyperfine -r1 'cd sub && timeout 9
// pytest' went on writing __pycache__ after done() had killed the line,
// and the test's TempDir cleanup failed with "directory not empty").
func killLeftIn(root string) {
	for range 80 {
		left := false
		ents, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
			if err != nil || cwd != root && !strings.HasPrefix(cwd, root+string(filepath.Separator)) {
				continue
			}
			if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
				if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
					continue
				}
			}
			syscall.Kill(pid, syscall.SIGKILL)
			left = true
		}
		if !left {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// groupAlive reports whether a process of the process group pgid is still
// there and not a zombie (which has done all it will do, whoever reaps
// it), from /proc.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // not a process, or one that has gone
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		// after the name: state, ppid, pgrp
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

// refusedEverywhere checks that every scenario refuses line in the
// fixture at root.
func refusedEverywhere(t *testing.T, root, line string) {
	t.Helper()
	for _, sc := range canaryScenarios {
		if out := authorize(t, canaryGate(t, root, sc.rules), line); out.Run {
			t.Errorf("%s: %q was allowed", sc.name, line)
		}
	}
}

// canaryScenarios are the rule sets every attack line is decided under:
// the user's allow-list, and "allow bash" (the gate's own screening alone).
var canaryScenarios = []struct{ name, rules string }{
	{"allow-list", canaryUserRules},
	{"allow-bash", canaryAllowBashRules},
}

// allowingScenarios returns the names of the scenarios that allow line in
// the fixture at root.
func allowingScenarios(t *testing.T, root, line string) []string {
	t.Helper()
	var names []string
	for _, sc := range canaryScenarios {
		if out := authorize(t, canaryGate(t, root, sc.rules), line); out.Run {
			names = append(names, sc.name)
		}
	}
	return names
}

// canaryAttack decides line under every scenario in a fresh fixture made
// from template, then runs it through real bash there. It returns the
// scenarios that allowed it and the fixture-relative path it changed ("" if
// it changed nothing).
func canaryAttack(t *testing.T, template, line string) (allowedBy []string, changedPath string) {
	t.Helper()
	root := canaryFixture(t, template)
	allowedBy = allowingScenarios(t, root, line)
	before := canarySnapshot(t, root)
	killed := runBashUntil(t, root, line, 3*time.Second, func() bool { return damaged(t, root, before) })
	p := changed(before, canarySnapshot(t, root))
	if p == "" && killed {
		// A slow program (a JVM on a loaded machine) was stopped before
		// it did its work: once more, in a fresh fixture, with time to
		// finish. Lines that do their damage and then wait (gpg, an
		// editor) are not run twice.
		root = canaryFixture(t, template)
		before = canarySnapshot(t, root)
		runBashUntil(t, root, line, 30*time.Second, func() bool { return damaged(t, root, before) })
		p = changed(before, canarySnapshot(t, root))
	}
	return allowedBy, strings.TrimPrefix(p, root)
}

// TestCanaryNoAllowedLineTouchesTheCanary runs every attack through the
// gate under both scenarios and through real bash in a throwaway fixture:
// a line that changes the canary or a protected file must have been
// refused by both. It also checks that ordinary lines are still allowed,
// and that the attacks are real: most of them do their damage when run.
func TestCanaryNoAllowedLineTouchesTheCanary(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	var mu sync.Mutex
	total, effective := 0, 0
	// Each line is a parallel subtest in a fixture of its own; the group
	// ends when they all have.
	t.Run("lines", func(t *testing.T) {
		for class, lines := range canaryAttacks {
			if len(lines) < 11 {
				t.Errorf("class %s has %d lines, want the issue's example and at least ten variants", class, len(lines))
			}
			for i, line := range lines {
				t.Run(fmt.Sprintf("%s-%d", class, i), func(t *testing.T) {
					t.Parallel()
					allowedBy, p := canaryAttack(t, template, line)
					mu.Lock()
					defer mu.Unlock()
					total++
					if p != "" {
						effective++
						if len(allowedBy) > 0 {
							t.Errorf("class %s: %q was allowed by %v and changed %s", class, line, allowedBy, p)
						}
					} else {
						t.Logf("class %s: %q did no damage when run (allowed by %v)", class, line, allowedBy)
					}
				})
			}
		}
	})
	t.Logf("%d of %d attack lines changed the canary or a protected file when run", effective, total)
	if effective*5 < total*4 {
		t.Errorf("only %d of %d attack lines did any damage: the fixture no longer exercises them", effective, total)
	}
	for _, sc := range canaryScenarios {
		root := canaryFixture(t, template)
		g := canaryGate(t, root, sc.rules)
		ordinary := canaryOrdinary
		if sc.name == "allow-bash" {
			ordinary = append(append([]string(nil), ordinary...), canaryOrdinaryAllowBash...)
		}
		for _, line := range ordinary {
			if out := authorize(t, g, line); !out.Run {
				t.Errorf("%s: ordinary line %q was refused: %+v", sc.name, line, out.Verdict)
			}
		}
	}
}
