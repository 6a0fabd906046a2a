// Package secretpaths lists the places that hold secrets an agent's
// commands have no business reading: the credential files and directories
// of a user's home, the system's secret files, and lite-agent's data homes.
// The sandbox hides them ([sandbox.ProjectOptions]) and the permission gate
// asks before a bash line reads them; both take the list from here, so that
// one list says what is secret.
package secretpaths

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/storage"
)

// homeEntries are the credential files and directories of a user's home,
// relative to it (slash-separated). Files that hold settings a program
// needs on every run beside an optional password (~/.m2/settings.xml,
// ~/.gradle/gradle.properties, ~/.config/pip/pip.conf) are not listed:
// the sandbox would hide their settings too.
func homeEntries() []string {
	return []string{".ssh", ".aws", ".gnupg", ".config/gcloud",
		".azure", ".kube", ".docker", ".config/gh", ".netrc", ".git-credentials",
		".pypirc", ".vault-token", ".cargo/credentials", ".cargo/credentials.toml",
		".terraform.d/credentials.tfrc.json", ".config/hub",
		// Database clients' passwords, package registries' tokens (npm's
		// and yarn's auth tokens, RubyGems, Composer, Maven's master
		// password), git's credential store under XDG.
		".pgpass", ".my.cnf", ".npmrc", ".yarnrc.yml", ".gem/credentials", ".composer/auth.json",
		".config/composer/auth.json", ".m2/settings-security.xml", ".config/git/credentials",
		// Password managers, keyrings, private keys of age/sops, and
		// browser profiles (cookies, saved logins).
		".config/op", ".config/Bitwarden CLI", ".password-store", ".local/share/keyrings", ".config/sops/age/keys.txt",
		".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
		// Cloud, storage and registry tools' keys and tokens.
		".config/rclone/rclone.conf", ".s3cfg", ".boto", ".passwd-s3fs", ".mc/config.json",
		".config/doctl", ".oci", ".config/hcloud/cli.toml", ".databrickscfg", ".pulumi/credentials.json",
		".config/containers/auth.json", ".dockercfg", ".config/glab-cli/config.yml",
		".kaggle/kaggle.json", ".huggingface/token", ".cache/huggingface/token", ".fly/config.yml",
		// macOS's keychains (login.keychain-db: saved passwords, keys
		// and certificates).
		"Library/Keychains",
		// Other coding agents' and assistants' logins: Claude Code's,
		// Codex's, Gemini CLI's OAuth tokens, GitHub Copilot's (its
		// hosts.json and apps.json); MySQL's login paths (mysql_config_editor,
		// only obfuscated); the deployment and service CLIs' tokens
		// (Cloudflare's wrangler, Firebase, Supabase, Vercel,
		// Netlify). Each was read by cat ~/… while the gate allowed it
		// (round redteam132).
		".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json", ".config/github-copilot",
		".mylogin.cnf", ".wrangler/config", ".config/.wrangler/config", ".config/configstore/firebase-tools.json",
		".supabase/access-token", ".local/share/com.vercel.cli/auth.json",
		".config/netlify/config.json", ".netlify/config.json"}
}

// printedEntries are the settings files of a user's home, relative to it,
// that may carry a credential beside settings a program needs on every
// run: pip.conf's index URLs with a login (index-url =
// https://user:token@host/simple), which pip config list prints.
func printedEntries() []string {
	// Also Terraform's CLI configuration, whose credentials blocks hold
	// the registries' tokens, ngrok's with its authtoken, and Sentry's
	// with its auth token (round redteam132).
	return []string{".config/pip/pip.conf", ".pip/pip.conf", ".terraformrc", ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml",
		".sentryclirc"}
}

// PrintedSettings returns the settings files of the user whose home is
// home (absolute) that may carry a credential but that programs read on
// every run (~/.config/pip/pip.conf, ~/.pip/pip.conf): the sandbox leaves
// them readable, unlike [UserCredentials], and the permission gate asks
// before a bash line reads or prints them (cat, pip config list). A home
// that is empty or relative has none.
func PrintedSettings(home string) []string {
	if home == "" || !filepath.IsAbs(home) {
		return nil
	}
	var out []string
	for _, p := range printedEntries() {
		out = append(out, filepath.Join(filepath.Clean(home), filepath.FromSlash(p)))
	}
	return out
}

