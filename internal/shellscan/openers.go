package shellscan

import (
	"strings"
)

// This file models the programs that open a file or a URL with a program
// the environment or the user's settings choose (BROWSER, GH_BROWSER, the
// handler of a file's type, git's web.browser and man.viewer, npm's
// browser setting), and the browsers themselves, which write their
// profile in the home and run the programs some options name
// (chromium --renderer-cmd-prefix=…). The line shows neither the program
// nor what it does, so each is opaque, as xdg-open is.

// desktopOpeners are the programs that open their operand with the
// handler the desktop, the mailcap files or the environment choose, and
// the web browsers.
var desktopOpeners = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		// Openers of a file's or URL's type.
		"kde-open", "kde-open5", "kde-open6", "kioclient", "kioclient5", "kioclient6", "kfmclient",
		"gnome-open", "gvfs-open", "exo-open", "wslview", "wsl-open", "xdg-email", "mimeopen", "mimeo",
		"handlr", "run-mailcap", "see", "compose", "gtk-launch", "gtk4-launch", "dex",
		// Web browsers (a console browser runs in the terminal without one).
		"firefox", "firefox-esr", "iceweasel", "librewolf", "waterfox", "seamonkey", "palemoon",
		"chromium", "chromium-browser", "chrome", "google-chrome", "google-chrome-stable",
		"google-chrome-beta", "google-chrome-unstable", "microsoft-edge", "microsoft-edge-stable",
		"brave", "brave-browser", "vivaldi", "vivaldi-stable", "opera", "epiphany", "epiphany-browser",
		"konqueror", "qutebrowser", "surf", "midori", "falkon", "netsurf", "dillo", "links", "links2",
		"elinks", "browsh", "carbonyl", "gnome-www-browser",
	} {
		m[n] = true
	}
	return m
}}

// outsideState returns why the command name args runs a program the
// environment chooses, code the line does not show (exiftool's Perl), or
// writes gpg's home directory, as openers.go, exiftool.go and gpghome.go
// model it, or "".
func outsideState(name string, args []word) string {
	if why := openerState(name, args); why != "" {
		return why
	}
	if name == "exiftool" {
		return exiftool(args)
	}
	if why := mavenExec(name, args); why != "" {
		return why
	}
	if why := editorState(name, args); why != "" {
		return why
	}
	if why := inlineCode(name, args); why != "" {
		return why
	}
	return gpgTool(name, args)
}

// outsideName reports whether outsideState models the program name.
func outsideName(name string) bool {
	switch name {
	case "pydoc", "pydoc3", "gh", "mkdocs", "exiftool", "gpgsm", "gpgconf", "dirmngr", "keyboxd", "scdaemon",
		"gpg-card", "gpg-wks-client", "gpg-wks-server", "gpgsplit", "dirmngr-client", "gpg-preset-passphrase",
		"gpg-pair-tool", "chezmoi", "yadm", "virsh", "ansible-vault", "sops", "bat", "batcat", "delta", "glow",
		"live-server", "browser-sync", "subl":
		return true
	case "see", "compose", "links", "dex", "surf", "opera", "chrome", "brave", "midori", "epiphany", "falkon",
		"vivaldi", "dillo", "handlr", "mimeo":
		// Words of English or of other tools' commands, which a guess
		// among an unmodelled command's words would take for these.
		return false
	}
	return desktopOpeners.get()[name]
}

// openerState returns why the command name args opens a file or URL with
// a program the environment or the user's settings choose, or "".
func openerState(name string, args []word) string {
	if desktopOpeners.get()[name] {
		if onlyVersion(args) {
			return ""
		}
		return name + " opens its operand with a program the environment or the user's settings choose"
	}
	if isPython(name) {
		if mod, after, ok := pythonModule(args); ok {
			return pythonOpener(mod, after)
		}
		return ""
	}
	switch name {
	case "pydoc", "pydoc3":
		return pythonOpener("pydoc", args)
	case "gh":
		return ghState(args)
	case "npm", "pnpm", "yarn", "bun":
		return npmOpener(name, args)
	case "cargo":
		return cargoOpener(args)
	case "rustup":
		if len(args) > 0 && (args[0].text == "doc" || args[0].text == "man") {
			return "rustup " + args[0].text + " opens the documentation with a browser or man, as the environment chooses"
		}
	case "go":
		return goOpener(args)
	case "live-server", "browser-sync", "voila":
		// They open a browser unless told not to.
		if !onlyVersion(args) && !hasAny(args, "--no-browser", "--no-open", "--open=false") {
			return name + " opens a browser the environment chooses"
		}
	case "subl", "sublime_text", "sublime-text":
		if !onlyVersion(args) {
			return name + " opens the editor, whose --command runs what it names"
		}
	}
	if devServers.get()[name] {
		for _, a := range args {
			t, _, _ := strings.Cut(a.text, "=")
			if contains([]string{"--open", "--openBrowser", "--open-url", "--open-browser", "--browser"}, t) ||
				(t == "-o" || t == "-O") && name != "webpack" && name != "vite" {
				return name + " " + clipName(a.text) + " opens a browser the environment chooses"
			}
		}
	}
	return ""
}

// devServers are the documentation and development servers whose option
// (--open, -o …) opens a browser the environment chooses.
var devServers = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"mkdocs", "mdbook", "zola", "hugo", "jekyll", "vite", "vitepress", "webpack",
		"webpack-dev-server", "webpack-cli", "ng", "http-server", "eleventy", "astro", "docusaurus", "gatsby",
		"parcel", "nuxt", "nuxi", "quasar", "vue-cli-service", "rspack", "rsbuild", "serve", "sphinx-autobuild",
		"docsify", "storybook", "start-storybook", "slidev", "marp", "quarto", "remark"} {
		m[n] = true
	}
	return m
}}

