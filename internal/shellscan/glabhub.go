package shellscan

import (
	"strings"
)

// glab (GitLab's command-line tool) and hub (GitHub's older one) do what
// gh does (see ghState, ghAccessChange, ghRemoteWrite): glab api and hub
// api take gh's -X, -f/-F, --input and -H; glab variable set, deploy-key
// add, token create and repo delete change who or what may reach the
// project, and glab's aliases may be shell commands. hub runs any command
// it does not know as git's (hub foo is git foo), outside the analysis of
// git. Each was allowed at gate60.

// glabCommands are glab's built-in commands: any other first word is an
// alias, which may be a shell command (glab alias set x '!sh -c …').
var glabCommands = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`alias api attestation auth changelog check-update ci cluster completion config
		deploy-key duo gpg-key help incident issue iteration job label mr opentofu release repo runner schedule
		securefile snippet ssh-key stack token user variable version work-items`) {
		m[n] = true
	}
	return m
}}

// glabState returns why glab args changes what git cannot restore or who
// may reach the project, runs an alias, a browser or a program glab's
// settings choose, or brings files into the worktree, or "".
func glabState(args []word) string {
	if len(args) == 0 || onlyVersion(args) {
		return ""
	}
	cmd := args[0]
	if cmd.dynamic || cmd.pattern {
		return "glab gets a command only known when it runs"
	}
	if strings.HasPrefix(cmd.text, "-") {
		return "glab takes " + clipName(cmd.text) + " before its command, which the analysis does not model"
	}
	if !glabCommands.get()[cmd.text] {
		return "glab " + clipName(cmd.text) + " is not a built-in command the analysis knows (an alias, which may run a shell command)"
	}
	if cmd.text == "api" {
		if why := ghRemoteWrite(args); why != "" {
			return strings.NewReplacer("gh api", "glab api", "GitHub", "GitLab").Replace(why)
		}
		return ""
	}
	rest := args[1:]
	sub := firstOperand(rest)
	for _, a := range rest {
		if a.dynamic {
			return "glab " + cmd.text + " gets a word only known when it runs"
		}
		if a.text == "--web" || a.text == "-w" || strings.HasPrefix(a.text, "--web=") {
			return "glab " + cmd.text + " --web opens a browser the environment or glab's settings choose"
		}
		if strings.HasPrefix(a.text, "--visibility") && cmd.text == "repo" && sub != "create" {
			return "glab repo " + clipName(sub) + " --visibility changes who may read the project"
		}
	}
	switch sub {
	case "delete", "remove", "rm", "revoke", "rotate", "archive", "transfer", "unprotect":
		return "glab " + cmd.text + " " + sub + " changes or deletes what git cannot restore"
	}
	switch cmd.text {
	case "variable", "securefile":
		if sub != "list" && sub != "get" && sub != "export" && sub != "help" && sub != "" {
			return "glab " + cmd.text + " " + clipName(sub) + " changes the variables and files GitLab gives the pipelines"
		}
	case "deploy-key", "ssh-key", "gpg-key", "token":
		if sub != "list" && sub != "get" && sub != "help" && sub != "" {
			return "glab " + cmd.text + " " + clipName(sub) + " changes the keys or tokens that sign in to the project or the account"
		}
	case "cluster", "duo", "stack", "opentofu", "runner":
		// Kubernetes' settings in the home, commands Duo proposes, git
		// operations of stacked changes, OpenTofu's state.
		if sub != "list" && sub != "help" && sub != "" {
			return "glab " + cmd.text + " " + clipName(sub) + " runs programs or writes files outside the workdir the analysis does not model"
		}
	case "mr", "repo", "ci", "job", "release", "snippet":
		if glabBringsFiles(cmd.text, sub) {
			return "glab " + cmd.text + " " + sub + " brings files into the worktree under names the line does not show"
		}
	}
	return ""
}

// glabBringsFiles reports whether glab cmd sub checks files out or
// downloads them under their own names, as gh pr checkout does.
func glabBringsFiles(cmd, sub string) bool {
	switch cmd {
	case "mr":
		return sub == "checkout"
	case "repo":
		return sub == "clone" || sub == "fork"
	case "ci", "job":
		return sub == "artifact"
	case "release":
		return sub == "download"
	case "snippet":
		return sub == "clone"
	}
	return false
}

// hubOwn are hub's own commands; hub runs any other as git's (hub
// checkout PR-URL, hub am URL, hub foo), and git options before it too.
var hubOwn = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`api browse ci-status compare create delete fork gist pull-request pr issue release
		sync alias help version`) {
		m[n] = true
	}
	return m
}}

// hubState returns why hub args is opaque, or "": a git command (the
// analysis judges git's only as git), a deletion, a browser, the editor
// (a pull request, issue or release without a message), gh's api writes,
// hub sync, which fast-forwards the checked-out branch's files, and hub
// fork and pr checkout, which add a remote and check files out.
func hubState(args []word) string {
	if len(args) == 0 || onlyVersion(args) {
		return ""
	}
	cmd := args[0]
	if cmd.dynamic || cmd.pattern || !hubOwn.get()[cmd.text] {
		return "hub runs " + clipName(cmd.text) + " as git's command, outside the analysis of git"
	}
	if cmd.text == "api" {
		if why := ghRemoteWrite(args); why != "" {
			return strings.Replace(why, "gh api", "hub api", 1)
		}
		return ""
	}
	rest := args[1:]
	sub := firstOperand(rest)
	message := false
	for _, a := range rest {
		t := a.text
		if a.dynamic {
			return "hub " + cmd.text + " gets a word only known when it runs"
		}
		if t == "-o" || t == "--browse" {
			return "hub " + cmd.text + " --browse opens a browser the environment chooses"
		}
		if t == "-m" || t == "-F" || t == "--message" || t == "--file" || t == "--no-edit" ||
			strings.HasPrefix(t, "--message=") || strings.HasPrefix(t, "--file=") ||
			strings.HasPrefix(t, "-m") || strings.HasPrefix(t, "-F") {
			message = true
		}
	}
	switch {
	case cmd.text == "delete" || sub == "delete":
		return "hub " + cmd.text + " deletes what git cannot restore"
	case cmd.text == "browse" || cmd.text == "compare" || sub == "show":
		if !hasAny(rest, "-u", "--url") {
			return "hub " + cmd.text + " opens a browser the environment chooses"
		}
	case cmd.text == "pull-request" || sub == "create" || sub == "edit":
		if !message {
			return "hub " + cmd.text + " without a message starts the editor the environment chooses"
		}
	case cmd.text == "sync" || cmd.text == "fork" || cmd.text == "pr" && sub == "checkout":
		return "hub " + cmd.text + " brings files into the worktree under names the line does not show"
	}
	return ""
}

// glabHubState returns glabState or hubState for the program name.
func glabHubState(name string, args []word) string {
	switch name {
	case "glab":
		return glabState(args)
	case "hub":
		return hubState(args)
	}
	return ""
}
