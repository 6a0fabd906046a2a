package shellscan

import "testing"

// Installers that put programs where the user's PATH finds them, outside
// the workdir (~/go/bin, ~/.cargo/bin, ~/.local/bin, ~/.gem, the global
// prefix), or remove them: what they install runs in later commands, the
// user's own included, so the line is opaque.
func TestHomeInstallersAreOpaque(t *testing.T) {
	for _, line := range []string{
		"go install ./...", "go install example.com/x@latest", "go install", "go1.22 install ./cmd/x",
		"cargo install ripgrep", "cargo install --path .", "cargo uninstall ripgrep",
		"pip install --user x", "pip3 install --user -r requirements.txt", "pip install -r requirements.txt", "pip3.11 uninstall -y x", "pip uninstall x",
		"python3 -m pip install --user x", "python3 -m pip uninstall -y x",
		"gem install --user-install x", "gem uninstall x",
		"yarn global add x", "yarn global remove x",
		"pnpm add -g x", "pnpm --global remove x", "pnpm i -g x", "pnpm link --global",
		"pipx install x", "pipx inject x y", "pipx ensurepath", "pipx upgrade-all",
		"uv tool install ruff", "uv tool uninstall ruff",
		"rustup toolchain install stable", "rustup component add clippy", "rustup target add wasm32-unknown-unknown",
		"rustup update",
		// Any word may be taken for the subcommand, which errs toward
		// asking.
		"go run . install",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"go build ./...", "go test ./...", "go vet ./...", "go install -h", "cargo build", "cargo test",
		".venv/bin/pip install -r requirements.txt", "pip list", "pip show x", "python3 -m pip list", "gem list",
		"yarn global list", "yarn install", "pnpm install", "pnpm add x", "pnpm list -g", "pipx list",
		"uv tool list", "rustup show", "rustup toolchain list",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
