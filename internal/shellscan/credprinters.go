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
// kubectl config view --raw or --flatten the kubeconfig's client keys
// and tokens),
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
			return subIs("auth token", "auth git-credential get")(sub, args) || withOption("auth status", "-t", "--show-token")(sub, args) ||
				subIs("config get")(sub, args) && slices.ContainsFunc(args, func(w word) bool { return strings.Contains(w.text, "token") })
		}},
		"doctl": {".config/doctl", subIs("auth token")},
		// python3 -m netrc, named so by credentialPrinter.
		"python-netrc": {".netrc", func([]string, []word) bool { return true }},
		"bw":           {".config/Bitwarden CLI", subIs("get", "list", "export", "serve", "unlock")},
		"glab": {".config/glab-cli/config.yml", func(sub []string, args []word) bool {
			return subIs("config get token", "auth token")(sub, args) || withOption("auth status", "-t", "--show-token")(sub, args)
		}},
		"aws": {".aws/credentials", func(sub []string, args []word) bool {
			return subIs("configure get", "configure export-credentials", "ecr get-login-password",
				"ecr-public get-login-password", "codeartifact get-authorization-token", "sts get-session-token",
				"secretsmanager get-secret-value", "secretsmanager batch-get-secret-value", "sts assume-role",
				"sts get-federation-token", "sso get-role-credentials", "iam create-access-key",
				// Tokens signed with the keys of ~/.aws/credentials
				// (round redteam133, tools: aws eks get-token printed
				// a bearer token for the cluster while allowed).
				"eks get-token", "rds generate-db-auth-token", "ecr get-authorization-token",
				"ecr-public get-authorization-token", "dsql generate-db-connect-auth-token",
				"dsql generate-db-connect-admin-auth-token", "redshift get-cluster-credentials",
				"redshift get-cluster-credentials-with-iam", "redshift-serverless get-credentials",
				"codecommit credential-helper", "sso-oidc create-token")(sub, args) ||
				subIs("ssm get-parameter", "ssm get-parameters", "ssm get-parameters-by-path")(sub, args) && awsDecrypts(args)
		}},
		"kubectl": {".kube/config", func(sub []string, args []word) bool {
			return withOption("config view", "--raw", "--flatten")(sub, args) || subIs("create token")(sub, args) ||
				kubectlShowsSecret(sub, args)
		}},
		// The view-secret plugin (kubectl view-secret s, which runs
		// kubectl-view_secret) prints a Secret's data decoded.
		"kubectl-view-secret": {".kube/config", func(sub []string, _ []word) bool { return len(sub) > 0 }},
		"kubectl-view_secret": {".kube/config", func(sub []string, _ []word) bool { return len(sub) > 0 }},
		// OpenShift's oc is kubectl's commands and whoami -t, which
		// prints the kubeconfig's token.
		"oc": {".kube/config", func(sub []string, args []word) bool {
			return withOption("config view", "--raw", "--flatten")(sub, args) || subIs("create token")(sub, args) ||
				withOption("whoami", "-t", "--show-token")(sub, args) || kubectlShowsSecret(sub, args)
		}},
		// python keyring's keyring get prints a password of the
		// keyring (Secret Service's, in ~/.local/share/keyrings).
		"keyring": {".local/share/keyrings", subIs("get")},
		// sops decrypts with the age key of ~/.config/sops/age/keys.txt
		// (or gpg's): -d prints the file in clear, exec-env and
		// exec-file hand it to a command, and a file alone opens it,
		// decrypted, in the editor.
		"sops": {".config/sops/age/keys.txt", func(sub []string, args []word) bool {
			if hasOption(args, "-e", "--encrypt") {
				return false
			}
			return len(sub) > 0 && !slices.Contains([]string{"help", "h", "encrypt", "filestatus", "keyservice"}, sub[0])
		}},
		// curl -n (--netrc, --netrc-optional) sends the login of
		// ~/.netrc for the host it is given, which -v prints (the
		// Authorization header) and any host of the line's choosing
		// receives.
		"curl": {".netrc", func(_ []string, args []word) bool {
			// curl takes an abbreviation of a long option (--netrc-opt
			// -v printed the Authorization header, round 92).
			return slices.ContainsFunc(args, func(w word) bool {
				return curlNLong.Is(w.text, "--netrc", "--netrc-optional") || curlNetrcFlag(w)
			})
		}},
		// The exec plugins of a kubeconfig print the token they make
		// from the home's credentials as an ExecCredential (round
		// redteam133, tools, a lead of round 132).
		"aws-iam-authenticator":  {".aws/credentials", subIs("token")},
		"gke-gcloud-auth-plugin": {".config/gcloud", func(_ []string, args []word) bool { return !onlyVersion(args) }},
		"kubelogin":              {".kube/config", subIs("get-token")},
		"kubectl-oidc_login":     {".kube/config", subIs("get-token")},
		"gcloud": {".config/gcloud", subIs("auth print-access-token", "auth print-identity-token",
			"auth application-default print-access-token", "config config-helper", "secrets versions access")},
		"az": {".azure", func(sub []string, args []word) bool {
			return subIs("account get-access-token", "keyvault secret show", "keyvault secret download", "storage account keys list",
				"storage account show-connection-string")(sub, args) || withOption("acr login", "--expose-token")(sub, args)
		}},
		"pass":        {".password-store", store("ls", "list", "find", "search", "init", "help", "version", "insert", "add", "generate", "rm", "remove", "delete", "mv", "rename", "cp", "copy", "git")},
		"gopass":      {".password-store", store("ls", "list", "find", "search", "init", "help", "version", "setup", "insert", "generate", "rm", "mv", "cp", "git", "sync", "mounts", "config", "recipients")},
		"secret-tool": {".local/share/keyrings", subIs("lookup", "search")},
		"security":    {"Library/Keychains", subIs("find-generic-password", "find-internet-password", "dump-keychain", "export")},
		"op":          {".config/op", subIs("read", "inject", "run", "item get", "document get")},
		"vault":       {".vault-token", subIs("print token", "read", "kv get", "token lookup", "login")},
		"heroku":      {".netrc", subIs("auth:token", "authorizations:create", "config", "config:get")},
		// wget sends the login of ~/.netrc to a host that asks for one
		// (unless --no-netrc), and -d (--debug) prints the request's
		// Authorization header.
		"wget": {".netrc", func(_ []string, args []word) bool {
			return !hasOption(args, "--no-netrc") && slices.ContainsFunc(args, wgetDebug)
		}},
		// Cloud and storage tools that print the keys of their settings
		// or a token they keep.
		"rclone": {".config/rclone/rclone.conf", subIs("config show", "config dump")},
		"s3cmd": {".s3cfg", func(_ []string, args []word) bool {
			// optparse takes --dump and --du as well (round 97).
			return slices.ContainsFunc(args, func(w word) bool { return s3cmdDLong.Is(w.text, "--dump-config") })
		}},
		"mc":         {".mc/config.json", subIs("alias list", "alias ls", "alias export", "config host list", "config host ls")},
		"pulumi":     {".pulumi/credentials.json", func(_ []string, args []word) bool { return hasOption(args, "--show-secrets") }},
		"databricks": {".databrickscfg", subIs("auth token")},
		"fly":        {".fly/config.yml", subIs("auth token")},
		// pip config list, get, debug and edit print (edit opens) the
		// index URLs of pip.conf with the login they carry
		// (https://u:TOKEN@host/simple), which pip prints unmasked; the
		// file is one of [secretpaths.PrintedSettings]: pip needs it, so
		// the sandbox leaves it readable, and the gate asks before a line
		// prints it. pnpm config list (c list) and config get without a
		// key print ~/.npmrc's auth tokens (npm's own mask them).
		"pip": {".config/pip/pip.conf", func(_ []string, args []word) bool {
			return wordAfter(args, "config", "list", "get", "debug", "edit")
		}},
		"pnpm": {".npmrc", func(_ []string, args []word) bool {
			return (wordAfter(args, "config", "list", "get") || wordAfter(args, "c", "list", "get")) && !pnpmGetsKey(args)
		}},
		"flyctl": {".fly/config.yml", subIs("auth token")},
	}
}}

