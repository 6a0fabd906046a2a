package liteagent_test

import (
	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/permission"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestDefaultPolicyDeniesWritesWithoutAnApprovalHandler(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.OnApproval = nil
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("w", "write_file", `{"path":"x.txt","content":"x"}`),
		call("b", "bash", `{"command":"touch y.txt"}`),
		call("r", "read_file", `{"path":"nothing.txt"}`),
	))
	f.p.Reply(modeltest.Text("ok"))
	var types []engine.EventType
	for ev, err := range a.Run(t.Context(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.Type)
	}
	msgs := f.p.Requests()[1].Messages
	res := msgs[len(msgs)-1].Blocks
	if auto := "Error: denied automatically: the call needs approval and no approver answered"; res[0].Content != auto || res[1].Content != auto || strings.HasPrefix(res[2].Content, "Error: denied") {
		t.Errorf("results %+v", res)
	}
	for _, name := range []string{"x.txt", "y.txt"} {
		if _, err := os.Stat(filepath.Join(f.workdir, name)); err == nil {
			t.Errorf("%s was created", name)
		}
	}
	if !slices.Contains(types, engine.EventApprovalAsk) || !slices.Contains(types, engine.EventPermission) {
		t.Errorf("events %v", types)
	}
}

func TestProjectPermissionFileCanOnlyRestrict(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "permissions.json"), `{"version":1,"rules":[{"tool":"bash","effect":"allow"},{"tool":"read_file","effect":"deny"}]}`)
	writeFile(t, filepath.Join(f.workdir, ".lite-agent", "permissions.json"), `{"version":1,"rules":[{"tool":"write_file","effect":"deny"}]}`)
	policy, err := liteagent.PermissionFilePolicy(permission.FileOptions{
		Workdir: f.workdir,
		Storage: storage.Options{Namespace: "acme", Home: f.home},
		Default: permission.Allow,
		Inline:  []permission.Rule{{Tool: []string{"bash"}, Effect: permission.Deny}},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options(nil)
	opts.Permission = policy
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("b", "bash", `{"command":"echo hi"}`),
		call("r", "read_file", `{"path":"a.txt"}`),
		call("w", "write_file", `{"path":"a.txt","content":"ok"}`),
	))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	msgs := f.p.Requests()[1].Messages
	res := msgs[len(msgs)-1].Blocks
	if !strings.HasPrefix(res[0].Content, "Error: blocked by policy") {
		t.Errorf("a project allow widened a host deny: %+v", res[0])
	}
	if !strings.HasPrefix(res[1].Content, "Error: blocked by policy") {
		t.Errorf("a project deny did not restrict: %+v", res[1])
	}
	if res[2].IsError {
		t.Errorf("the .lite-agent file was read for the acme namespace: %+v", res[2])
	}
}

func TestPermissionAuditIsPersistedRedacted(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("b", "bash", `{"command":"echo token=abcdefghijkl"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	cp, _ := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: a.Paths().Hash}})
	evs, err := cp.Read(t.Context(), a.SessionID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var audit []session.PermissionDecisionEvent
	var order []string
	for _, e := range evs {
		order = append(order, e.Event.EventType())
		if pd, ok := e.Event.(session.PermissionDecisionEvent); ok {
			audit = append(audit, pd)
		}
	}
	if len(audit) != 1 || audit[0].Turn != 1 || strings.Contains(string(audit[0].Call.Input), "abcdefghijkl") {
		t.Errorf("audit %+v", audit)
	}
	if i, j := slices.Index(order, "permission_decision"), slices.Index(order, "tool_result"); i < 0 || i > j {
		t.Errorf("log order %v", order)
	}
}

func TestTaskListEnvOnlyForTheDefaultNamespace(t *testing.T) {
	for _, ns := range []string{"", "acme"} {
		f := newFixture(t)
		t.Setenv(liteagent.TaskListEnv, "team")
		opts := f.options(nil)
		opts.Storage.Namespace = ns
		a := f.agent(t, opts)
		f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"x","description":""}`)))
		f.p.Reply(modeltest.Text("ok"))
		if _, err := a.Send(t.Context(), "go"); err != nil {
			t.Fatal(err)
		}
		want := a.SessionID() // custom namespaces ignore the variable: a private list
		if ns == "" {
			want = "team"
		}
		if _, err := os.Stat(filepath.Join(a.Paths().TasksDir, want, "1.json")); err != nil {
			t.Errorf("namespace %q: task not in list %s: %v", ns, want, err)
		}
	}
}