// pythonOpener returns why python -m mod after (or pydoc after) opens a
// browser or runs programs a request names, or "".
func pythonOpener(mod string, after []word) string {
	switch mod {
	case "webbrowser", "antigravity":
		return "python -m " + mod + " opens a browser the environment chooses (BROWSER)"
	case "pydoc":
		for _, a := range after {
			if a.text == "--" {
				break
			}
			if strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "b") {
				return "pydoc -b opens a browser the environment chooses (BROWSER)"
			}
		}
	case "http.server", "CGIHTTPServer":
		// Serving the directory only reads it; --cgi runs the scripts of
		// its cgi-bin for whoever sends a request, with the request's
		// words.
		for _, a := range after {
			if strings.HasPrefix(a.text, "--c") {
				return "python -m http.server --cgi runs programs for each request it serves"
			}
		}
	}
	return ""
}

// npmOpeners are npm's commands that open a browser or man: docs and home
// (docs), repo, bugs and issues (bugs), help, and fund with a package.
var npmOpeners = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"docs": true, "home": true, "repo": true, "bugs": true, "issues": true, "help": true}
}}

// npmOpener returns why the npm-family command name args opens a browser
// (npm's browser setting, BROWSER) or man, or "".
func npmOpener(name string, args []word) string {
	for i, a := range args {
		if strings.HasPrefix(a.text, "-") {
			continue
		}
		switch {
		case npmOpeners.get()[a.text]:
			return name + " " + a.text + " opens a browser or man, as the environment and npm's settings choose"
		case a.text == "fund" && len(args) > i+1:
			return name + " fund opens a browser the environment and npm's settings choose"
		}
		return ""
	}
	return ""
}

// cargoOpener returns why cargo args opens a browser (cargo doc --open,
// which runs BROWSER or doc.browser), or "".
func cargoOpener(args []word) string {
	for i, a := range args {
		if strings.HasPrefix(a.text, "-") || strings.HasPrefix(a.text, "+") {
			continue
		}
		if a.text == "doc" || a.text == "d" {
			for _, b := range args[i+1:] {
				if b.text == "--" {
					break
				}
				if b.text == "--open" {
					return "cargo doc --open opens a browser the environment chooses (BROWSER, doc.browser)"
				}
			}
		}
		return ""
	}
	return ""
}

// goOpener returns why go args opens a browser: go bug, go tool cover
// -html without -o, go tool trace, go tool pprof -http without
// -no_browser or -web; or "".
func goOpener(args []word) string {
	if len(args) == 0 {
		return ""
	}
	switch args[0].text {
	case "bug":
		return "go bug opens a browser the environment chooses (BROWSER)"
	case "tool":
	default:
		return ""
	}
	if len(args) < 2 {
		return ""
	}
	rest := args[2:]
	opt := func(names ...string) bool {
		for _, a := range rest {
			t, _, _ := strings.Cut(a.text, "=")
			t = "-" + strings.TrimLeft(t, "-")
			if contains(names, t) {
				return true
			}
		}
		return false
	}
	switch args[1].text {
	case "cover":
		if opt("-html") && !opt("-o") {
			return "go tool cover -html opens a browser the environment chooses (BROWSER)"
		}
	case "trace":
		if !opt("-pprof", "-d") && !onlyVersion(rest) {
			return "go tool trace opens a browser the environment chooses (BROWSER)"
		}
	case "pprof":
		if opt("-web", "-weblist", "-gv", "-evince", "-eog") || opt("-http") && !opt("-no_browser") {
			return "go tool pprof opens a browser or viewer the environment chooses (BROWSER)"
		}
	}
	return ""
}

// gitHelp returns why git global… sub args shows a manual: git help with
// a topic or a display option, git --help TOPIC and git SUB --help run
// man, info or a web browser, as git's configuration (help.format,
// man.viewer, web.browser, browser.<tool>.cmd) and the environment choose
// (man itself is opaque); or "". global are the options before sub.
func gitHelp(global []word, sub string, args []word) string {
	if hasAny(global, "--help", "-h") {
		return "git --help " + clipName(sub) + " runs man, info or a web browser, as git's configuration chooses"
	}
	if sub != "help" {
		for _, a := range args {
			if a.text == "--" {
				break
			}
			if a.text == "--help" {
				return "git " + clipName(sub) + " --help runs man, info or a web browser, as git's configuration chooses"
			}
		}
		return ""
	}
	listing, display, operand := false, false, false
	for _, a := range args {
		t := a.text
		switch {
		case a.dynamic || a.pattern:
			display = true
		case strings.HasPrefix(t, "--"):
			n := strings.TrimPrefix(t, "--")
			for _, d := range []string{"web", "info", "man"} {
				if n != "" && strings.HasPrefix(d, n) {
					display = true
				}
			}
			if contains([]string{"all", "guides", "config", "user-interfaces", "developer-interfaces",
				"config-for-completion", "config-sections-for-completion"}, n) {
				listing = true
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if strings.ContainsAny(t[1:], "wim") {
				display = true
			}
			if strings.ContainsAny(t[1:], "agc") {
				listing = true
			}
		default:
			operand = true
		}
	}
	if display || operand && !listing {
		return "git help runs man, info or a web browser, as git's configuration chooses"
	}
	return ""
}
