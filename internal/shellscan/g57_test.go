package shellscan

import "testing"

// g57Opaque are the lines stop 57 found allowed that run a program the
// environment or the user's settings choose (a browser, man, the handler
// of a file's type), write gpg's home directory or ~/.ssh, change the keys
// of the user's account, or run code the line does not show (exiftool's
// -@, -config and Perl expressions). Each was allowed before openers.go,
// gh.go, gpghome.go and exiftool.go.
var g57Opaque = []string{
	// git's manuals: man, info or a browser, as git's configuration chooses.
	"git help -w log", "git help --web log", "git help --we log", "git help log", "git help -m log",
	"git help --man log", "git help --ma log", "git help -i log", "git help git", "git help -w", "git help -aw",
	"git log --help", "git commit --help", "git status --help", "git -h log", "git --help log",
	// Browsers and openers.
	"python3 -m webbrowser http://x", "python3 -m webbrowser -t f.html", "python -m antigravity",
	"python3 -m pydoc -b", "pydoc3 -b", "pydoc -p 0 -b", "python3 -m http.server --cgi",
	"python3 -m http.server --cgi 8000", "links x", "links2 -g x", "elinks x", "firefox x", "firefox",
	"chromium --renderer-cmd-prefix=x", "google-chrome --headless x", "kde-open x", "kde-open5 x",
	"gnome-open x", "exo-open x", "wslview x", "gvfs-open x", "kioclient5 exec x", "xdg-email a@b",
	"mimeopen x", "run-mailcap x", "see x", "gtk-launch x",
	"npm docs", "npm home", "npm repo", "npm bugs", "npm issues", "npm help install", "npm fund x",
	"npm --silent docs x", "pnpm docs", "yarn docs", "cargo doc --open", "cargo d --open",
	"cargo +nightly doc --no-deps --open", "rustup doc", "rustup doc --std", "rustup man cargo",
	"go tool cover -html=c.out", "go tool cover -html c.out", "go tool trace t.out",
	"go tool pprof -http=:8080 x", "go tool pprof -http :8080 x", "go tool pprof -web x", "go bug",
	"mkdocs serve --open",
	// gh: browsers, aliases and extensions, codespace's ssh, account keys.
	"gh browse", "gh browse src/x.go", "gh repo view --web", "gh repo view -w", "gh pr view -w 1",
	"gh pr create --web", "gh issue create --web", "gh issue list --web", "gh run view -w 1",
	"gh co 12", "gh my-extension", "gh extension exec x", "gh ext browse",
	"gh codespace ssh", "gh cs ssh", "gh cs ssh --config", "gh codespace cp a remote:b", "gh cs code",
	"gh cs jupyter", "gh cs logs", "gh cs ports forward 8000:8000",
	"gh ssh-key add k.pub", "gh ssh-key delete 1", "gh gpg-key add k.asc", "gh gpg-key delete 1",
	"gh repo clone o/r -- -c core.sshCommand=x", "gh repo clone o/r d -- --upload-pack=x",
	"gh repo fork o/r --clone -- -c x=y",
	// gpg's home directory and daemons.
	"gpg --list-keys", "gpg -k", "gpg -K", "gpg -c f.txt", "gpg --symmetric f.txt", "gpg -c --batch --passphrase x f.txt",
	"gpg --print-md sha256 f.txt", "gpg --verify f.sig f", "gpg -d f.gpg", "gpg f.gpg", "gpg -e -r x f",
	"gpg --export x", "gpg --send-keys x", "gpg --list-packets f", "gpg2 -k", "gpg2 -c f", "gpgsm -k",
	"gpgconf --kill all", "gpgconf --launch gpg-agent", "gpgconf --reload", "gpgconf --apply-defaults",
	"gpgconf --change-options gpg", "dirmngr", "dirmngr --daemon", "keyboxd", "gpg-card", "gpgsplit f",
	"gpg --homedir ./g --photo-viewer id -k", "gpg --homedir ./g --photo-v id -k",
	"gpg --homedir ./g --list-options show-photos -k", "gpg --homedir ./g --agent-program x -c f",
	"gpg --homedir ./g --verify-options=show-photos --verify f.sig",
	// exiftool: more arguments from a file, Perl, files whose names it builds.
	"exiftool -@ args.txt x.jpg", "exiftool -@ - x.jpg", "exiftool -config c.pl x.jpg",
	"exiftool -CONFIG c.pl x.jpg", "exiftool -if '$Make' x.jpg", "exiftool -if2 1 x.jpg",
	"exiftool -p '${FileName;unlink q(c)}' x.jpg", "exiftool -p fmt.txt x.jpg", "exiftool -api Filter=x x.jpg",
	"exiftool '-Comment<${FileName;s/x/y/}' x.jpg", "exiftool -stay_open True -@ a.txt",
	"exiftool -w txt x.jpg", "exiftool -w! %d%f.txt x.jpg", "exiftool -W+ %t.dat x.jpg",
	"exiftool -textOut txt x.jpg", "exiftool -tagOut %t x.jpg", "exiftool -srcfile %d%f.xmp x.jpg",
	"exiftool -o %d%f.new.jpg x.jpg", "exiftool -tagsFromFile %d%f.xmp x.jpg",
	"exiftool '-FileName<DateTimeOriginal' x.jpg", "exiftool -filename=/tmp/y x.jpg",
	"exiftool -Directory=/tmp x.jpg", "exiftool -System:FileName=y x.jpg", "exiftool -SymLink=y x.jpg",
	"exiftool -HardLink=y x.jpg", "exiftool -TestName=y x.jpg",
	// Among the words of a command the analysis does not model.
	"logsave /dev/null gpg -k", "logsave /dev/null firefox x", "logsave /dev/null exiftool -@ a x",
	"logsave /dev/null gh cs ssh", "logsave /dev/null google-chrome x",
}

