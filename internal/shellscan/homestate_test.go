package shellscan

import (
	"slices"
	"testing"
)

// Round 43: lines that change state outside the workdir by what a
// program does by default, not by a path they name: caches deleted,
// programs installed by package and version managers, keys and
// credentials written in the home directory, packages installed into the
// environment of the python PATH finds, clusters created. Each is
// opaque; the lines beside them that only show state, or keep their
// writes in the workdir, are not.
func TestHomeStateIsOpaque(t *testing.T) {
	for _, line := range []string{
		// Caches.
		"go clean -modcache", "go clean -cache", "go clean -testcache", "go clean -fuzzcache", "go clean --modcache",
		"go clean -i ./...", "go clean -modcache=true", "pip cache purge", "pip3 cache remove x", "python3 -m pip cache purge",
		"npm cache clean --force", "npm cache verify", "yarn cache clean", "pnpm store prune", "uv cache clean",
		"poetry cache clear pypi --all", "bun pm cache rm", "deno clean", "composer clear-cache",
		"mvn dependency:purge-local-repository", "dotnet nuget locals all --clear", "pre-commit clean", "ccache -C",
		"nix store gc", "nix-collect-garbage -d", "conda clean --all", "brew cleanup", "gem cleanup",
		"huggingface-cli delete-cache",
		// Installers and version managers.
		"brew install x", "brew upgrade", "brew tap a/b", "volta install node", "asdf plugin add x", "asdf install",
		"mise use -g node", "mise install", "rtx use -g node", "sdk install java", "conda install x", "conda create -n x",
		"mamba install x", "micromamba create -n x", "nvm install 20", "nvm alias default 20", "pyenv install 3.12",
		"pyenv global 3.12", "rbenv install 3.3", "goenv install 1.22", "nodenv install 20", "fnm install 20", "n 20",
		"n latest", "ghcup install ghc", "juliaup add 1.10", "nix-env -iA nixpkgs.x", "nix profile install nixpkgs#x",
		"snap install x", "flatpak install x", "dnf install x", "yum remove x", "apk add x", "pacman -S x",
		"pacman -Syu", "yay", "zypper install x", "port install x", "pkg install x", "poetry self add x",
		"poetry install", "poetry add x", "pipenv install", "pipenv sync", "bun add -g x", "bun install --global x",
		"deno install -g x.ts", "dotnet tool install -g x", "gem install x", "gem update --system", "bundle install",
		"uv python install 3.12", "uv self update", "cargo binstall x", "stack install", "cabal install x",
		"opam install x", "luarocks install x", "code --install-extension x", "krew install x", "rpm -i x.rpm",
		"rpm -q --eval '%(id)' x", "emerge x", "xbps-install x", "tfenv install 1.6", "pnpm env use -g 20",
		"composer global require x", "mix archive.install hex x", "pixi global install x", "rye install x",
		// Keys and credentials.
		"cargo login tok", "cargo logout", "ssh-keygen -t ed25519 -N ''", "ssh-keygen", "ssh-keygen -R host",
		"ssh-keygen -H", "ssh-keygen -A", "ssh-keygen -t rsa x -f k", "gpg --gen-key", "gpg --quick-gen-key me",
		"gpg --import k.asc", "gpg --impo k.asc", "gpg --recv-keys 0x1", "gpg --batch --edit-key x trust",
		"gpg --delete-keys x", "gpg2 --import-ownertrust t", "gcloud auth login", "gcloud auth application-default login",
		"az login", "heroku login", "fly auth login", "terraform login", "vault login x", "gh auth logout",
		"aws sso login", "pnpm login", "yarn npm login", "hf auth login", "helm registry login x", "gem signin",
		// pip and its kin outside a virtual environment of the workdir.
		"pip install x", "pip3 install -r requirements.txt", "pip3.11 install -e .", "python3 -m pip install x",
		"python3 -mpip install x", "python -m ensurepip", "pip install --prefix p x", "pip install --root r x",
		"pip --python /usr/bin/python3 install -t v x", "pip install --us x",
		"uv pip install x", "uv pip sync requirements.txt", "uv pip install --system x", "uv pip uninstall x",
		// Clusters.
		"minikube start", "minikube delete", "minikube kubectl -- get pods", "kind create cluster",
		"kind delete cluster", "kind export kubeconfig", "k3d cluster create x", "k3s server", "microk8s enable dns",
		"kubeadm init", "colima start", "limactl start x", "vagrant up", "helm plugin uninstall diff",
		// Among the words of a command the analysis does not model, and
		// through macOS's arch, which runs the command it is given.
		"logsave /dev/null brew install jq", "logsave /dev/null pip install x", "logsave /dev/null minikube start",
		"logsave /dev/null ssh-keygen -t ed25519", "logsave /dev/null gpg --import k", "logsave /dev/null pipx install x",
		"arch -arm64 brew install x", "arch -arm64 rm -rf x", "arch -x86_64 go clean -modcache",
		// pip as a script or a module of its own.
		"python3 /usr/bin/pip install x", "python3 -m pip.__main__ install x", "pip-3.11 install x",
		"python3 /usr/lib/python3/dist-packages/pip install x", "python3 -W ignore /usr/bin/pip3 install x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"go clean", "go clean -x", "go build ./...", "go mod download", "npm ci", "npm install", "npm cache ls",
		"pip cache dir", "pip cache list", "pip download -d dl x", "pip wheel -w dist .", "pip list", "pip freeze",
		"pip install -t ./vendor x", "pip install --target=vendor x", "pip install --pre -t v x",
		".venv/bin/pip install x", ".venv/bin/pip install -r requirements.txt", "venv/bin/python -m pip install x",
		".venv/bin/python3 -m pip uninstall -y x", "env/Scripts/pip install x", "pip install --help",
		"brew list", "brew info x", "brew --prefix", "brew", "volta list", "asdf current", "mise ls", "sdk current",
		"conda list", "conda env list", "conda info", "mamba list", "nvm ls", "pyenv versions", "pyenv which python",
		"pyenv local 3.12", "pyenv install --list", "fnm ls", "n ls", "snap list", "flatpak list", "dnf list installed",
		"apk info", "pacman -Qi x", "pacman -Ss x", "nix-env -q", "rpm -qa", "zypper se x", "port installed",
		"poetry build", "poetry lock", "poetry check", "poetry show", "poetry env info", "pipenv --venv",
		"uv python list", "yarn cache list", "pnpm store path", "uv cache dir", "cargo build", "bun add x",
		"deno install", "dotnet build", "dotnet tool list -g", "gem list", "bundle check", "cargo search x",
		"ssh-keygen -t ed25519 -f ./k -N ''", "ssh-keygen -lf k.pub", "ssh-keygen -F host", "ssh-keygen -R host -f kh",
		"gpg --homedir g --list-keys", "gpg --homedir g -k", "gpg --homedir=g --verify x.sig x",
		"gpg --homedir g --fingerprint", "gpg --homedir g --sign -o x.sig x",
		"gpg --dearmor -o k.gpg k.asc", "gpg --homedir ./gnupg --import k.asc", "gpg --homedir g --show-keys k.asc",
		"minikube status", "minikube ip", "minikube profile list", "kind get clusters", "kind get kubeconfig",
		"k3d cluster list", "microk8s status", "k3s kubectl get pods", "microk8s kubectl get nodes",
		"kubectl get pods", "kubectl -n x get pods", "kubectl --context c describe pod x", "kubectl config view",
		"kubectl plugin list", "kubectl foo bar", "helm list", "vagrant status", "ccache gcc -c x.c", "ccache -s",
		"helm install n ./chart", "helm install kind ./chart", "helm upgrade --install stack ./chart",
		"logsave log brew list", "ss -ltn port 80", "arch", "uname -m && arch",
		".venv/bin/python .venv/bin/pip install x", "python3 pip_tool.py install", "python3 -m pip.x list",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// A kubectl plugin (kubectl foo runs kubectl-foo from PATH) is the
// program kubectl-foo to deny rules, and a kubeconfig the line writes
// names credential plugins kubectl runs.
func TestKubectlPluginsAndKubeconfig(t *testing.T) {
	a := analyzeBash("kubectl -n x foo bar", "/home/u", "/w")
	if !slices.ContainsFunc(a.units, func(u unit) bool { return u.text == "kubectl-foo bar" }) {
		t.Errorf("kubectl foo: no unit kubectl-foo in %+v", a.units)
	}
	a = analyzeBash("arch -arm64 rm -rf x", "/home/u", "/w")
	if !slices.ContainsFunc(a.units, func(u unit) bool { return u.text == "rm -rf x" }) {
		t.Errorf("arch -arm64 rm: no unit rm for deny rules in %+v", a.units)
	}
	for _, line := range []string{
		"echo x > kc && kubectl --kubeconfig ./kc get pods", "cp a kc; kubectl get pods --kubeconfig=kc",
		"echo x > kc && helm --kubeconfig kc list",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}
