package shellscan

import (
	"path"
	"slices"
	"strings"
)

// A credentialPrinter is a command of a program that prints a credential
// it keeps in the home (a token, a password, a key), as cat of the file
// would: the file, relative to the home, and whether the command is one.
type credentialPrinter struct {
	file string
	is   func(sub []string, args []word) bool
}

// credentialPrinters are the programs whose commands print a credential
// they keep (gh auth token prints the token of ~/.config/gh/hosts.yml;
// aws configure get aws_secret_access_key the key of ~/.aws/credentials;
// kubectl config view --raw the kubeconfig's client keys and tokens),
// by program name. sub is the command's leading words that are not
// options.
var credentialPrinters = lazy[map[string]credentialPrinter]{build: func() map[string]credentialPrinter {
	subIs := func(cmds ...string) func([]string, []word) bool {
		return func(sub []string, _ []word) bool {
			// Anywhere among the leading words: an option's value
			// (aws --profile p configure get …) may come first.
			for _, c := range cmds {
				if strings.Contains(" "+strings.Join(sub, " ")+" ", " "+c+" ") {
					return true
				}
			}
			return false
		}
	}
	withOption := func(cmd string, opts ...string) func([]string, []word) bool {
		return func(sub []string, args []word) bool {
			return subIs(cmd)(sub, args) && hasOption(args, opts...)
		}
	}
	// pass and gopass print an entry given its name alone, and search
	// their decrypted entries with grep.
	store := func(quiet ...string) func([]string, []word) bool {
		return func(sub []string, _ []word) bool {
			if len(sub) == 0 {
				return false // the tree of entry names
			}
			for _, q := range quiet {
				if sub[0] == q {
					return false
				}
			}
			return true
		}
	}
	return map[string]credentialPrinter{
		"gh": {".config/gh/hosts.yml", func(sub []string, args []word) bool {
			return subIs("auth token")(sub, args) || withOption("auth status", "-t", "--show-token")(sub, args) ||
				subIs("config get")(sub, args) && slices.ContainsFunc(args, func(w word) bool { return strings.Contains(w.text, "token") })
		}},
		"doctl": {".config/doctl", subIs("auth token")},
		"bw":    {".config/Bitwarden CLI", subIs("get", "list", "export", "serve", "unlock")},
		"glab": {".config/glab-cli/config.yml", func(sub []string, args []word) bool {
			return subIs("config get token", "auth token")(sub, args) || withOption("auth status", "-t", "--show-token")(sub, args)
		}},
		"aws": {".aws/credentials", subIs("configure get", "configure export-credentials", "ecr get-login-password",
			"ecr-public get-login-password", "codeartifact get-authorization-token", "sts get-session-token")},
		"kubectl": {".kube/config", func(sub []string, args []word) bool {
			return withOption("config view", "--raw")(sub, args) || subIs("create token")(sub, args)
		}},
		"gcloud": {".config/gcloud", subIs("auth print-access-token", "auth print-identity-token",
			"auth application-default print-access-token", "config config-helper")},
		"az":          {".azure", subIs("account get-access-token")},
		"pass":        {".password-store", store("ls", "list", "find", "search", "init", "help", "version", "insert", "add", "generate", "rm", "remove", "delete", "mv", "rename", "cp", "copy", "git")},
		"gopass":      {".password-store", store("ls", "list", "find", "search", "init", "help", "version", "setup", "insert", "generate", "rm", "mv", "cp", "git", "sync", "mounts", "config", "recipients")},
		"secret-tool": {".local/share/keyrings", subIs("lookup", "search")},
		"security":    {"Library/Keychains", subIs("find-generic-password", "find-internet-password", "dump-keychain", "export")},
		"op":          {".config/op", subIs("read", "inject", "run", "item get", "document get")},
		"vault":       {".vault-token", subIs("print token", "read", "kv get", "token lookup", "login")},
		"heroku":      {".netrc", subIs("auth:token", "authorizations:create")},
	}
}}

// hasOption reports whether args hold one of opts, alone or as --opt=….
func hasOption(args []word, opts ...string) bool {
	for _, a := range args {
		for _, o := range opts {
			if a.text == o || strings.HasPrefix(o, "--") && strings.HasPrefix(a.text, o+"=") {
				return true
			}
		}
	}
	return false
}

// credentialPrinter records, for a command of name that prints a
// credential it keeps (see credentialPrinters), a read of that
// credential's file in the home, so that the gate's secret rule asks as
// for cat of the file. The command's subcommand words are among its first
// four words that are not options; one known only when the line runs may
// name any command, so it counts as a printer. docker-credential-<helper> get
// and list print the registry passwords of ~/.docker/config.json's helper.
func (an *analyzer) credentialPrinter(name string, args []word) {
	p, ok := credentialPrinters.get()[name]
	if strings.HasPrefix(name, "docker-credential-") {
		p, ok = credentialPrinter{".docker/config.json", func(sub []string, _ []word) bool {
			return len(sub) > 0 && (sub[0] == "get" || sub[0] == "list")
		}}, true
	}
	if !ok {
		return
	}
	var sub []string
	dynamic := false
	for _, a := range args {
		if strings.HasPrefix(a.text, "-") && !a.dynamic {
			continue
		}
		dynamic = dynamic || a.dynamic
		sub = append(sub, a.text)
		if len(sub) == 4 {
			break
		}
	}
	if !dynamic && !p.is(sub, args) {
		return
	}
	if an.home == "" {
		an.opaque(name + " prints a credential it keeps in the home, which is unknown")
		return
	}
	an.addAccess(word{text: path.Join(an.home, p.file)}, modeRead, name, false)
}