// g57Ordinary are their forms that only show, write a path the line shows
// inside the workdir, or serve the workdir without running anything.
var g57Ordinary = []string{
	"git help", "git help -a", "git help -g", "git help --all", "git --help", "git log -h",
	"git status -h", "git log --oneline", "git log -- --help",
	"python3 -m http.server", "python3 -m http.server 8000 --bind 127.0.0.1", "python3 -m pydoc json",
	"pydoc3 json", "pydoc3 -p 0", "firefox --version", "chromium --version",
	"npm test", "npm run build", "npm install", "npm fund", "cargo doc", "cargo build --open-x",
	"rustup show", "go tool cover -html=c.out -o c.html", "go tool cover -func=c.out", "go tool pprof -top x",
	"go tool pprof -http=:8080 -no_browser x", "go tool trace -pprof=net t.out", "go build ./...", "mkdocs serve",
	"gh pr view", "gh pr list", "gh pr create --title x --body y", "gh issue view 1", "gh browse -n",
	"gh repo view", "gh repo clone o/r", "gh cs list", "gh codespace view", "gh ssh-key list",
	"gh gpg-key list", "gh extension list", "gh run list", "gh api repos/o/r", "gh --version", "gh",
	"gpg --version", "gpg --help", "gpg --dump-options", "gpg --dearmor k.asc", "gpg --enarmor k.bin",
	"gpg --dearmor -o k.gpg k.asc", "gpg --homedir ./g -k", "gpg --homedir ./g -c f.txt",
	"gpgconf --list-dirs", "gpgconf --list-components", "gpgsm --version",
	"exiftool x.jpg", "exiftool -a -G1 x.jpg", "exiftool -json x.jpg", "exiftool -Artist=me x.jpg",
	"exiftool -all= x.jpg", "exiftool -tagsFromFile src.jpg dst.jpg", "exiftool -o out.jpg x.jpg",
	"exiftool -overwrite_original -Comment=x x.jpg", "exiftool -d %Y x.jpg",
	// English words among an unmodelled command's words.
	"logsave log see x", "logsave log compose up", "logsave log links x",
}

func TestG57OpenersAreOpaque(t *testing.T) {
	checkRT57Lines(t, g57Opaque, g57Ordinary)
}

