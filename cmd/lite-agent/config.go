package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/spf13/cobra"
)

// The values of --codec.
const (
	codecNone       = "none"
	codecGzip       = "gzip"
	codecZstd       = "zstd"
	codecXChaCha    = "xchacha20poly1305"
	codecAES256GCM  = "aes256gcm"
	codecNamesUsage = codecNone + "|" + codecGzip + "|" + codecZstd + "|" + codecXChaCha + "|" + codecAES256GCM
)

// codecNames lists the values of --codec in the order help shows them.
var codecNames = []string{codecNone, codecGzip, codecZstd, codecXChaCha, codecAES256GCM}

// isAEAD reports whether the codec called name encrypts, and so needs a key.
func isAEAD(name string) bool {
	return name == codecXChaCha || name == codecAES256GCM
}

// globalFlags holds the persistent flags every command shares. The zero
// value (with codec "none") means the working directory, the default
// namespace, its default home and plaintext records.
type globalFlags struct {
	workdir   optionalString // --workdir: the project directory
	namespace optionalString // --namespace: the storage namespace
	home      optionalString // --home: the data home
	codec     string         // --codec: one of codecNames
	keyEnv    optionalString // --key-env: environment variable holding the AEAD key
	keyFile   optionalString // --key-file: file holding the AEAD key
	keyID     optionalString // --key-id: key version in the AEAD codec id
	store     optionalString // --store: the database URL
	managed   optionalString // --managed-permissions: the managed permission file

	opened []interface{ Close() } // the stores openStore opened (not a flag)

	intr *interrupter // delivers interrupts to run and chat (not a flag)
}

// register adds the global flags to cmd as persistent flags.
func (g *globalFlags) register(cmd *cobra.Command) {
	fs := cmd.PersistentFlags()
	fs.Var(&g.workdir, "workdir", "project directory `D` (default: the working directory)")
	fs.Var(&g.namespace, "namespace", "storage namespace `N`, ^[a-z][a-z0-9_-]{0,63}$ (default: "+storage.DefaultNamespace+")")
	fs.Var(&g.home, "home", "data home `H` (default: ~/.<namespace>, or $"+storage.HomeEnv+" for the default namespace)")
	fs.StringVar(&g.codec, "codec", codecNone, "record `codec`: "+codecNamesUsage)
	fs.Var(&g.keyEnv, "key-env", "read the codec key from environment variable `VAR` (32 bytes as 64 hex characters or base64)")
	fs.Var(&g.keyFile, "key-file", "read the codec key from file `F` (32 bytes as 64 hex characters or base64)")
	fs.Var(&g.keyID, "key-id", "key version `ID` recorded in the AEAD codec id (default: "+defaultKeyID+")")
	fs.Var(&g.managed, "managed-permissions", "the managed permission rules file `F`, whose rules no project file can widen (default: $"+permission.ManagedEnv+" in the default namespace)")
	fs.Var(&g.store, "store", "keep sessions, task lists and archives in the PostgreSQL database at `URL` (postgres://…) instead of the data home (default: $"+storeEnv+" in the default namespace)")
}

// noteIgnoredEnv writes one note to w naming the variables of the default
// namespace that are set but that the namespace --namespace selects ignores,
// as the storage spec requires: LITE_AGENT_HOME (unless --home is given),
// LITE_AGENT_STORE (unless --store is), LITE_AGENT_TASK_LIST_ID,
// LITE_AGENT_MANAGED_PERMISSIONS (unless --managed-permissions is) and
// LITE_AGENT_CLEANUP_DAYS. Without the
// note an operator who set a managed permission file, say, would run under
// a weaker policy without a word.
func (g *globalFlags) noteIgnoredEnv(w io.Writer) {
	ns := g.namespace.value
	if !g.namespace.set || ns == storage.DefaultNamespace || storage.ValidateNamespace(ns) != nil {
		return
	}
	var ignored []string
	for _, v := range []struct {
		name     string
		overrode bool // a flag that takes precedence anyway
	}{
		{storage.HomeEnv, g.home.set},
		{storeEnv, g.store.set},
		{liteagent.TaskListEnv, false},
		{permission.ManagedEnv, g.managed.set},
		{liteagent.CleanupDaysEnv, false},
	} {
		if !v.overrode && os.Getenv(v.name) != "" {
			ignored = append(ignored, v.name)
		}
	}
	if len(ignored) == 0 {
		return
	}
	list, verb := ignored[0], "it applies"
	if n := len(ignored); n > 1 {
		list, verb = strings.Join(ignored[:n-1], ", ")+" and "+ignored[n-1], "they apply"
	}
	fmt.Fprintf(w, "note: namespace %s ignores %s (%s to the default namespace only)\n", ns, list, verb)
}

// noteTilde writes a note to w when the value of flag begins with "~": the
// shell did not expand it (it does not after "--flag="), so the path is
// taken as a relative one, a directory named "~" under the working directory.
func noteTilde(w io.Writer, flag, value string) {
	if !strings.HasPrefix(value, "~") {
		return
	}
	abs, err := filepath.Abs(value)
	if err != nil {
		abs = value
	}
	fmt.Fprintf(w, "note: %s %q is a relative path, %s: the shell expands ~ only at the start of a word (%s ~/…, not %s=~/…)\n", flag, value, abs, flag, flag)
}

