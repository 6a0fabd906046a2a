package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

func ExampleFileCheckpointer() {
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Durable: true})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	// One turn: the prompt, then the reply and its tool result as one batch.
	head, err := cp.Append(ctx, "demo", []session.Event{
		session.UserEvent{Message: model.UserText("List the files.")},
	}, 0)
	if err != nil {
		log.Fatal(err)
	}
	head, err = cp.Append(ctx, "demo", []session.Event{
		session.AssistantEvent{Message: model.AssistantBlocks(
			model.ToolCallBlock("call_1", "bash", json.RawMessage(`{"command":"ls"}`)),
		)},
		session.ToolResultEvent{Result: model.ToolResultBlock("call_1", "go.mod\nmain.go", false), Turn: 1},
	}, head)
	if err != nil {
		log.Fatal(err)
	}

	// A writer that lost track of the head is refused.
	_, err = cp.Append(ctx, "demo", []session.Event{session.UserEvent{Message: model.UserText("stale")}}, 1)
	var conflict *session.ConflictError
	fmt.Println(errors.As(err, &conflict), conflict.Head)

	events, err := cp.Read(ctx, "demo", 0)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range session.Fold(events) {
		b, _ := json.Marshal(m)
		fmt.Println(string(b))
	}
	// Output:
	// true 3
	// {"role":"user","content":"List the files."}
	// {"role":"assistant","content":[{"type":"tool_call","id":"call_1","name":"bash","input":{"command":"ls"}}]}
	// {"role":"user","content":[{"type":"tool_result","id":"call_1","content":"go.mod\nmain.go"}]}
}

func ExampleFold() {
	at := func(seq int64, ev session.Event) session.StoredEvent {
		return session.StoredEvent{Seq: seq, Event: ev}
	}
	messages := session.Fold([]session.StoredEvent{
		at(1, session.UserEvent{Message: model.UserText("old prompt")}),
		at(2, session.SummaryEvent{Messages: []model.Message{model.UserText("summary of the work so far")}, ThroughSeq: 1}),
		at(3, session.UserEvent{Message: model.UserText("run both")}),
		at(4, session.ToolResultEvent{Result: model.ToolResultBlock("a", "ok", false)}),
		at(5, session.FileSnapshotEvent{Path: "x.txt"}), // sidecars are skipped
		at(6, session.ToolResultEvent{Result: model.ToolResultBlock("b", "failed", true)}),
	})
	for _, m := range messages {
		fmt.Printf("%s: %d blocks, %q\n", m.Role, len(m.Blocks), m.PlainText())
	}
	// Output:
	// user: 0 blocks, "summary of the work so far"
	// user: 0 blocks, "run both"
	// user: 2 blocks, ""
}

func ExampleFileCheckpointer_Verify() {
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, s := range []string{"one", "two"} {
		if _, err := cp.Append(ctx, "v", []session.Event{session.UserEvent{Message: model.UserText(s)}}, session.AnyHead); err != nil {
			log.Fatal(err)
		}
	}
	// A crash tore the last write.
	f, _ := os.OpenFile(filepath.Join(dir, "v.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":3,"sessionId":"v","par`)
	f.Close()

	problems, err := cp.Verify(ctx, "v")
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range problems {
		fmt.Printf("record %s: %s, tail %v, repairable %v\n", p.Record, p.Kind, p.Tail, p.Repairable)
	}
	// Every complete record reads; the torn tail is reported last.
	for ev, err := range cp.Scan(ctx, "v", 0) {
		if errors.Is(err, session.ErrTornTail) {
			fmt.Println("then a torn tail:", err.(*session.TornTailError).Bytes, "bytes")
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ev.Seq, ev.Event.(session.UserEvent).Message.Text)
	}
	// The next append sets the torn bytes aside and goes on.
	head, err := cp.Append(ctx, "v", []session.Event{session.UserEvent{Message: model.UserText("three")}}, 2)
	if err != nil {
		log.Fatal(err)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, "v.jsonl.torn-*"))
	fmt.Println("head", head, "and", len(aside), "file set aside")
	// Output:
	// record 3: torn, tail true, repairable false
	// 1 one
	// 2 two
	// then a torn tail: 29 bytes
	// head 3 and 1 file set aside
}

func ExampleFileCheckpointer_Summaries() {
	dir, err := os.MkdirTemp("", "sessions")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	prompt := session.UserEvent{Message: model.UserText("Why does the\nbuild fail on arm64?")}
	answer := session.AssistantEvent{Message: model.AssistantBlocks(model.TextBlock("Because…"))}
	if _, err := cp.Append(ctx, "s1", []session.Event{prompt, answer}, 0); err != nil {
		log.Fatal(err)
	}
	// A listing reads the first and last records of each log, nothing more.
	sums, err := cp.Summaries(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sums {
		fmt.Printf("%s: %q, %d records, torn %v\n", s.ID, s.Title, s.Records, s.Torn)
	}
	// Output:
	// s1: "Why does the build fail on arm64?", 2 records, torn false
}
