package permission

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

func FuzzDecodeRules(f *testing.F) {
	f.Add([]byte(`{"version":1,"rules":[{"id":"a","tool":["bash"],"when":{"command":{"startsWith":"git"}},"effect":"ask"}]}`))
	f.Add([]byte(`{"version":1,"rules":[{"tool":"read_file","when":{"path":{"not":{"glob":"src/**"}}},"effect":"deny"}]}`))
	f.Add([]byte(`{"version":1,"rules":[{"effect":"deny","effect":"allow"}]}`))
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := DecodeRules(data)
		if err != nil {
			if _, ok := err.(*ConfigError); !ok {
				t.Fatalf("error %T is not a *ConfigError", err)
			}
			return
		}
		// What the strict decoder accepts is valid JSON to every decoder.
		if !utf8.Valid(data) || !json.Valid(data) {
			t.Fatalf("accepted invalid data %q", data)
		}
		// It compiles, and it survives encoding.
		if _, err := New(Options{Rules: rules, HomeDir: "/h", Workdir: "/w"}); err != nil {
			t.Fatalf("accepted rules do not compile: %v", err)
		}
		enc, err := EncodeRules(rules)
		if err != nil {
			t.Fatalf("accepted rules do not encode: %v", err)
		}
		back, err := DecodeRules(enc)
		if err != nil {
			t.Fatalf("encoded rules do not decode: %v\n%s", err, enc)
		}
		if len(back) != len(rules) {
			t.Fatalf("round trip changed the rule count: %d, %d", len(rules), len(back))
		}
		for i := range rules {
			if !sameRule(rules[i], back[i]) {
				t.Fatalf("round trip changed rule %d: %+v, %+v", i, rules[i], back[i])
			}
		}
	})
}

func sameRule(a, b Rule) bool {
	if a.ID != b.ID || a.Description != b.Description || a.Effect != b.Effect || len(a.Tool) != len(b.Tool) || len(a.When) != len(b.When) {
		return false
	}
	for i := range a.Tool {
		if a.Tool[i] != b.Tool[i] {
			return false
		}
	}
	for k, c := range a.When {
		d, ok := b.When[k]
		if !ok || !c.equal(d) {
			return false
		}
	}
	return true
}

func FuzzBashCommands(f *testing.F) {
	for _, s := range []string{
		"git status && rm -rf x", "echo $(cat secret) > out", `bash -c "eval $x"`, "cat <(ls) | xargs -I{} sh -c '{}'",
		"a 'unterminated", "f() { rm x; }; f", `find . -exec sh -c 'rm "$1"' _ {} \;`, "cd a; cd ..; cat ../b",
	} {
		f.Add(s)
	}
	// A policy that allows every analyzed command, so that only the
	// analysis can make a line ask.
	p, err := New(Options{
		Rules:   []Rule{{Tool: []string{"bash"}, When: map[string]Condition{"command": Regex("")}, Effect: Allow}},
		Default: Allow, HomeDir: "/home/u", Workdir: "/w",
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a := shellscan.Analyze(line, shellscan.Options{Home: "/home/u", Workdir: "/w"})
		if !utf8.ValidString(line) && !a.Opaque {
			t.Fatal("a line that is not UTF-8 is not opaque")
		}
		// The policy sees the line as JSON carries it (invalid UTF-8
		// becomes U+FFFD); analyze that form for the comparison below.
		b, _ := json.Marshal(map[string]string{"command": line})
		var in struct{ Command string }
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		line = in.Command
		a = shellscan.Analyze(line, shellscan.Options{Home: "/home/u", Workdir: "/w"})
		for _, acc := range a.Accesses {
			if acc.Path == "" || acc.Mode < shellscan.Read || acc.Mode > shellscan.Delete {
				t.Fatalf("bad access %+v", acc)
			}
		}
		if len(a.Dirs) == 0 || a.Dirs[0] != "" {
			t.Fatalf("bad working directories %q", a.Dirs)
		}
		v, err := p.Check(t.Context(), Call{Name: "bash", Input: b})
		if err != nil {
			t.Fatal(err)
		}
		if a.Opaque && v.Decision == Allow {
			t.Fatalf("%q cannot be analyzed (%s) but was allowed", line, a.Reason())
		}
	})
}