// git commands that start the editor: with TERM set and no GIT_EDITOR,
// git runs editor or vi, which reads keys from the line's pipe and runs
// :!cmd (printf ':!rm -f ~/.bashrc\n:q!\n' | git commit). Each was allowed
// before giteditor.go.
func TestG57GitEditorIsOpaque(t *testing.T) {
	checkRT57Lines(t, []string{
		"printf ':!rm -f ~/.bashrc\\n:q!\\n' | git commit --allow-empty", "git commit < s", "git commit",
		"git commit --amend", "git commit -a", "git commit -v", "git commit -m x -e", "git commit -em x",
		"git commit --edit -m x", "git commit --ed -m x", "git commit -c HEAD", "git commit --reedit-message=HEAD",
		"git commit -t tpl", "git commit --template tpl", "git commit -p -m x", "git commit --interactive -m x",
		"git commit --fixup=amend:HEAD", "git commit --fixup=reword:HEAD -m x", "git commit --squash HEAD",
		"git commit -S -e -m x", "git commit -s",
		"git tag -a v1", "git tag -s v1", "git tag -u k v1", "git tag --annotate v1", "git tag -a -e -m x v1",
		"git tag -am x -e v1",
		"git rebase -i HEAD~1", "git rebase --interactive main", "git rebase --edit-todo", "git rebase --continue",
		"git rebase -ri main", "git cherry-pick -e x", "git cherry-pick --continue", "git revert -e HEAD",
		"git revert --edit HEAD", "git revert --continue", "git merge --continue", "git merge -e x", "git pull --edit",
		"git pull --rebase=interactive", "git pull -ri",
		"git notes add", "git notes edit", "git notes append HEAD", "git notes --ref x add", "git notes add -c HEAD",
		"git add -p", "git add -e", "git add --patch", "git add -i", "git add --interactive", "git add -pu",
		"git checkout -p", "git checkout --patch x", "git reset -p", "git restore -p", "git stash -p",
		"git stash push --patch", "git am -i x.patch",
	}, []string{
		"git commit -m x", "git commit -am x", "git commit -m x -a", "git commit --message=x", "git commit -F msg.txt",
		"git commit -F - < msg.txt", "git commit -C HEAD", "git commit --amend -m x",
		"git commit --fixup=HEAD", "git commit -s -m x", "git commit -v -m x",
		"git tag v1", "git tag -a v1 -m x", "git tag -am x v1", "git tag -a v1 -F msg", "git tag -l", "git tag -n5",
		"git tag -d v1", "git rebase main", "git rebase --onto a b", "git rebase --abort", "git rebase --skip",
		"git cherry-pick x", "git cherry-pick --abort", "git revert HEAD",
		"git merge x", "git merge --no-ff -m x y", "git merge --abort", "git pull", "git pull -r", "git pull --rebase",
		"git notes add -m x", "git notes list", "git notes show", "git add -A", "git add .", "git add -u",
		"git checkout main", "git checkout -b x", "git reset --hard", "git restore x", "git stash",
		"git stash push -m x", "git stash pop", "git am --abort",
	})
}

// Other programs that start the editor the environment chooses (npm edit
// runs vi, which reads :!cmd from the line's pipe, as git commit does),
// run the program an option names, write the home's dotfiles, or read
// code from their standard input. Each was allowed before editors.go.
func TestG57EditorsAreOpaque(t *testing.T) {
	checkRT57Lines(t, []string{
		"npm edit x", "npm ed x", "printf ':!rm -f ~/.bashrc\\n:q!\\n' | npm edit x", "pnpm edit x", "kubectl edit pod x",
		"kubectl -n y edit pod x", "kubectl apply -f x --edit", "kubectl create -f x --edit=true",
		"kubectl apply edit-last-applied x", "oc edit x", "k3s kubectl edit x", "microk8s kubectl edit x",
		"ansible-vault edit x", "ansible-vault create x", "sops x.yaml", "sops edit x", "sops exec-env x 'rm c'",
		"sops exec-file x 'rm c'", "chezmoi apply", "chezmoi init --apply u", "chezmoi edit", "yadm checkout",
		"yadm pull", "stow x", "stow -t ~ x", "rcup", "virsh edit x", "virsh destroy x", "virsh undefine x",
		"svn commit", "svn ci", "svn propedit p x", "svn diff --diff-cmd x", "svn diff --diff-cmd=x",
		"svn commit -m x --editor-cmd y", "svn log --config-option=x", "svn mkdir u",
		"hg commit", "hg ci", "hg amend", "hg histedit", "hg --config hooks.pre-log=x log", "hg log --config=a",
		"hg -R ../x log", "hg pull -e x", "hg commit -i -m x", "hg tag v1", "hg --cwd /tmp log",
		"fzf --preview 'rm c'", "fzf --bind 'start:execute(rm c)'", "fzf --with-shell=x", "sk --preview x",
		"pry", "pry x.rb", "echo 'system(1)' | pry", "ipython", "echo 'print(1)' | ipython", "ipython -c x",
		"ipython -i x.py", "bpython", "ptpython",
	}, []string{
		"npm test", "npm install", "kubectl get pods", "kubectl apply -f x", "kubectl logs x", "ansible-vault view x",
		"ansible-vault encrypt x", "sops -d x.yaml", "sops decrypt x.yaml", "sops -e -i x.yaml", "sops --version",
		"chezmoi --version", "yadm status", "virsh list", "virsh --version", "svn status", "svn log", "svn diff",
		"svn commit -m x", "svn ci -F msg", "svn update", "hg log", "hg status", "hg diff", "hg commit -m x",
		"hg ci --message=x", "hg pull", "fzf -f x", "fzf --filter=x", "ipython x.py", "ipython --version",
	})
}

