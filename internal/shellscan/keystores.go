package shellscan

import (
	"strings"
)

// This file models the programs that keep keys, secrets, trusted
// certificates or downloaded models in stores outside the workdir and
// change them with no path on the line: the system's and the user's
// certificate trust stores (mkcert -install, update-ca-certificates,
// keytool -importcert -cacerts), the running ssh-agent (ssh-add), password
// and secret stores (pass, secret-tool, keyring) and ollama's model store
// and server. A certificate authority the line adds is trusted by every
// later connection of the user's programs; a key added to the agent signs
// for them. Their forms that only show state stay understood.

// keyStoreShow maps each program of this file to its forms that only show
// state, as stateTools does: a first word that maps to nil shows state
// whatever follows, one that maps to words does so when the next word is
// one of them. Any other first word, and for most of them no word at all,
// changes a store. ssh-add, pass and keytool are judged by their options
// (see keyStore).
var keyStoreShow = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	help := map[string][]string{"--help": nil, "-help": nil, "-h": nil, "--version": nil, "-version": nil, "help": nil}
	with := func(m map[string][]string) map[string][]string {
		for k, v := range help {
			if _, ok := m[k]; !ok {
				m[k] = v
			}
		}
		return m
	}
	return map[string]map[string][]string{
		// mkcert creates its certificate authority (a key under
		// $CAROOT, ~/.local/share/mkcert) on every run that issues a
		// certificate, and -install adds it to the trust stores.
		"mkcert": with(map[string][]string{"-CAROOT": nil}),
		// p11-kit's trust: anchor adds or removes an authority.
		"trust":                  with(map[string][]string{"list": nil, "dump": nil}),
		"update-ca-certificates": with(map[string][]string{}),
		"update-ca-trust":        with(map[string][]string{}),
		"secret-tool":            with(map[string][]string{"lookup": nil, "search": nil}),
		"keyring":                with(map[string][]string{"get": nil, "--list-backends": nil}),
		// ollama rm, cp, create and stop change the model store
		// (~/.ollama) or the running server, serve starts one; pull
		// fills the store as docker pull fills docker's.
		"ollama": with(map[string][]string{"list": nil, "ls": nil, "ps": nil, "show": nil, "pull": nil,
			"push": nil, "run": nil, "-v": nil}),
		// step's certificate install adds to the trust stores, ca
		// bootstrap and context write $STEPPATH (~/.step), ssh config
		// and login write ~/.ssh and the agent.
		"step": with(map[string][]string{"certificate": {"inspect", "fingerprint", "lint", "verify", "format",
			"needs-renewal", "bundle", "create", "sign", "key", "p12", "renew"},
			"crypto": nil, "path": nil, "ca": {"health", "roots", "federation", "provisioner", "certificate",
				"sign", "renew", "revoke", "token"}, "context": {"current", "list"}}),
	}
}}

// keytoolShow are the commands of keytool that only show state; its
// other commands write a keystore, by default ~/.keystore or with
// -cacerts the JDK's trust store.
var keytoolShow = []string{"-list", "-printcert", "-printcertreq", "-printcrl", "-help", "--help", "-showinfo", "-version"}

// keytoolWrite are the commands of keytool that write a keystore or a
// file it names.
var keytoolWrite = []string{"-genkeypair", "-genkey", "-genseckey", "-gencert", "-importcert", "-import",
	"-importpass", "-importkeystore", "-certreq", "-changealias", "-delete", "-exportcert", "-export",
	"-keypasswd", "-storepasswd", "-selfcert", "-keyclone", "-identitydb"}

// passWrite are pass's subcommands that change the password store
// (~/.password-store; otp also counts an HOTP code up); any other first
// word shows, lists or searches it.
var passWrite = []string{"init", "insert", "add", "edit", "generate", "rm", "remove", "delete", "mv", "rename",
	"cp", "copy", "git", "otp"}