// FuzzSettingsParsed checks the readers of settingsparse.go and the
// compilation database's: they do not panic, jsonPlain leaves valid JSON as it is, and jsonEntries finds every
// key of valid JSON that encoding/json finds.
func FuzzSettingsParsed(f *testing.F) {
	f.Add([]byte(`{"compilerOptions": {"outDir": "dist", "paths": {"@/*": ["./src/*"]}}}`), false)
	f.Add([]byte("{\n  // c\n  \"a\": [1, \"b\",], /* d */\n}\n"), false)
	f.Add([]byte("{\"a\"\n: \"../x\", \"s\": \"// not a comment /* nor this */\"}"), false)
	f.Add([]byte("site_name: x\n? site_dir\n: ../home/x\nnav:\n  - Home: index.md\n"), true)
	f.Add([]byte("a: \"b\\\n  c\"\nd: &x 1\ne: *x\n"), true)
	f.Add([]byte(`[{"directory": "/w/build", "command": "/usr/bin/cc -DX=\\"y\\" -I/w/include -o a.o -c /w/a.c", "file": "/w/a.c"}]`), false)
	compileDB := NewGate(GateOptions{Workdir: "/w", HomeDir: "/h"})
	f.Fuzz(func(t *testing.T, data []byte, yamlText bool) {
		text := string(data)
		settingsTextForm(text)
		if yamlText {
			settingsParsed("x.yml", text, true)
			return
		}
		compileDB.compileCommandsUnsound("/w", text)
		plain := jsonPlain(text)
		entries, err := jsonEntries(plain)
		if !json.Valid(data) {
			return
		}
		if string(plain) != text {
			t.Fatalf("jsonPlain changed valid JSON %q to %q", text, plain)
		}
		if err != nil {
			t.Fatalf("valid JSON %q: %v", text, err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, e := range entries {
			found[e.key] = true
		}
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, c := range v {
					if !found[k] {
						t.Fatalf("key %q of %q not among the entries %v", k, text, entries)
					}
					walk(c)
				}
			case []any:
				for _, c := range v {
					walk(c)
				}
			}
		}
		walk(v)
	})
}

// FuzzSettingsTOMLAndINI checks the TOML and INI readers of round
// redteam125: they do not panic, and tomlEntries finds every key that
// the TOML parser's own list of keys holds.
func FuzzSettingsTOMLAndINI(f *testing.F) {
	f.Add("[tool.pytest.ini_options]\naddopts = [\n  \"-q\", # see ]\n  \"--junitxml=x.xml\",\n]\n")
	f.Add("[tool.pytest]\nini_options = {junit_xml = 1, cache_dir = \"x\\\"/y\"}\n")
	f.Add("[[module.mounts]]\nsource = 'a'\n[[module.mounts]]\n\"source\" = \"b\"\n")
	f.Add("[pytest]\naddopts = -q\n\n    --junitxml=x.xml\n# c\n  -ra\n")
	f.Add("[mypy]\ncache_dir\u00a0= x\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		iniUnread(text)
		for i := range min(len(text)+1, 64) {
			iniContinuation(text, i)
		}
		entries, err := tomlEntries(text)
		if err != nil {
			return
		}
		var doc map[string]any
		md, err := toml.Decode(text, &doc)
		if err != nil {
			t.Fatalf("%q decodes once but not twice: %v", text, err)
		}
		found := map[string]bool{}
		for _, e := range entries {
			found[e.key] = true
		}
		for _, k := range md.Keys() {
			if last := k[len(k)-1]; !found[last] {
				t.Fatalf("key %q of %q not among the entries %v", last, text, entries)
			}
		}
	})
}
