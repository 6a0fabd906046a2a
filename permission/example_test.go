package permission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

func Example() {
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{
			permission.BashCommand("git:*", permission.Allow),
			permission.BashCommand("ls:*", permission.Allow),
			permission.BashCommand("rm:*", permission.Deny),
			permission.FilePath("secrets/**", permission.Deny),
		},
		Default: permission.Ask,
		Workdir: "/work",
		HomeDir: "/home/me",
	})
	if err != nil {
		panic(err)
	}
	for _, line := range []string{
		"git status && ls -la",
		"git status && rm -rf build",
		"ls secrets | wc -l",
		"git log > secrets/log.txt",
		`bash -c "$SCRIPT"`,
	} {
		input, _ := json.Marshal(map[string]string{"command": line})
		v, _ := policy.Check(context.Background(), permission.Call{Name: "bash", Input: input})
		fmt.Printf("%-28s %-5s %s\n", line, v.Decision, v.Reason)
	}
	// Output:
	// git status && ls -la         allow bash git:* (command git)
	// git status && rm -rf build   deny  bash rm:* (command rm)
	// ls secrets | wc -l           deny  path secrets/** (bash reads secrets)
	// git log > secrets/log.txt    deny  path secrets/** (bash writes secrets/log.txt)
	// bash -c "$SCRIPT"            ask   the command cannot be fully analyzed: the script of bash -c is only known when it runs
}

func ExampleCompose() {
	host, _ := permission.New(permission.Options{Allow: []string{"*"}})
	project, _ := permission.New(permission.Options{Deny: []string{"delete_file"}, Allow: []string{"*"}})
	p := permission.Compose(host, project)
	for _, name := range []string{"read_file", "delete_file"} {
		v, _ := p.Check(context.Background(), permission.Call{Name: name, Input: json.RawMessage(`{"path":"a"}`)})
		fmt.Println(name, v.Decision)
	}
	// Output:
	// read_file allow
	// delete_file deny
}

func ExampleDecodeRules() {
	rules, err := permission.DecodeRules([]byte(`{
	  "version": 1,
	  "rules": [
	    {"id": "push", "tool": "bash", "when": {"command": {"startsWith": "git push"}}, "effect": "ask"}
	  ]
	}`))
	fmt.Println(len(rules), rules[0].ID, rules[0].Effect, rules[0].When["command"], err)

	_, err = permission.DecodeRules([]byte(`{"version":1,"rules":[{"effect":"deny","effect":"allow"}]}`))
	fmt.Println(err)
	// Output:
	// 1 push ask {"startsWith":"git push"} <nil>
	// invalid permission configuration: rules[0]: duplicate key "effect" (at byte 38)
}

func ExampleNewGate() {
	type writeInput struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	write := tool.New("write_file", "Write a file.", func(ctx context.Context, _ *tool.Call, in writeInput) (tool.Result, error) {
		return tool.Text("wrote " + in.Path), nil
	})
	gate := permission.NewGate(permission.GateOptions{
		Policy: permission.Default(), // asks before write_file
		Approve: func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
			var in writeInput
			_ = json.Unmarshal(req.Call.Input, &in)
			if filepath.Ext(in.Path) == ".md" {
				return permission.Allow, nil
			}
			return permission.Deny, nil
		},
		Emit: func(ctx context.Context, _ *tool.Call, ev permission.Event) {
			if ev.Type == permission.EventPermissionDecision {
				fmt.Printf("  [%s by %s]\n", ev.Decision, ev.By)
			}
		},
	})
	gated := gate.Wrap(write)
	for _, p := range []string{"notes.md", "main.go"} {
		res, _ := gated.Call(context.Background(), nil, json.RawMessage(`{"path":"`+p+`","content":"x"}`))
		fmt.Println(res.Content)
	}
	// Output:
	//   [allow by user]
	// wrote notes.md
	//   [deny by user]
	// Error: denied by user
}

func ExampleNewFilePolicy() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	workdir, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	_ = os.MkdirAll(filepath.Join(workdir, ".acme"), 0o700)
	_ = os.MkdirAll(home, 0o700)
	// The host allows bash; the repository tries to allow everything and
	// to deny git push.
	_ = os.WriteFile(filepath.Join(home, "permissions.json"),
		[]byte(`{"version":1,"rules":[{"tool":"bash","effect":"allow"}]}`), 0o600)
	_ = os.WriteFile(filepath.Join(workdir, ".acme", "permissions.json"),
		[]byte(`{"version":1,"rules":[{"effect":"allow"},{"id":"no-push","tool":"bash","when":{"command":{"startsWith":"git push"}},"effect":"deny"}]}`), 0o600)

	policy, err := permission.NewFilePolicy(permission.FileOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: "acme", Home: home},
	})
	if err != nil {
		panic(err)
	}
	for _, c := range []struct{ name, input string }{
		{"bash", `{"command":"make test"}`},
		{"bash", `{"command":"make test && git push"}`},
		{"write_file", `{"path":"main.go","content":""}`},
		{"write_file", `{"path":".acme/permissions.json","content":"{}"}`},
	} {
		v, _ := policy.Check(context.Background(), permission.Call{Name: c.name, Input: json.RawMessage(c.input)})
		by := v.RuleID
		if by == "" {
			by = v.Layer
		}
		fmt.Println(c.name, v.Decision, by)
	}
	// Output:
	// bash allow user:0
	// bash deny project:no-push
	// write_file deny default
	// write_file deny self-protection
}

// A policy for an agent that is not made yet: NewUnboundFilePolicy reads
// nothing, and Bind (which liteagent.New calls) loads the files of the
// agent's workdir and data home only.
func ExampleNewUnboundFilePolicy() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	workdir, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	_ = os.MkdirAll(filepath.Join(workdir, ".acme"), 0o700)
	_ = os.MkdirAll(home, 0o700)
	_ = os.WriteFile(filepath.Join(workdir, ".acme", "permissions.json"),
		[]byte(`{"version":1,"rules":[{"id":"no-rm","tool":"bash","when":{"command":{"startsWith":"rm "}},"effect":"deny"}]}`), 0o600)

	policy, err := permission.NewUnboundFilePolicy(permission.FileOptions{Default: permission.Allow})
	if err != nil {
		panic(err)
	}
	fmt.Println("loaded before Bind:", len(policy.Status().Files))
	if err := policy.Bind(workdir, storage.Options{Namespace: "acme", Home: home}); err != nil {
		panic(err)
	}
	for _, f := range policy.Status().Files {
		rel, _ := filepath.Rel(root, f)
		fmt.Println("loaded:", filepath.ToSlash(rel))
	}
	v, _ := policy.Check(context.Background(), permission.Call{Name: "bash", Input: json.RawMessage(`{"command":"rm -rf build"}`)})
	fmt.Println(v.Decision, v.RuleID)
	// Output:
	// loaded before Bind: 0
	// loaded: work/.acme/permissions.json
	// deny project:no-rm
}