// EnvLocations returns the environment variables with which programs
// move a credential location of the home elsewhere, each mapped to the
// location of the home (relative to it, slash-separated) that its value
// stands for: GNUPGHOME for .gnupg, DOCKER_CONFIG for .docker,
// GH_CONFIG_DIR for .config/gh, CLOUDSDK_CONFIG for .config/gcloud,
// AZURE_CONFIG_DIR for .azure, NETRC for .netrc, PGPASSFILE for .pgpass,
// KUBECONFIG for .kube/config, CARGO_HOME for .cargo, XDG_CONFIG_HOME for
// .config, PIP_CONFIG_FILE for .config/pip/pip.conf (one of
// [PrintedSettings]) … A path that begins with such a variable's value is a secret
// location when the same path beneath the home directory is one
// ($GNUPGHOME/private-keys-v1.d/k.key is ~/.gnupg/private-keys-v1.d/k.key).
// Variables that name a directory of tools' settings whose credentials
// lie deeper (CARGO_HOME: credentials.toml; XDG_CONFIG_HOME: gh/hosts.yml)
// map to that directory, so that only those files are secret beneath it.
func EnvLocations() map[string]string {
	return map[string]string{
		"GNUPGHOME": ".gnupg", "DOCKER_CONFIG": ".docker", "DOCKER_CERT_PATH": ".docker",
		"GH_CONFIG_DIR": ".config/gh", "CLOUDSDK_CONFIG": ".config/gcloud",
		"AZURE_CONFIG_DIR": ".azure", "AWS_SHARED_CREDENTIALS_FILE": ".aws/credentials",
		"AWS_CONFIG_FILE": ".aws/config", "KUBECONFIG": ".kube/config", "NETRC": ".netrc",
		"PGPASSFILE": ".pgpass", "NPM_CONFIG_USERCONFIG": ".npmrc", "npm_config_userconfig": ".npmrc",
		"CARGO_HOME": ".cargo", "PASSWORD_STORE_DIR": ".password-store",
		"RCLONE_CONFIG": ".config/rclone/rclone.conf", "SOPS_AGE_KEY_FILE": ".config/sops/age/keys.txt",
		"COMPOSER_HOME": ".config/composer", "PULUMI_HOME": ".pulumi", "KAGGLE_CONFIG_DIR": ".kaggle",
		"HF_HOME": ".cache/huggingface", "HF_TOKEN_PATH": ".cache/huggingface/token", "BOTO_CONFIG": ".boto",
		"OCI_CLI_CONFIG_FILE": ".oci/config", "REGISTRY_AUTH_FILE": ".config/containers/auth.json",
		"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_CACHE_HOME": ".cache",
		"GOOGLE_APPLICATION_CREDENTIALS": ".config/gcloud/application_default_credentials.json",
		"PIP_CONFIG_FILE":                ".config/pip/pip.conf",
	}
}

// EnvCredentials returns the credential locations that the environment
// env ("KEY=value" entries) moves out of the home (see [EnvLocations]):
// for each such variable whose value is an absolute path (each of
// KUBECONFIG's colon-separated paths), the value itself when it stands
// for a credential location or a path beneath one (GNUPGHOME=/srv/g:
// /srv/g; AWS_CONFIG_FILE: the file), and the credential locations
// beneath the directory it stands for (CARGO_HOME=/c: /c/credentials,
// /c/credentials.toml; XDG_CONFIG_HOME=/x: /x/gh, /x/gcloud …), the
// printed settings among them ([PrintedSettings]: PIP_CONFIG_FILE=/p.conf:
// /p.conf; XDG_CONFIG_HOME=/x: /x/pip/pip.conf). The permission gate asks
// before a line reads them; a project's sandbox hides them but the printed
// settings ([EnvHiddenCredentials]).
func EnvCredentials(env []string) []string { return envCredentials(env, true) }

// EnvHiddenCredentials is [EnvCredentials] less the printed settings
// ([PrintedSettings]), which hold settings programs need: what a
// project's sandbox hides, as it hides [UserCredentials] but not the
// printed settings of the home.
func EnvHiddenCredentials(env []string) []string { return envCredentials(env, false) }

func envCredentials(env []string, printed bool) []string {
	entries := homeEntries()
	if printed {
		entries = append(entries, printedEntries()...)
	}
	locs := EnvLocations()
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		rel, known := locs[name]
		if !ok || !known {
			continue
		}
		values := []string{value}
		if name == "KUBECONFIG" {
			values = filepath.SplitList(value)
		}
		for _, v := range values {
			if v == "" || !filepath.IsAbs(v) {
				continue
			}
			v = filepath.Clean(v)
			for _, e := range entries {
				switch {
				case e == rel || strings.HasPrefix(rel, e+"/"):
					add(v)
				case strings.HasPrefix(e, rel+"/"):
					add(filepath.Join(v, filepath.FromSlash(e[len(rel)+1:])))
				}
			}
		}
	}
	return out
}