// keyStoreName reports whether name is a program this file models, for
// the analysis to look at among the words of a command it does not model.
func keyStoreName(name string) bool {
	if _, ok := keyStoreShow.get()[name]; ok {
		return true
	}
	return name == "keytool" || name == "ssh-add" || name == "pass"
}

// keyStore returns why the command name args changes a store of keys,
// secrets, trusted certificates or models outside the workdir (see
// keyStoreShow), or "". guess says the name was guessed among the words
// of a command the analysis does not model: it then takes the tool for run
// only when a word follows it.
func keyStore(name string, args []word, guess bool) string {
	if !keyStoreName(name) {
		return ""
	}
	why := name + " changes keys, secrets, trusted certificates or models kept outside the workdir"
	if guess && (len(args) == 0 || keyStoreGuessed(name, args[0])) {
		return ""
	}
	for _, a := range args {
		if a.dynamic || a.pattern {
			return name + " gets a word only known when it runs, and " + why[len(name)+1:]
		}
	}
	switch name {
	case "keytool":
		show := false
		for _, a := range args {
			if contains(keytoolWrite, a.text) {
				return "keytool " + a.text + " writes a keystore outside the analysis' view (~/.keystore, the JDK's cacerts)"
			}
			show = show || contains(keytoolShow, a.text)
		}
		if !show {
			return why
		}
		return ""
	case "ssh-add":
		return sshAdd(args)
	case "pass":
		if len(args) > 0 && contains(passWrite, args[0].text) {
			return "pass " + clipName(args[0].text) + " changes the password store outside the workdir"
		}
		for _, a := range args {
			if a.text == "--clip" || strings.HasPrefix(a.text, "--clip=") || strings.HasPrefix(a.text, "-c") && !strings.HasPrefix(a.text, "--") {
				return "pass " + a.text + " writes the clipboard, which a later paste sends on"
			}
		}
		return ""
	}
	ro := keyStoreShow.get()[name]
	if len(args) == 0 {
		if name == "ollama" || name == "step" || name == "secret-tool" || name == "keyring" || name == "trust" {
			return "" // prints the usage
		}
		return why
	}
	if subs, found := ro[args[0].text]; found && (subs == nil || len(args) > 1 && contains(subs, args[1].text)) {
		return ""
	}
	return name + " " + clipName(args[0].text) + " changes keys, secrets, trusted certificates or models kept outside the workdir"
}

// keyStoreGuessed reports whether a name guessed among the words of a
// command the analysis does not model, and first, the word after it, are
// more likely data than the tool run: step, trust, pass and keyring are
// also common words (tool step 1, ci trust me), so they are taken for the
// tool only before a subcommand that changes a store.
func keyStoreGuessed(name string, first word) bool {
	var verbs []string
	switch name {
	case "step":
		verbs = []string{"certificate", "ca", "ssh", "context"}
	case "trust":
		verbs = []string{"anchor"}
	case "pass":
		verbs = passWrite
	case "keyring":
		verbs = []string{"set", "del", "--disable"}
	default:
		return false
	}
	return !first.dynamic && !contains(verbs, first.text)
}

// sshAdd returns why ssh-add args changes the keys the running ssh-agent
// holds, or "": only listing them (-l, -L, with -E and -v, -q) shows state;
// adding, deleting (-d, -D), locking (-x, -X) and loading a token (-s, -e)
// change what signs for every later ssh of the user.
func sshAdd(args []word) string {
	list := false
	for i := 0; i < len(args); i++ {
		a := args[i].text
		if !strings.HasPrefix(a, "-") || a == "-" {
			return "ssh-add adds a key to the running ssh-agent, which signs for every later ssh"
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'l', 'L':
				list = true
			case 'v', 'q':
			case 'E':
				if j == len(a)-1 {
					i++
				}
				j = len(a)
			default:
				return "ssh-add -" + string(c) + " changes the keys the running ssh-agent holds"
			}
		}
	}
	if !list {
		return "ssh-add adds the default keys to the running ssh-agent, which signs for every later ssh"
	}
	return ""
}