// Pagers named by an option, shared libraries openssl loads, and the
// servers whose option opens a browser. Each was allowed before.
func TestG57PagersAndServersAreOpaque(t *testing.T) {
	checkRT57Lines(t, []string{
		"bat --paging=always --pager 'rm c' f", "batcat --pager=x f", "delta --pager x a b", "glow -p x.md",
		"echo x > o.cnf && openssl req -config o.cnf",
		"mdbook serve --open", "zola serve --open", "hugo server -O", "hugo server --openBrowser", "jekyll serve -o",
		"vite --open", "vitepress dev --open", "webpack serve --open", "ng serve -o", "ng serve --open",
		"http-server -o", "live-server", "browser-sync start", "voila x.ipynb", "subl x", "mkdocs serve -o",
	}, []string{
		"bat f", "bat --paging=never f", "delta a b", "glow x.md", "openssl req -new -key k -out r.csr",
		"openssl x509 -in c.pem -noout -text", "mdbook serve", "mdbook build", "zola build", "hugo server", "hugo",
		"vite", "vite build", "vite -o x", "webpack", "ng build", "live-server --no-browser",
		"browser-sync start --no-open", "voila --no-browser x.ipynb", "subl --version",
	})
}

// git that signs or verifies runs gpg, which writes ~/.gnupg as gpg -s
// does (git commit -S creates the home's keyring in real git and gpg).
// Each was allowed before gitSigning.
func TestG57GitSigningIsOpaque(t *testing.T) {
	checkRT57Lines(t, []string{
		"git commit -S -m x", "git commit -Sk -m x", "git commit --gpg-sign -m x", "git commit --gpg-sign=k -m x",
		"git commit -am x -S", "git tag -s v1 -m x", "git tag -u k v1 -m x", "git tag --sign -m x v1", "git tag -v v1",
		"git tag --verify v1", "git merge -S x", "git rebase -S main", "git cherry-pick -S x", "git revert -S --no-edit x",
		"git pull -S", "git push --signed", "git push --signed=if-asked", "git log --show-signature",
		"git show --show-signature", "git merge --verify-signatures x", "git pull --verify-signatures",
	}, []string{
		"git commit -m x", "git commit --no-gpg-sign -m x", "git tag v1", "git tag -a v1 -m x", "git tag -l",
		"git merge x", "git push", "git push origin main", "git log", "git show HEAD", "git commit -s -m x",
	})
}

// Interpreters outside the interpreters table that take code on the line
// or read it from their standard input, and runners that fetch code from
// the network. Each was allowed before inline.go.
func TestG57InlineCodeIsOpaque(t *testing.T) {
	checkRT57Lines(t, []string{
		"ts-node -e x", "ts-node --eval=x", "ts-node", "echo x | ts-node", "tsx -e x", "tsx --eval x", "babel-node -e x",
		"coffee -e x", "jruby -e x", "ghc -e x", "clojure -M -e x", "clj -e x", "bb -e x", "bb --eval x", "bb",
		"racket -e x", "racket", "guile -c x", "sbcl --eval x", "sbcl", "clisp -x x", "ocaml", "kotlinc -e x",
		"kotlin -e x", "scala -e x", "groovy -e x", "elixir -e x", "elixir --eval x", "iex", "erl", "erl -eval x",
		"crystal eval x", "rdmd --eval=x", "gjs -c x", "qjs -e x", "rhino -e x", "matlab -batch x", "mix run -e x",
		"dotnet fsi", "lein repl", "nix repl", "psysh", "deno", "deno repl", "deno run https://x.invalid/y.ts",
		"deno run -A npm:cowsay", "deno run jsr:@x/y", "bun x cowsay", "bun repl",
	}, []string{
		"ts-node x.ts", "tsx x.ts", "coffee x.coffee", "ghc Main.hs", "ghc --make Main.hs", "clojure -M -m app",
		"bb x.clj", "racket x.rkt", "sbcl --script x.lisp", "elixir x.exs", "iex -S mix", "crystal build x.cr",
		"dotnet build", "dotnet test", "lein test", "nix build", "deno run x.ts", "deno test", "deno fmt",
		"bun run x.ts", "bun test", "mix test", "kotlinc x.kt -d x.jar", "deno --version", "ts-node --version",
	})
}