// runtimeEntries are the credential files of a user's runtime directory
// ($XDG_RUNTIME_DIR, /run/user/<uid>), relative to it: podman's and
// buildah's registry logins, which they write there before
// ~/.config/containers/auth.json.
func runtimeEntries() []string { return []string{"containers/auth.json"} }

// RuntimeCredentials returns the credential files of the runtime directory
// runtimeDir ($XDG_RUNTIME_DIR): podman's and buildah's registry logins,
// containers/auth.json. A runtimeDir that is empty or relative has none.
func RuntimeCredentials(runtimeDir string) []string {
	if runtimeDir == "" || !filepath.IsAbs(runtimeDir) {
		return nil
	}
	var out []string
	for _, p := range runtimeEntries() {
		out = append(out, filepath.Join(filepath.Clean(runtimeDir), filepath.FromSlash(p)))
	}
	return out
}

// RunUser is the directory of the users' runtime directories on Linux
// (/run/user/<uid>).
const RunUser = "/run/user"

// UserCredentials returns the credential locations of the user whose home
// is home (absolute): home's .ssh, .aws, .gnupg, .config/gcloud, .azure,
// .kube, .docker, .config/gh, .netrc, .git-credentials, the token files
// .pypirc, .vault-token, .cargo/credentials(.toml),
// .terraform.d/credentials.tfrc.json and .config/hub, the password files
// of database clients (.pgpass, .my.cnf), package registries' tokens
// (.npmrc, .yarnrc.yml, .gem/credentials …), password stores and keyrings,
// browser profiles (.mozilla, .config/google-chrome …) and cloud and
// storage tools' keys (.config/rclone/rclone.conf, .s3cfg, .boto, .oci,
// .config/doctl, .config/containers/auth.json …). A home that is empty
// or relative has none.
func UserCredentials(home string) []string {
	if home == "" || !filepath.IsAbs(home) {
		return nil
	}
	home = filepath.Clean(home)
	out := make([]string, 0, len(homeEntries()))
	for _, p := range homeEntries() {
		out = append(out, filepath.Join(home, filepath.FromSlash(p)))
	}
	return out
}

// RootHome is the home directory of the superuser on Linux and most
// Unixes, whose credential locations are secret to an agent whatever
// user it runs as.
const RootHome = "/root"

// System returns the system's secret files and directories: the shadow
// password and group files and their backups, sudo's rules, the private
// keys of TLS (/etc/ssl/private) and of the SSH server, and the credential
// locations of the other users' homes: the superuser's (/root) and each
// directory of /home and /Users, but home (the user's own, see
// [UserCredentials]); and the credential files of the users' runtime
// directories ([RuntimeCredentials]): $XDG_RUNTIME_DIR's, the current
// user's /run/user/<uid> and each other directory of /run/user. It reads
// /home, /Users and /run/user, so homes created later are not seen.
// Processes' environments and memory are matched by [IsProcSecret].
func System(home string) []string {
	return system(home, []string{"/home", "/Users"}, RunUser, os.Getenv("XDG_RUNTIME_DIR"), os.Getuid())
}

