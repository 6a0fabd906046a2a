package shellscan

import "testing"

// Round redteam59: programs the analysis does not model that read, where
// they run, a settings file naming commands they run, code they load or
// directories outside the workdir they write: Doxygen's Doxyfile
// (INPUT_FILTER runs a command for each input, OUTPUT_DIRECTORY), hugo's
// configuration (publishDir), autoconf's configure.ac (m4_esyscmd runs a
// command as autoconf reads it), tsc's tsconfig.json (outDir, extends),
// pandoc's defaults file (filters, output-file), mdbook's book.toml
// (preprocessor commands) and the like. A line that writes one and then
// runs the program ran what it wrote, as printf … > Makefile && make
// does; "allow bash" allowed each.
func TestRedteam59SettingsNameCode(t *testing.T) {
	opaque := []string{
		`printf 'INPUT_FILTER = "touch ~/x"\n' > Doxyfile && doxygen`, "echo x >> doxyfile; doxygen",
		"echo x > d.cfg && doxygen d.cfg", "echo x > Doxyfile && doxygen Doxyfile",
		"echo x > hugo.toml && hugo", "echo x > hugo.yaml && hugo server", "echo x > config.toml && hugo",
		"echo x > x.toml && hugo --config x.toml", "echo x > b.toml && hugo --config a.toml,b.toml",
		"echo x > b.toml && hugo --config=a.toml,b.toml", "mkdir -p config/_default && echo x > config/_default/params.toml && hugo",
		"echo x > configure.ac && autoconf", "echo x > configure.ac && autoreconf -fi", "echo x > m4/x.m4 && autoreconf -i",
		"echo x > aclocal.m4 && autoconf", "echo x > x.ac && autoconf x.ac", "echo x > configure.in && autoheader",
		"echo x > acinclude.m4 && aclocal", "echo x > Makefile.am && automake",
		"echo x > tsconfig.json && tsc", "echo x > tsconfig.json && tsc --build", "echo x > tsconfig.json && tsc -b",
		"echo x > cfg.json && tsc --project cfg.json", "echo x > cfg.json && tsc -p cfg.json",
		"echo x > base.json && tsc", "echo x > tsconfig.app.json && vue-tsc --noEmit",
		"echo x > d.yaml && pandoc -d d.yaml x.md", "echo x > d.yaml && pandoc --defaults=d.yaml x.md",
		"echo x > d.yaml && pandoc --defaults d.yaml", "echo x > d.yaml && pandoc -dd.yaml",
		"echo x > book.toml && mdbook build", "echo x > _config.yml && jekyll build", "echo x > c.yml && jekyll build --config c.yml",
		"echo x > .goreleaser.yaml && goreleaser build", "echo x > g.yml && goreleaser build -f g.yml",
		"echo x > .air.toml && air", "echo x > a.toml && air -c a.toml", "echo x > magefile.go && mage build",
		"echo x > magefiles/x.go && mage", "echo x > .golangci.yml && golangci-lint run",
		"echo x > g.yml && golangci-lint run -c g.yml", "echo x > buf.gen.yaml && buf generate",
		"echo x > t.yaml && buf generate --template t.yaml", "echo x > sqlc.yaml && sqlc generate",
		"echo x > skaffold.yaml && skaffold build", "echo x > BUCK && buck2 build //...", "echo x > Guardfile && guard",
		"echo x > premake5.lua && premake5 gmake", "echo x > xmake.lua && xmake", "echo x > BUILD.gn && gn gen out",
		"echo x > .gn && gn gen out", "echo x > x.pro && qmake", "echo x > platformio.ini && pio run",
		"echo x > cdk.json && cdk synth", "echo x > serverless.yml && sls package", "echo x > template.yaml && sam build",
		"echo x > helmfile.yaml && helmfile template", "echo x > .devcontainer/devcontainer.json && devcontainer up",
		"echo x > .release-it.json && release-it", "echo x > .versionrc && standard-version", "echo x > .cz.toml && cz bump",
		"echo x > .bumpversion.cfg && bumpversion patch", "echo x > .bumpversion.toml && bump-my-version bump patch",
		"echo x > tbump.toml && tbump 1.0", "echo x > plopfile.js && plop", "echo x > .projenrc.py && projen",
		"echo x > wrangler.toml && wrangler dev", "echo x > netlify.toml && netlify build", "echo x > vercel.json && vercel build",
		"echo x > firebase.json && firebase deploy", "echo x > _quarto.yml && quarto render",
		"echo x > .latexmkrc && latexmk x.tex", "echo x > r.pl && latexmk -r r.pl x.tex",
		"latexmk -e 'unlink glob(q{~/.bashrc})' x.tex", "latexmk -e '$x=1' x.tex",
		"echo x > x.tex && pdflatex -shell-escape x.tex", "echo x > x.tex && xelatex --shell-escape x.tex",
		"echo x > x.tex && lualatex x.tex", "echo x > x.sty && luatex x.tex",
		"echo x > .eleventy.js && eleventy", "echo x > docusaurus.config.js && docusaurus build",
		"echo x > .rubocop.yml && rubocop", "echo x > phpunit.xml && phpunit", "echo x > phpstan.neon && phpstan analyse",
		"echo x > .php-cs-fixer.php && php-cs-fixer fix", "echo x > rector.php && rector process",
		"echo x > .busted && busted", "echo x > .iex.exs && iex -S mix", "echo x > hie.yaml && haskell-language-server",
		"echo x > .ghci && cabal repl", "echo x > .ghci && stack ghci", "echo x > .jvmopts && sbt compile",
		"echo x > dprint.json && dprint fmt", "echo x > Makefile.toml && cargo make", "echo x > pants.toml && pants test ::",
		"echo x > .plzconfig && plz build", "echo x > moon.yml && moon run x", "echo x > bsconfig.json && bsb -make-world",
		"echo x > lefthook.yml && lefthook run pre-commit", "echo x > .overcommit.yml && overcommit --run",
		"echo x > .pre-commit-config.yaml && prek run", "echo x > .lintstagedrc && lint-staged",
		"echo x > nodemon.json && nodemon", "echo x > .taprc && tap", "echo x > .c8rc.json && c8 npm test",
		"echo x > .nycrc.yml && nyc npm test", "echo x > .stylelintrc.json && stylelint x.css",
		"echo x > .babelrc.json && babel src", "echo x > .releaserc && semantic-release --dry-run",
		"echo x > conf.json && jsdoc -c conf.json src", "echo x > tslint.json && tslint x.ts", "echo x > .swcrc && swc src -d dist",
		"echo x > electron-builder.yml && electron-builder", "echo x > tauri.conf.json && cargo tauri build",
		"echo x > Trunk.toml && trunk build", "echo x > .config/nextest.toml && cargo nextest run",
		"echo x > release.toml && cargo release", "echo x > Makefile.toml && makers", "echo x > cog.toml && cog bump --auto",
		"echo x > .versionrc.json && commit-and-tag-version", "echo x > config.toml && zola build",
		"echo x > other.ini && pytest -c other.ini", "echo x > x.ini && pytest --config-file=x.ini",
		"echo x > x.toml && python3 -m pytest -c x.toml", "echo x > .coveragerc && pytest --cov",
		"echo x > x.cfg && pytest --cov --cov-config=x.cfg", "echo x > ruff.toml && ruff check .",
		"echo x > x.toml && ruff check --config x.toml .", "echo x > x.spec && pyinstaller x.spec",
		"echo x > towncrier.toml && towncrier build", "echo x >> pyproject.toml && semantic-release version",
		"echo x > requirements.in && pip-compile", "pip-sync", "pip-sync requirements.txt",
		"echo x > hugo.toml && hugo --config $c", "echo x > x && doxygen \"$f\"",
		"echo x > c/_default/params.toml && hugo --configDir c", "echo x > c/x.toml && hugo --configDir=c",
		"echo x | autoconf -", "printf 'm4_esyscmd([touch ~/x])' | autom4te -l autoconf", "autoconf - < f",
		"echo x | doxygen -", "echo x > b.toml && jekyll build --config a.yml,b.toml",
		// python -m runs them under their module names (review47g: allowed before).
		"echo x > x.spec && python3 -m PyInstaller x.spec", "echo x > x.spec && python3 -mPyInstaller --noconfirm x.spec",
		"echo x > towncrier.toml && python3 -m towncrier build", "echo x > requirements.in && python3 -m piptools compile",
		"echo x > .cz.toml && python3 -m commitizen bump", "echo x >> pyproject.toml && python -m semantic_release version",
		"echo x > .bumpversion.cfg && python3 -m bumpversion patch",
	}
	clean := []string{
		"doxygen", "doxygen Doxyfile", "hugo", "hugo server", "tsc", "tsc --noEmit", "tsc -p .", "autoreconf -fi",
		"pandoc -d d.yaml x.md", "pandoc x.md -o x.html", "echo x > x.md && pandoc x.md -o x.html", "mdbook build",
		"echo x > notes.txt && hugo", "echo x > x.md && doxygen", "echo x > x.tex && pdflatex x.tex", "latexmk -pdf x.tex",
		"echo x > content/post.md && hugo", "mkdir -p public && hugo -d public", "cargo make --version",
		"golangci-lint run", "mage build", "air",
		"autoconf <<< x", "pip-sync --dry-run", "pytest -c other.ini", "ruff check .", "hugo --configDir c", "autom4te -l autoconf configure.ac",
		"python3 -m PyInstaller x.spec", "python3 -m towncrier build --draft", "echo x > notes.txt && python3 -m piptools compile",
	}
	checkRT57Lines(t, opaque, clean)
}

// go work sync writes the go.mod of every module go.work uses, which may
// lie outside the workdir (use ../other), whatever wrote go.work: printf
// 'go 1.22\nuse .\nuse ../other\n' > go.work && go work sync rewrote
// ../other/go.mod under "allow bash".
func TestRedteam59GoWorkSyncWritesUsedModules(t *testing.T) {
	opaque := []string{
		"go work sync", "printf 'go 1.22\\nuse ../o\\n' > go.work && go work sync", "go -C sub work sync",
		"go1.22.0 work sync", "go work \"$x\"",
	}
	clean := []string{"go work init", "go work use ./sub", "go work vendor", "go mod tidy", "go work edit -fmt"}
	checkRT57Lines(t, opaque, clean)
}
