package permission

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// gpg --homedir DIR keeps gpg's keyrings, trust database and agent in DIR,
// which the analysis allows in the workdir; but gpg reads its settings
// there too (gpg.conf, common.conf) and starts gpg-agent and dirmngr with
// theirs (gpg-agent.conf, dirmngr.conf …). A cloned repository's test
// keyring, or one an earlier call wrote, may say logger-file ~/x (gpg
// writes its log there), log-file (gpg-agent's), or name a program to
// run (agent-program, pinentry-program, photo-viewer). The gate reads
// those files in the --homedir of each gpg command and allows the line
// only when each option is one known to name no path and no program.

// gpgConfFiles are the settings files gpg and the daemons it starts read
// in their home directory.
var gpgConfFiles = []string{"gpg.conf", "gpg.conf-2", "common.conf", "gpg-agent.conf", "dirmngr.conf",
	"scdaemon.conf", "keyboxd.conf", "gpgsm.conf"}

// gpgSafeOptions are gpg's options, as a settings file names them
// (without the dashes), that name no path and no program: algorithm
// preferences, output form, the trust model, key choice, the agent's
// caches.
var gpgSafeOptions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`armor no-armor no-greeting no-emit-version emit-version no-comments
		keyid-format with-fingerprint with-subkey-fingerprint with-keygrip charset utf8-strings display-charset
		trust-model always-trust batch no-batch yes no no-tty verbose quiet default-key default-recipient
		default-recipient-self encrypt-to no-encrypt-to throw-keyids expert no-expert compliance
		personal-cipher-preferences personal-digest-preferences personal-compress-preferences
		default-preference-list cert-digest-algo digest-algo cipher-algo compress-algo s2k-cipher-algo
		s2k-digest-algo s2k-mode s2k-count disable-cipher-algo disable-pubkey-algo weak-digest
		require-cross-certification no-require-cross-certification pinentry-mode use-agent no-autostart
		ignore-time-conflict no-permission-warning no-symkey-cache no-secmem-warning allow-loopback-pinentry
		default-cache-ttl max-cache-ttl default-cache-ttl-ssh max-cache-ttl-ssh no-allow-external-cache
		allow-preset-passphrase disable-scdaemon no-grab ignore-cache-for-signing min-passphrase-len
		min-passphrase-nonalpha enforce-passphrase-constraints auto-key-retrieve no-auto-key-retrieve
		keyserver honor-keyserver-url no-honor-keyserver-url no-auto-check-trustdb default-new-key-algo
		completes-needed marginals-needed max-cert-depth ask-cert-level no-ask-cert-level
		default-cert-level default-sig-expire default-cert-expire ask-sig-expire no-ask-sig-expire
		force-mdc disable-mdc mangle-dos-filenames no-mangle-dos-filenames tofu-default-policy
		use-keyboxd no-use-keyboxd`) {
		m[k] = true
	}
	return m
})

// gpgConfUnsound says why the text of a gpg settings file (one option a
// line, its name first, "#" comments) may name a path or a program, or "".
func gpgConfUnsound(text string) string {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' || r == '=' })
		if len(fields) == 0 {
			return "has a line without an option name: " + clip(t)
		}
		name := strings.TrimPrefix(fields[0], "--")
		if !gpgSafeOptions()[name] {
			return "sets " + clip(name) + ", which may name a file gpg or its agent writes or a program it runs"
		}
	}
	return ""
}

// gpgHomeConfUnsound says why a gpg command of the line with --homedir
// makes it opaque: it names a settings file (--options), or a settings file of that directory (gpgConfFiles), from
// some working directory, sets an option that may name a path or a
// program, or cannot be read; "" otherwise. (A --homedir outside the
// workdir is refused before, as a directory whose code gpg runs.)
func (g *Gate) gpgHomeConfUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		name := strings.ToLower(filepath.Base(c.Name))
		if name != "gpg" && name != "gpg2" {
			continue
		}
		for i, arg := range c.Args {
			if arg == "--" {
				break
			}
			if opt, _, _ := strings.Cut(arg, "="); len(opt) >= 5 && strings.HasPrefix("--options", opt) {
				return "gpg " + clip(opt) + " names a settings file, which may name a file gpg writes or a program it runs"
			}
			v, ok := strings.CutPrefix(arg, "--homedir=")
			if arg == "--homedir" && i+1 < len(c.Args) {
				v, ok = c.Args[i+1], true
			}
			if !ok {
				continue
			}
			for _, dir := range a.Dirs {
				home := g.absTarget(dir, v)
				if home == "" {
					return "gpg --homedir lies in an unknown directory, whose settings files the gate cannot read"
				}
				for _, f := range gpgConfFiles {
					p := filepath.Join(home, f)
					if why := configFileUnsound(p, gpgConfUnsound); why != "" {
						return "gpg reads its settings from " + clip(p) + ", which " + why
					}
				}
			}
		}
	}
	return ""
}
