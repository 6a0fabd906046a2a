package permission

import "testing"

// A bunfig.toml that may name a path bun writes or code outside the
// project is unsound; logging, JSX, install choices, scopes and a preload
// of project files are not (gate59).
func TestBunfigUnsound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text   string
		unsafe bool
	}{
		{"logLevel = \"debug\"\n[install]\nexact = true\nregistry = \"https://r.example/\"\n", false},
		{"[install.scopes]\nmyorg = { token = \"$T\", url = \"https://r.example/\" }\n", false},
		{"[test]\npreload = [\"./happydom.ts\", \"@happy-dom/global-registrator\"]\ncoverage = true\n", false},
		{"preload = \"./setup.ts\"\n[install.cache]\ndisable = true\n", false},
		{"[install.cache]\ndir = \"~/x\"\n", true},
		{"install.cache.dir = \"/x\"\n", true},
		{"[install]\ncache = \"/x\"\n", true},
		{"[install]\nglobalDir = \"/x\"\n", true},
		{"[install]\nglobalBinDir = \"/x\"\n", true},
		{"[test]\ncoverageDir = \"/x\"\n", true},
		{"[test]\nroot = \"/\"\n", true},
		{"preload = [\"/tmp/x.js\"]\n", true},
		{"preload = [\"../x.js\"]\n", true},
		{"preload = [\"./a/../../x.js\"]\n", true},
		{"[test]\npreload = [\n  \"./x.js\",\n]\n", true},
		{"install = { cache = { dir = \"/x\" } }\n", true},
		{"[\"install\".cache]\ndir = \"/x\"\n", true},
		{"[serve]\nport = 1\n", true},
		{"define = { \"x\" = \"y\" }\n", true},
		{"[install]\nregistry = \"\\u0078\"\n", true},
		{"logLevel = \"\"\"\n[install]\n\"\"\"\ncache = \"/x\"\n", true},
		{"[install\ncache = \"/x\"\n", true},
		// bun takes tabs around a dotted key's dots and a byte order
		// mark at the start of the file (review47g: both allowed before).
		{"install\t.cache.dir = \"/x\"\n", true},
		{"install.\tcache.dir = \"/x\"\n", true},
		{"\ufeffinstall.cache.dir = \"/x\"\n", true},
		{"\ufeffpreload = [\"/tmp/x.js\"]\n", true},
		{"\ufefflogLevel = \"debug\"\n[install\t.cache]\ndisable = true\n", false},
	} {
		if got := bunfigUnsound(c.text); (got != "") != c.unsafe {
			t.Errorf("%q: unsound %q, want unsound %v", c.text, got, c.unsafe)
		}
	}
}
