package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// sessionOpChildEnv makes the test binary a child that resumes a session
// (Resume, as `lite-agent run --resume` does once the id is checked) and
// works on it, as another process sharing the session would. Its value is
// "<ops>\n<home>\n<workdir>\n<id>", and "\n<url>\n<schema>" after it to
// store through PostgreSQL; ops, comma-separated, are run in order: "send"
// (a prompt, "another process's prompt"), "task" (a prompt whose turn
// creates the task "another process's task"), "rewind:K" (a
// conversation-only restore to before the K-th prompt, 0 the first) and
// "compact". It exits
// 0 when all of them did, 1 otherwise.
const sessionOpChildEnv = "LITE_AGENT_SESSION_OP_CHILD"

func runSessionOpChild(v string) int {
	ops, rest, _ := strings.Cut(v, "\n")
	parts := strings.Split(rest, "\n")
	if len(parts) != 3 && len(parts) != 5 {
		fmt.Fprintln(os.Stderr, "bad", sessionOpChildEnv)
		return 2
	}
	p := modeltest.New()
	a, done, err := openChildAgent(p, parts, func(o *liteagent.Options) { o.ContextWindow = 4000 })
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	ctx, id := context.Background(), parts[2]
	if err := a.Resume(id); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for op := range strings.SplitSeq(ops, ",") {
		switch {
		case op == "send":
			p.Reply(modeltest.Text("another process's answer"))
			_, err = a.Send(ctx, "another process's prompt")
		case op == "task":
			p.Reply(modeltest.ToolCalls(call("t1", "TaskCreate", `{"subject":"another process's task","description":"d"}`)), modeltest.Text("made"))
			_, err = a.Send(ctx, "another process's prompt")
		case op == "compact":
			_, err = a.Compact(ctx, liteagent.CompactOptions{})
		case strings.HasPrefix(op, "rewind:"):
			var k int
			var cps []liteagent.Checkpoint
			if k, err = strconv.Atoi(strings.TrimPrefix(op, "rewind:")); err == nil {
				cps, err = a.Checkpoints(ctx, id)
			}
			if err == nil {
				_, err = a.Restore(ctx, id, cps[k].Seq, liteagent.RestoreOptions{ConversationOnly: true})
			}
		default:
			err = errors.New("unknown op " + op)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, op+" failed:", err)
			return 1
		}
	}
	return 0
}

// runChild runs the child env and fails the test unless it exits 0.
func runChild(t *testing.T, env string) {
	t.Helper()
	if out, err := childtest.Command(t.Context(), env).CombinedOutput(); err != nil {
		t.Fatalf("the child %s failed: %v\n%s", env[:strings.IndexByte(env, '=')], err, out)
	}
}