// system is System with the directories of homes homeRoots, the
// directory of runtime directories runRoot, the runtime directory
// runtimeDir ("" for none) and the user id uid (negative for none).
func system(home string, homeRoots []string, runRoot, runtimeDir string, uid int) []string {
	out := []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
		"/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private",
		"/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_dsa_key"}
	own := filepath.Clean(home)
	others := []string{RootHome}
	for _, dir := range homeRoots {
		entries, _ := os.ReadDir(dir) // a missing or unreadable one has no homes we can see
		for _, e := range entries {
			if e.IsDir() {
				others = append(others, filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, h := range others {
		if h != own {
			out = append(out, UserCredentials(h)...)
		}
	}
	runtimes := []string{runtimeDir}
	if uid >= 0 {
		runtimes = append(runtimes, filepath.Join(runRoot, strconv.Itoa(uid)))
	}
	entries, _ := os.ReadDir(runRoot) // a missing or unreadable one has no runtime directories we can see
	for _, e := range entries {
		if e.IsDir() {
			runtimes = append(runtimes, filepath.Join(runRoot, e.Name()))
		}
	}
	for _, r := range runtimes {
		for _, p := range RuntimeCredentials(r) {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// DataHomes returns lite-agent's data homes that can be found: the default
// namespace's (see [storage.DefaultHome]) and every directory
// userHome/.<name> whose name is a valid namespace and that looks like a
// data home (it has projects/<project hash>/). It reads userHome, so homes
// created later are not seen. userHome "" or relative finds only the
// default namespace's.
func DataHomes(userHome string) []string {
	var out []string
	if h, err := storage.DefaultHome(storage.DefaultNamespace); err == nil {
		out = append(out, h)
	}
	if userHome == "" || !filepath.IsAbs(userHome) {
		return out
	}
	userHome = filepath.Clean(userHome)
	entries, _ := os.ReadDir(userHome) // an unreadable home holds nothing more we can see
	for _, e := range entries {
		name := e.Name()
		if len(name) < 2 || name[0] != '.' || storage.ValidateNamespace(name[1:]) != nil {
			continue
		}
		if dir := filepath.Join(userHome, name); holdsProjects(dir) && !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

// IsDataHome reports whether dir looks like a data home of lite-agent:
// its projects directory holds a directory named like a project hash.
func IsDataHome(dir string) bool { return holdsProjects(dir) }

// holdsProjects reports whether dir looks like a data home: its projects
// directory holds a directory named like a project hash (16 lowercase
// hexadecimal digits).
func holdsProjects(dir string) bool {
	entries, _ := os.ReadDir(storage.ProjectsDir(dir))
	for _, e := range entries {
		if e.IsDir() && storage.IsProjectHash(e.Name()) {
			return true
		}
	}
	return false
}

// IsProcSecret reports whether the clean absolute path p (slash-separated)
// is the environment or memory of a process or thread
// (/proc/<pid>/environ, /proc/<pid>/mem, /proc/self/task/<tid>/environ …),
// which hold the secrets a process was given (API keys in its
// environment); with ancestors, also whether p is a directory holding one
// (/proc, /proc/<pid>, /proc/<pid>/task …).
func IsProcSecret(p string, ancestors bool) bool {
	segs := strings.Split(strings.TrimPrefix(path.Clean(p), "/"), "/")
	if len(segs) == 0 || segs[0] != "proc" || !strings.HasPrefix(p, "/") {
		return false
	}
	rest := segs[1:]
	if len(rest) == 0 {
		return ancestors // /proc
	}
	if !pathmatch.IsProcess(rest[0]) {
		return false // /proc/cpuinfo, /proc/sys/…
	}
	if len(rest) >= 2 && rest[1] == "task" {
		if len(rest) == 2 {
			return ancestors
		}
		rest = rest[2:] // /proc/<pid>/task/<tid>/… is a process of its own
	}
	switch {
	case len(rest) >= 2:
		return rest[1] == "environ" || rest[1] == "mem"
	case ancestors:
		return true // /proc/<pid>, /proc/<pid>/task/<tid>
	}
	return false
}

// CredentialVar reports whether the environment variable name, by the
// words of its name, holds a credential: a token, a secret, a password,
// a key (ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// PGPASSWORD, NPM_TOKEN, GH_PAT), an authorization (NPM_CONFIG__AUTH,
// any name ending in _AUTH) or a connection URL that carries one
// (DATABASE_URL, LITE_AGENT_STORE, SENTRY_DSN). An agent's environment holds its own
// provider key: printing it puts the key in the transcript, as cat of
// ~/.aws/credentials would. The permission gate asks before a line prints
// one, and a project's sandbox does not pass them to its commands.
func CredentialVar(name string) bool {
	u := strings.ToUpper(name)
	switch u {
	case "DATABASE_URL", "LITE_AGENT_STORE", "PGPASSWORD", "MYSQL_PWD", "REDIS_URL", "MONGODB_URI":
		return true
	}
	if strings.HasSuffix(u, "_DATABASE_URL") {
		return true
	}
	if strings.HasSuffix(u, "_AUTH") {
		return true
	}
	for _, part := range strings.Split(u, "_") {
		switch part {
		case "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE",
			"KEY", "APIKEY", "PAT", "CREDENTIAL", "CREDENTIALS", "AUTHTOKEN", "PRIVATEKEY", "DSN":
			return true
		}
	}
	return false
}

// CredentialValue reports whether an environment variable's value holds
// a credential whatever its name: a URL with a password in it
// (HTTPS_PROXY=http://user:password@proxy:3128,
// PIP_INDEX_URL=https://user:password@host/simple).
func CredentialValue(v string) bool {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return false
	}
	_, password, ok := strings.Cut(rest[:at], ":")
	return ok && password != ""
}