// workdirOption returns the project directory the flags select: "" for the
// working directory. A given --workdir must not be empty.
func (g *globalFlags) workdirOption() (string, error) {
	if g.workdir.set && strings.TrimSpace(g.workdir.value) == "" {
		return "", usagef("--workdir must not be empty")
	}
	return g.workdir.value, nil
}

// storageOptions converts the global flags to storage options. Problems with
// the command line itself (an invalid namespace, an empty home, an unknown
// codec, conflicting or missing key sources) are usage errors and are
// reported before anything else; a codec that cannot be built is an ordinary
// error, usually a *storage.Error.
func (g *globalFlags) storageOptions() (storage.Options, error) {
	var opts storage.Options
	if g.namespace.set {
		if err := storage.ValidateNamespace(g.namespace.value); err != nil {
			return storage.Options{}, usagef("invalid --namespace %q: %w", g.namespace.value, err)
		}
		opts.Namespace = g.namespace.value
	}
	if g.home.set {
		if strings.TrimSpace(g.home.value) == "" {
			return storage.Options{}, usagef("--home must not be empty")
		}
		opts.Home = g.home.value
	}

	if !slices.Contains(codecNames, g.codec) {
		return storage.Options{}, usagef("invalid --codec %q: want one of %s", g.codec, strings.Join(codecNames, ", "))
	}
	key, err := g.keySource()
	if err != nil {
		return storage.Options{}, err
	}
	if g.keyID.set {
		if err := checkKeyID("key-id", g.keyID.value); err != nil {
			return storage.Options{}, err
		}
	}
	switch {
	case isAEAD(g.codec) && key.isZero():
		return storage.Options{}, usagef("--codec %s needs a key: give --key-env or --key-file", g.codec)
	case !isAEAD(g.codec) && !key.isZero():
		// A key next to a codec that does not encrypt is most likely a
		// forgotten --codec, and silently storing plaintext would hide it.
		return storage.Options{}, usagef("--key-env and --key-file need an encrypting --codec (%s or %s), not %s", codecXChaCha, codecAES256GCM, g.codec)
	}

	keyID := defaultKeyID
	if g.keyID.set {
		if !isAEAD(g.codec) {
			return storage.Options{}, usagef("--key-id needs an encrypting --codec (%s or %s)", codecXChaCha, codecAES256GCM)
		}
		keyID = g.keyID.value
	}
	c, err := buildCodec(g.codec, key, keyID)
	if err != nil {
		return storage.Options{}, err
	}
	if c != nil {
		if err := storage.ValidateCodec(c); err != nil {
			return storage.Options{}, err
		}
	}
	opts.Codec = c
	return opts, nil
}

// checkKeyID returns a usage error naming --flag when id cannot be the
// key version of an AEAD codec id.
func checkKeyID(flag, id string) error {
	if codec.ValidateKeyID(id) != nil {
		return usagef("invalid --%s %q: want letters, digits, '.', '_' or '-', starting with a letter or digit (such as k2)", flag, id)
	}
	return nil
}

// keySource returns where --key-env or --key-file say the key is.
func (g *globalFlags) keySource() (keySource, error) {
	switch {
	case g.keyEnv.set && g.keyFile.set:
		return keySource{}, usagef("--key-env and --key-file are mutually exclusive")
	case g.keyEnv.set:
		if strings.TrimSpace(g.keyEnv.value) == "" || strings.Contains(g.keyEnv.value, "=") {
			return keySource{}, usagef("--key-env must name an environment variable")
		}
		return keySource{env: g.keyEnv.value}, nil
	case g.keyFile.set:
		if strings.TrimSpace(g.keyFile.value) == "" {
			return keySource{}, usagef("--key-file must not be empty")
		}
		return keySource{file: g.keyFile.value}, nil
	}
	return keySource{}, nil
}

// defaultKeyID is the key version used in AEAD codec ids when --key-id is
// not given.
const defaultKeyID = verify.DefaultKeyID

// buildCodec returns the codec called name, one of codecNames, reading its
// key from key when it encrypts; keyID is the key version that becomes part
// of the codec id (for example xchacha20poly1305.v1.k1). It returns nil for
// "none". This is the only place where the CLI constructs codecs.
//
// The key is read once, here, and handed to the codec for every record; it
// is never written anywhere.
func buildCodec(name string, key keySource, keyID string) (storage.Codec, error) {
	switch name {
	case codecNone:
		return nil, nil
	case codecGzip:
		return codec.Gzip(), nil
	case codecZstd:
		return codec.Zstd(), nil
	case codecXChaCha, codecAES256GCM:
		k, err := key.load()
		if err != nil {
			return nil, err
		}
		alg := codec.XChaCha20Poly1305
		if name == codecAES256GCM {
			alg = codec.AES256GCM
		}
		return codec.NewAEAD(codec.AEADOptions{
			Algorithm: alg,
			KeyID:     keyID,
			// The codec neither keeps nor modifies the slice, so every
			// record gets the same one: a copy per record was a tenth of
			// a migration's processor time.
			Key: func(context.Context, string) ([]byte, error) {
				return k, nil
			},
		})
	}
	return nil, usagef("invalid --codec %q: want one of %s", name, strings.Join(codecNames, ", "))
}

// optionalString is a string flag that remembers whether it was given, so
// that an explicit empty value can be told apart from an absent flag.
type optionalString struct {
	value string
	set   bool
}

func (o *optionalString) String() string { return o.value }
func (o *optionalString) Type() string   { return "string" }

func (o *optionalString) Set(s string) error {
	o.value, o.set = s, true
	return nil
}