// promptsOf returns the prompts of session id, joined by "|".
func promptsOf(t *testing.T, a *liteagent.Agent, id string) string {
	t.Helper()
	cps, err := a.Checkpoints(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cps {
		got = append(got, c.Prompt)
	}
	return strings.Join(got, "|")
}

// headOf returns the head of session id, as an agent of opts that knows
// nothing of it reads it (a dry run of a restore).
func headOf(t *testing.T, f *fixture, opts liteagent.Options, id string) int64 {
	t.Helper()
	c := f.agent(t, opts)
	defer c.Close()
	res, err := c.Restore(t.Context(), id, 0, liteagent.RestoreOptions{ConversationOnly: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Head
}

// twoPrompts runs the prompts "first" and "second" on a new session in
// an agent of opts (storing through the Store withStore sets in opts
// when it is not nil) and returns the agent that keeps the session current: that
// one, or when resumed a second one that resumed it (ResumeStored) in
// its place, with the session's id and what a child needs to open the
// store.
func twoPrompts(t *testing.T, f *fixture, opts *liteagent.Options, withStore func(*testing.T, *liteagent.Options) string, resumed bool) (*liteagent.Agent, string, string) {
	t.Helper()
	a, store := agentWithStore(t, f, opts, withStore)
	f.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
	for _, p := range []string{"first", "second"} {
		if _, err := a.Send(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	id := a.SessionID()
	if !resumed {
		return a, id, store
	}
	a.Close()
	b := f.agent(t, *opts)
	if err := b.ResumeStored(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	return b, id, store
}

// wantReplaced checks that err is the *session.ReplacedError of id.
func wantReplaced(t *testing.T, what string, err error, id string) {
	t.Helper()
	var re *session.ReplacedError
	if !errors.As(err, &re) || re.SessionID != id || !errors.Is(err, session.ErrReplaced) {
		t.Errorf("%s on the replaced session: %v; want a *session.ReplacedError of %s", what, err, id)
	}
}

// A session an agent resumed (ResumeStored, `lite-agent run --resume`) or
// ran turns on, then deleted by another process (`lite-agent sessions
// delete`) and started again under its id by a third (`--session-id`),
// is not the agent's: its prompt, and its restore (chat's /rewind), fork
// and compaction of the session, fail with a *session.ReplacedError and
// change nothing. Before, the prompt was appended to the other process's
// new session, whose log then held "the other run's prompt" and "mine",
// and a restore rewound the other process's session.
func TestAReplacedSessionGetsNothingOfItsFormerHolder(t *testing.T) {
	checkReplaced(t, nil)
}

// The same through PostgreSQL.
func TestAReplacedSessionThroughPostgresGetsNothingOfItsFormerHolder(t *testing.T) {
	url := pgtest.URL(t)
	checkReplaced(t, pgForkStore(url))
}

// checkReplaced runs the cases of the replaced session, storing through
// the Store withStore sets when it is not nil.
func checkReplaced(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	for _, tc := range []struct {
		name string
		// resumed: a second agent resumes the session (ResumeStored)
		// and runs no turn on it before the replacement; otherwise the
		// agent that wrote it keeps it current.
		resumed bool
		// context turns the context engine on (a turn reads the log
		// from its latest view, not from its first record).
		context bool
	}{
		{"resumed", true, false},
		{"resumed, context engine", true, true},
		{"ran turns", false, false},
		{"ran turns, context engine", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			if tc.context {
				opts.ContextWindow = 4000
			}
			b, id, store := twoPrompts(t, f, &opts, withStore, tc.resumed)
			runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store)
			runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store)
			const theirs = "the other run's prompt"
			head := func() int64 { return headOf(t, f, opts, id) }
			before := head()
			for _, p := range []string{"mine", "mine again"} {
				f.p.Reply(modeltest.Text("my answer"))
				_, err := b.Send(t.Context(), p)
				wantReplaced(t, fmt.Sprintf("prompt %q", p), err, id)
			}
			_, err := b.Restore(t.Context(), id, 0, liteagent.RestoreOptions{ConversationOnly: true})
			wantReplaced(t, "a restore", err, id)
			_, err = b.Fork(t.Context(), id, liteagent.ForkAtHead)
			wantReplaced(t, "a fork", err, id)
			if tc.context {
				_, err = b.Compact(t.Context(), liteagent.CompactOptions{})
				wantReplaced(t, "a compaction", err, id)
			}
			if got := promptsOf(t, b, id); got != theirs {
				t.Errorf("the session's prompts are %q; want only the other run's %q", got, theirs)
			}
			if h := head(); h != before {
				t.Errorf("the session's head went from %d to %d; want it unchanged", before, h)
			}
			// Resume takes the session under the id as it is, as asked.
			resumeThenPrompt(t, f, b, id, nil)
			if got, want := promptsOf(t, b, id), theirs+"|a prompt after Resume"; got != want {
				t.Errorf("after Resume the session's prompts are %q; want %q", got, want)
			}
		})
	}
}

// What other processes sharing a session do to it between an agent's
// turns leaves the session the agent's: another prompt on it, a restore
// (to a prompt, or to its start in the data home, where the emptied log
// is kept), a compaction; and after the agent's own restore to the start,
// the next record by anyone starts the session again. The one thing that
// is not told apart from a replacement: a restore to the start by another
// process followed by a record. Nothing the agent knew of the session is
// left in its log then, and the agent refuses it as replaced.
func TestASharedSessionStaysTheAgents(t *testing.T) {
	checkShared(t, nil)
}

// The same through PostgreSQL, where a session restored to its start is
// stored no longer (see TestAResumedSessionDeletedMeanwhileThroughPostgresIsNotStartedOver).
func TestASharedSessionThroughPostgresStaysTheAgents(t *testing.T) {
	url := pgtest.URL(t)
	checkShared(t, pgForkStore(url))
}

// checkShared runs the cases of the shared session, storing through the
// Store withStore sets when it is not nil.
func checkShared(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	const other = "another process's prompt"
	for _, tc := range []struct {
		name string
		// rewind: the agent restores the session to its start first.
		rewind bool
		// ops are the child's (see sessionOpChildEnv), "" for none.
		ops string
		// fileOnly: not through PostgreSQL.
		fileOnly bool
		// prompts are the session's after the agent's prompt, "" when
		// the prompt must fail as replaced.
		prompts string
	}{
		{name: "another process prompts", ops: "send", prompts: "first|second|" + other + "|mine"},
		{name: "another process rewinds", ops: "rewind:1", prompts: "first|mine"},
		{name: "another process compacts", ops: "compact", prompts: "first|second|mine"},
		{name: "another process prompts, rewinds and compacts", ops: "send,rewind:2,compact,send", prompts: "first|second|" + other + "|mine"},
		{name: "another process rewinds to the start", ops: "rewind:0", fileOnly: true, prompts: "mine"},
		{name: "another process rewinds to the start and prompts", ops: "rewind:0,send", prompts: ""},
		{name: "the agent rewinds to the start", rewind: true, prompts: "mine"},
		{name: "the agent rewinds to the start, another process prompts", rewind: true, ops: "send", prompts: other + "|mine"},
	} {
		for _, resumed := range []bool{true, false} {
			name := tc.name + ", ran turns"
			if resumed {
				name = tc.name + ", resumed"
			}
			t.Run(name, func(t *testing.T) {
				if tc.fileOnly && withStore != nil {
					t.Skip("a session restored to its start is not stored in PostgreSQL")
				}
				f := newFixture(t)
				opts := f.options(nil)
				opts.ContextWindow = 4000
				b, id, store := twoPrompts(t, f, &opts, withStore, resumed)
				if tc.rewind {
					if _, err := b.Restore(t.Context(), id, 0, liteagent.RestoreOptions{ConversationOnly: true}); err != nil {
						t.Fatal(err)
					}
				}
				if tc.ops != "" {
					runChild(t, sessionOpChildEnv+"="+tc.ops+"\n"+f.home+"\n"+f.workdir+"\n"+id+store)
				}
				before := promptsOf(t, b, id)
				f.p.Reply(modeltest.Text("my answer"))
				_, err := b.Send(t.Context(), "mine")
				if tc.prompts == "" {
					wantReplaced(t, "the prompt", err, id)
					if got := promptsOf(t, b, id); got != before {
						t.Errorf("the session's prompts are %q; want them unchanged, %q", got, before)
					}
					return
				}
				if err != nil {
					t.Fatalf("the prompt: %v", err)
				}
				if got := promptsOf(t, b, id); got != tc.prompts {
					t.Errorf("the session's prompts are %q; want %q", got, tc.prompts)
				}
			})
		}
	}
}

// A session deleted and started again by other processes while a turn
// of it waits (here on its consumer, after the model's tool call was
// written; the turn lets the session's lock go meanwhile) is not
// continued when the turn takes the lock again, even when the new
// session's log has as many records as the turn expects: the tool's
// result fails with a *session.ReplacedError and is not written. Before,
// the append's head check passed and the result went into the other
// writers' session.
func TestASessionReplacedDuringATurnGetsNothingOfIt(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Tools = []tool.Tool{tool.New("look", "Looks.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text("seen"), nil
	})}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	f.p.Reply(modeltest.ToolCalls(call("l1", "look", `{}`)), modeltest.Text("done"))
	var runErr error
	replaced := false
	for ev, err := range a.Run(t.Context(), "look") {
		if !replaced && ev.Type == engine.EventToolUse {
			// The log holds 4 records: both prompts, the answer and
			// the call. The new session gets as many.
			replaced = true
			runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
			runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
			runChild(t, sessionOpChildEnv+"=send\n"+f.home+"\n"+f.workdir+"\n"+id)
		}
		if err != nil {
			runErr = err
		}
	}
	if !replaced {
		t.Fatalf("the turn never reached the tool call: %v", runErr)
	}
	wantReplaced(t, "the turn", runErr, id)
	if got, want := promptsOf(t, a, id), "the other run's prompt|another process's prompt"; got != want {
		t.Errorf("the session's prompts are %q; want only the other processes' %q", got, want)
	}
	if h := headOf(t, f, opts, id); h != 4 {
		t.Errorf("the session's head is %d; want the other processes' 4", h)
	}
}
