package permission

import "testing"

// The settings files of JavaScript package managers: a key that may name
// a path or a program, or that the gate may read otherwise than the
// manager, makes them unsound; registries, credentials and the layout of
// node_modules do not.
func TestJSConfigUnsound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		check  func(string) string
		text   string
		unsafe bool
	}{
		{npmrcUnsound, "registry=https://r.example/\n", false},
		{npmrcUnsound, "@a:registry = https://a.example/\r\n//r.example/:_authToken=${T}\n# c\n; c\n", false},
		{npmrcUnsound, "omit[]=dev\nsave-exact\n", false},
		{npmrcUnsound, "logs-dir=/home/u/.ssh\n", true},
		{npmrcUnsound, "cache=~/x\n", true},
		{npmrcUnsound, "prefix=/usr\n", true},
		{npmrcUnsound, "userconfig=./u\n", true},
		{npmrcUnsound, "globalconfig=./g\n", true},
		{npmrcUnsound, "init-module=./x.js\n", true},
		{npmrcUnsound, "script-shell=./sh\n", true},
		{npmrcUnsound, "git=./g\n", true},
		{npmrcUnsound, "node-options=--require ./x.js\n", true},
		{npmrcUnsound, "store-dir=/tmp/s\n", true},
		{npmrcUnsound, "use-node-version=20.0.0\n", true},
		{npmrcUnsound, "sign-git-tag=true\n", true},
		{npmrcUnsound, `"cache"=/x` + "\n", true},
		{npmrcUnsound, `"\u0063ache"=/x` + "\n", true},
		{npmrcUnsound, "cache;x=/x\n", true},
		{npmrcUnsound, "${K}=/x\n", true},
		{npmrcUnsound, "[s]\nregistry=x\n", true},
		{npmrcUnsound, "@a:b:registry=x\n", true},
		{npmrcUnsound, "//r.example/:cache=/x\n", true},
		// A credential variable in a value that is no credential, which
		// npm config list prints (round redteam132).
		{npmrcUnsound, "init-author-name=${GITHUB_TOKEN}\n", true},
		{npmrcUnsound, "registry=https://r.example/${NPM_TOKEN?}/\n", true},
		{npmrcUnsound, "//r.example/:_authToken=${NPM_TOKEN}\n//r.example/:_password=${NPM_PASSWORD}\n", false},
		{npmrcUnsound, "registry=https://r.example/${REGISTRY_PATH}/\n", false},
		{yarnrcUnsound, "registry \"https://r.example/${NPM_TOKEN}\"\n", true},
		{yamlConfigUnsound, "npmRegistryServer: \"https://r.example/${NPM_TOKEN}\"\n", true},
		{yamlConfigUnsound, "npmScopes:\n  a:\n    npmAuthToken: \"${NPM_TOKEN}\"\n", false},
		{yamlConfigUnsound, "npmScopes:\n  a:\n    npmRegistryServer: \"https://x/${NPM_TOKEN:-}\"\n", true},
		{yarnrcUnsound, "registry \"https://r.example\"\n--install.frozen-lockfile true\n", false},
		{yarnrcUnsound, "yarn-path \"./x.js\"\n", true},
		{yarnrcUnsound, "cache-folder /x\n", true},
		{yarnrcUnsound, "registry x\n  yarn-path y\n", true},
		{yamlConfigUnsound, "packages:\n  - 'a/*'\n# c\ncatalog:\n  react: ^18\n", false},
		{yamlConfigUnsound, "nodeLinker: node-modules\nnpmScopes:\n  a:\n    npmRegistryServer: x\n", false},
		{yamlConfigUnsound, "storeDir: /x\n", true},
		{yamlConfigUnsound, "packages: []\ncacheDir: /x\n", true},
		{yamlConfigUnsound, "yarnPath: .yarn/releases/x.cjs\n", true},
		{yamlConfigUnsound, "plugins:\n  - x.cjs\n", true},
		{yamlConfigUnsound, "  storeDir: /x\n", true},
		{yamlConfigUnsound, "{storeDir: /x}\n", true},
		{yamlConfigUnsound, "\"storeDir\": /x\n", true},
		{yamlConfigUnsound, "packages: []\n<<: *a\n", true},
		{yamlConfigUnsound, "---\npackages: []\n", true},
		{yamlConfigUnsound, "packages:\n\t- a\n", true},
	} {
		if got := c.check(c.text); (got != "") != c.unsafe {
			t.Errorf("%q: unsound %q, want unsound %v", c.text, got, c.unsafe)
		}
	}
}