// kubectlShowsSecret reports whether kubectl's sub and args get a
// Secret with an output format (kubectl get secret s -o yaml, -o
// jsonpath='{.data}', get secrets,configmaps -ojson): the format prints
// its data, which the default table does not. The cluster lets it
// through the client credentials of the kubeconfig.
func kubectlShowsSecret(sub []string, args []word) bool {
	i := slices.Index(sub, "get") // an option's value (-n ns) may come first
	if i < 0 {
		return false
	}
	secret := slices.ContainsFunc(sub[i+1:], func(s string) bool {
		for _, r := range strings.Split(s, ",") {
			if strings.HasPrefix(r, "secret") {
				return true
			}
		}
		return false
	})
	return secret && slices.ContainsFunc(args, func(w word) bool {
		return strings.HasPrefix(w.text, "-o") && !strings.HasPrefix(w.text, "--") || strings.HasPrefix(w.text, "--output") ||
			strings.HasPrefix(w.text, "--template")
	})
}

// curlNetrcFlag reports whether w is a cluster of curl's short options
// that holds -n: letters of options that take no value, then n.
func curlNetrcFlag(w word) bool {
	if !strings.HasPrefix(w.text, "-") || strings.HasPrefix(w.text, "--") {
		return false
	}
	for _, r := range w.text[1:] {
		switch {
		case r == 'n':
			return true
		case !strings.ContainsRune("sSfLvikIGgqjJOR#:Z", r):
			return false
		}
	}
	return false
}

