package shellscan

import (
	"strings"
)

// ghCommands are gh's built-in commands (with their other names): any
// other first word is an alias (which may be "!sh -c …"), such as the
// default co, or an extension, whose code lies in the home.
var ghCommands = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"accessibility", "a11y", "agent-task", "alias", "api", "attestation", "auth",
		"browse", "cache", "codespace", "cs", "completion", "config", "extension", "extensions", "ext", "gist",
		"gpg-key", "help", "issue", "label", "org", "pr", "preview", "project", "release", "repo", "ruleset",
		"rs", "run", "search", "secret", "ssh-key", "status", "variable", "version", "workflow"} {
		m[n] = true
	}
	return m
}}

// ghCodespaceReads are the gh codespace commands that only show or change
// the codespace on GitHub's side; the others connect to it through ssh
// with a key gh creates in ~/.ssh (ssh, cp, logs, ports), or open an
// editor or a browser (code, jupyter).
var ghCodespaceReads = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"list": true, "ls": true, "view": true, "help": true}
}}

// ghState returns why gh args runs a program the line does not show,
// writes outside the workdir with no path on the line, or changes the
// keys that sign in to the user's account, or "": a browser (gh browse,
// any --web, which runs GH_BROWSER, BROWSER or the browser setting), an
// alias or extension, gh codespace's ssh, ssh-key and gpg-key's changes,
// and git options given to gh repo clone after --. (gh config, alias,
// extension and auth's writes are configWriters'.)
func ghState(args []word) string {
	if len(args) == 0 || onlyVersion(args) {
		return ""
	}
	cmd := args[0]
	if cmd.dynamic || cmd.pattern {
		return "gh gets a command only known when it runs"
	}
	if strings.HasPrefix(cmd.text, "-") {
		return ""
	}
	if !ghCommands.get()[cmd.text] {
		return "gh " + clipName(cmd.text) + " is not a built-in command the analysis knows (an alias or an extension)"
	}
	if why := ghRemoteWrite(args); why != "" {
		return why
	}
	if why := ghAccessChange(args); why != "" {
		return why
	}
	rest := args[1:]
	for _, a := range rest {
		if a.text == "--" {
			break
		}
		if a.dynamic || a.text == "--web" || a.text == "-w" || strings.HasPrefix(a.text, "--web=") ||
			strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "w") && cmd.text != "api" {
			return "gh " + cmd.text + " --web opens a browser the environment or gh's settings choose"
		}
	}
	sub := ""
	for _, a := range rest {
		if !strings.HasPrefix(a.text, "-") {
			sub = a.text
			break
		}
	}
	switch cmd.text {
	case "browse":
		if !hasAny(rest, "-n", "--no-browser") {
			return "gh browse opens a browser the environment or gh's settings choose"
		}
	case "codespace", "cs":
		if sub != "" && !ghCodespaceReads.get()[sub] {
			return "gh codespace " + clipName(sub) + " writes ssh keys and configuration in ~/.ssh or opens a program the environment chooses"
		}
	case "ssh-key", "gpg-key":
		if sub != "list" && sub != "ls" && sub != "help" && sub != "" {
			return "gh " + cmd.text + " " + clipName(sub) + " changes the keys that sign in to the user's account"
		}
	case "extension", "extensions", "ext":
		if sub == "exec" || sub == "browse" {
			return "gh extension " + sub + " runs an extension's code or a browser"
		}
	case "repo":
		if sub == "clone" || sub == "fork" {
			for _, a := range rest {
				if a.text == "--" {
					return "gh repo " + sub + " gives git options the analysis does not see"
				}
			}
		}
	case "help":
		return ""
	}
	return ""
}
