package permission

import "testing"

// pipConfUnsound reads a settings file as Python's configparser does:
// each key of a section an installing command reads is checked, however
// it is spelt or laid out, and what configparser reads otherwise than the
// gate would is opaque.
func TestPipConfUnsound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text  string
		sound bool
	}{
		{"[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n", true},
		{"[global]\r\nindex-url = https://x/simple\r\n", true},
		{"# c\n; c\n[global]\n  timeout = 60\n\n[install]\nno_deps: true\n", true},
		{"[global]\ntrusted-host = a\n\n  b\n\t# c\n  c\n", true},
		{"[list]\nformat = columns\npath = /x\n  more\n", true},
		{"[global]\r--target = /x\n", false},
		{"[global]\n  target = /x\n", false},
		{"[global]\nTarget=/x\n", false},
		{"[global]\ntar_get=/x\n", false},
		{"[global]\nno-deps = true\n\n  target = /x\n", false},
		{"[DEFAULT]\nprefix = /x\n[list]\n", false},
		{"[ install ]\nroot = /x\n", false},
		{"[global]\nlog\u00a0= /x\n", false},
		{"[global]\nlog\f= /x\n", false},
		{"[global]\n= /x\n", false},
		{"[]\ntarget = /x\n", false},
		{"[install\ntarget = /x\n", false},
	} {
		if got := pipConfUnsound(c.text) == ""; got != c.sound {
			t.Errorf("pipConfUnsound(%q) sound = %v, want %v (%s)", c.text, got, c.sound, pipConfUnsound(c.text))
		}
	}
}

// uvUserConfigUnsound refuses a key that says where uv pip installs or
// which python it uses anywhere, an escape that may spell one, and an
// unknown key of [pip]; the user's cache directory and index stay sound.
func TestUvUserConfigUnsound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text  string
		sound bool
	}{
		{"cache-dir = \"/c\"\nindex-url = \"https://x\"\n[[index]]\nname = \"a\"\nurl = \"https://y\"\n", true},
		{"[pip]\nindex-strategy = \"first-index\"\nextra-index-url = [\n  \"https://x\",\n]\n", true},
		{"[ pip ]\nno-deps = true\n", true},
		{"[pip]\ntarget = \"/x\"\n", false},
		{"pip . prefix = \"/x\"\n", false},
		{"pip = { system = true }\n", false},
		{"[pip]\nbreak_system_packages = true\n", false},
		{"[pip]\n\"t\\u0061rget\" = \"/x\"\n", false},
		{"[pip]\nfrobnicate = 1\n", false},
		{"[\"pip\"]\nfrobnicate = 1\n", false},
		{"pip.frobnicate = 1\n", false},
		{"pip\t.frobnicate = 1\n", false}, // TOML takes tabs around a dot (review47g)
		{"[pip\n", false},
	} {
		if got := uvUserConfigUnsound(c.text) == ""; got != c.sound {
			t.Errorf("uvUserConfigUnsound(%q) sound = %v, want %v (%s)", c.text, got, c.sound, uvUserConfigUnsound(c.text))
		}
	}
}