// wgetDebug reports whether w is wget's --debug (or an abbreviation
// getopt takes: --deb…) or a cluster of its short options that take no
// value holding d.
func wgetDebug(w word) bool {
	if strings.HasPrefix(w.text, "--") {
		return wgetDLong.Is(w.text, "--debug")
	}
	if !strings.HasPrefix(w.text, "-") {
		return false
	}
	for _, r := range w.text[1:] {
		switch {
		case r == 'd':
			return true
		case !strings.ContainsRune("bqvnNScrkKmpEHxF46", r):
			return false
		}
	}
	return false
}

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
	if isPython(name) {
		if mod, _, ok := pythonModule(args); ok && mod == "netrc" {
			// python3 -m netrc prints ~/.netrc, logins and passwords
			// (round redteam132).
			name, args = "python-netrc", nil
		}
	}
	name, args = pipProgram(name, args)
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
	n := len(an.a.accesses)
	an.addAccess(word{text: path.Join(an.home, p.file)}, modeRead, name, false)
	for i := n; i < len(an.a.accesses); i++ {
		an.a.accesses[i].credential = true
	}
}

// pipProgram returns, for python -m pip (python3 -mpip, python3
// /usr/bin/pip3) and pip3.11, the program "pip" and the words pip is
// given; other commands as they are.
func pipProgram(name string, args []word) (string, []word) {
	if strings.TrimRight(name, "0123456789.-") == "pip" {
		return "pip", args
	}
	if !isPython(name) {
		return name, args
	}
	if mod, after, ok := pythonModule(args); ok && (mod == "pip" || strings.HasPrefix(mod, "pip.")) {
		return "pip", after
	}
	if script, after, ok := pythonScript(args); ok && pipScript(script) {
		return "pip", after
	}
	return name, args
}

// wordAfter reports whether args hold the word cmd, not an option, and
// after it one of subs (pip --isolated config --user list), or a word
// known only when the line runs in either place.
func wordAfter(args []word, cmd string, subs ...string) bool {
	for i, a := range args {
		if a.dynamic {
			return true
		}
		if a.text != cmd {
			continue
		}
		for _, b := range args[i+1:] {
			if b.dynamic || slices.Contains(subs, b.text) {
				return true
			}
		}
	}
	return false
}

// pnpmGetsKey reports whether pnpm args get one key (pnpm config get
// registry), which pnpm hands to npm, whose get refuses a token; config
// get without a key, like config list, prints them all.
func pnpmGetsKey(args []word) bool {
	for i, a := range args {
		if a.text == "get" && !a.dynamic {
			for _, b := range args[i+1:] {
				if b.dynamic {
					return false
				}
				if !strings.HasPrefix(b.text, "-") {
					return true
				}
			}
		}
	}
	return false
}
