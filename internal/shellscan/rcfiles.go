package shellscan

// rcCodeFiles are, for tools projectFiles does not list, the base names of
// the files they find in the working directory (or above it) and load as
// code or as settings that name a program to run: pylint's init-hook, the
// JavaScript configuration of test runners, bundlers and formatters
// (vite.config.js, .mocharc.js, cspell.config.js), the commands nx's
// project.json names, Sphinx's conf.py. (cargo's
// .cargo/config.toml, mypy's and flake8's plugins and openssl's -config
// are cargo_config.go's and checkers.go's.) A line that writes one and
// then runs the tool runs code of its own, as runsWrittenCode says of make
// and a Makefile.
var rcCodeFiles = lazy[map[string][]string]{build: func() map[string][]string {
	python := []string{"*.py", "*.pyc", "*.so", "*.pth", "pyproject.toml", "setup.cfg", "tox.ini"}
	node := languageFiles.get()["node"]
	m := map[string][]string{
		"pylint":       append([]string{".pylintrc", "pylintrc", ".pylintrc.toml"}, python...),
		"coverage":     append([]string{".coveragerc"}, python...),
		"sphinx-build": append([]string{"conf.py"}, python...),
		"mkdocs":       append([]string{"mkdocs.yml", "mkdocs.yaml"}, python...),
		"pry":          {".pryrc", "*.rb"},
		"rspec":        {".rspec", ".rspec-local", "*.rb"},
	}
	for _, n := range []string{"mocha", "jest", "vitest", "vite", "webpack", "webpack-cli", "rollup", "prettier",
		"babel", "parcel", "next", "nuxt", "nuxi", "astro", "playwright", "cypress", "karma", "ava", "nyc", "c8",
		"ts-node", "tsx", "stylelint", "postcss", "tailwindcss", "commitlint", "lint-staged", "turbo", "nx",
		"storybook", "svelte-kit", "remix", "gatsby", "ng", "vue-cli-service", "react-scripts", "esbuild", "tsc",
		"cspell", "knip", "svgo", "semantic-release", "markdownlint-cli2", "typedoc"} {
		m[n] = append([]string{".mocharc.yml", ".mocharc.yaml", ".mocharc.json", ".mocharc.jsonc", ".babelrc",
			".prettierrc", ".parcelrc", ".nycrc", ".nycrc.json", ".stylelintrc", ".postcssrc", ".c8rc"}, node...)
	}
	// nx runs the commands its project.json and nx.json name.
	m["nx"] = append(m["nx"], "nx.json", "project.json")
	// cspell's and jest's JSON and YAML settings name the directory of
	// their cache (cacheLocation, cacheDirectory), which may lie outside
	// the workdir (redteam123).
	m["cspell"] = append(m["cspell"], "cspell.json", ".cspell.json", "cSpell.json", ".cSpell.json", "cspell.config.json",
		"cspell.config.jsonc", "cspell.config.yaml", "cspell.config.yml", "cspell.yaml", "cspell.yml", ".cspell.config.json",
		".cspell.config.jsonc", ".cspell.config.yaml", ".cspell.config.yml", ".vscode/")
	m["jest"] = append(m["jest"], "jest.config.json")
	return m
}}
