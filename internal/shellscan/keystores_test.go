package shellscan

import "testing"

// Lines that change a store of keys, secrets, trusted certificates or
// models outside the workdir with no path on the line are opaque; the
// forms beside them that only show state are not. Each line of the first
// list was allowed before keystores.go.
func TestKeyStoresAreOpaque(t *testing.T) {
	for _, line := range []string{
		"mkcert -install", "mkcert -uninstall", "mkcert localhost", "mkcert", "mkcert -cert-file c.pem x",
		"trust anchor ca.pem", "trust anchor --remove ca.pem", "update-ca-certificates", "update-ca-certificates --fresh",
		"update-ca-trust extract", "keytool -importcert -file ca.pem -cacerts -noprompt", "keytool -genkey -alias x",
		"keytool -delete -alias x", "keytool -storepasswd", "keytool", "keytool -v -importcert -file c",
		"ssh-add k", "ssh-add", "ssh-add -D", "ssh-add -d k", "ssh-add -x", "ssh-add -s /usr/lib/p11.so",
		"ssh-add -t 60 k", "ssh-add -l k",
		"pass insert x", "pass generate x 20", "pass rm -f x", "pass git push", "pass init id", "pass -c x",
		"pass show --clip x", "pass show -c2 x", "pass otp x",
		"secret-tool store --label=x a b", "secret-tool clear a b", "keyring set x y", "keyring del x y",
		"keyring --disable",
		"ollama rm llama3", "ollama cp a b", "ollama create x -f Modelfile", "ollama serve", "ollama stop x",
		"step ca bootstrap --ca-url x --fingerprint y", "step certificate install ca.pem",
		"step certificate uninstall ca.pem", "step ssh config", "step ssh login me", "step context select x",
		"kubectl krew install x", "kubectl krew upgrade", "gcloud components install x", "gcloud components update",
		"pdm config x y", "pdm python install 3.12", "pdm self add x", "hatch config set x y", "hatch python install 3.12",
		// Among the words of a command the analysis does not model.
		"logsave /dev/null ssh-add k", "logsave /dev/null mkcert -install", "logsave /dev/null ollama rm x",
		"logsave /dev/null step certificate install c", "logsave /dev/null pass insert x",
		"logsave /dev/null trust anchor c", "logsave /dev/null keyring set x y",
		// Words only known when the line runs.
		"ollama $op x", "ssh-add $k", "mkcert $f",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"mkcert -CAROOT", "mkcert -help", "trust list", "trust", "keytool -list -v", "keytool -v -list -keystore k.jks",
		"keytool -printcert -file c.pem", "ssh-add -l", "ssh-add -L", "ssh-add -lE md5", "ssh-add -l -v",
		"pass", "pass show x", "pass x", "pass ls", "pass grep foo", "pass find x", "secret-tool lookup a b",
		"secret-tool search a b", "keyring get x y", "ollama list", "ollama ps", "ollama pull llama3",
		"ollama run llama3 hi", "ollama show x", "ollama", "ollama --version", "step certificate inspect c.pem",
		"step crypto jwk create a b", "step", "kubectl krew list", "gcloud components list", "hatch config show",
		"pdm build", "logsave log ollama list", "logsave log step 1", "logsave log trust me",
		"logsave log pass x", "logsave log keyring get x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
