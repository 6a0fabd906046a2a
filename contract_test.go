package liteagent_test

import (
	"context"
	"encoding/json"
	"iter"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/task"
)

// The public names design/ARCHITECTURE.md fixes as contracts, with the
// shapes it gives them. Outside code relies on them, so this file fails to
// compile when one is renamed, removed or changes its signature; the test
// below checks the values a signature cannot.
var (
	_ func(storage.PathsOptions) (storage.ProjectPaths, error) = storage.ResolveProjectPaths
	_ func(string) (string, error)                             = storage.ProjectHash
	_ func(string) (string, error)                             = storage.DefaultHome
	_ func(string) error                                       = storage.ValidateNamespace
	_ func(string) error                                       = storage.ValidateID
	_ func(storage.Codec) error                                = storage.ValidateCodec

	_ = storage.Options{Namespace: "", Home: "", Codec: storage.Codec(nil)}
	_ = storage.Context{Namespace: "", ProjectID: "", Kind: storage.Kind(""), ScopeID: "", RecordID: ""}
	_ = storage.Encoding{Codec: storage.Codec(nil), Namespace: "", ProjectID: ""}
	//lint:ignore SA1019 the contract still lists the deprecated Home
	_ = storage.PathsOptions{Workdir: "", Storage: storage.Options{}, Home: ""}
	_ = storage.ProjectPaths{
		Home: "", Namespace: "", ProjectConfigDir: "", Hash: "",
		SessionsDir: "", TasksDir: "", SpillDir: "",
		GlobalSkillsDir: "", ProjectSkillsDir: "",
		GlobalAgentsDir: "", ProjectAgentsDir: "",
	}
	_ func(storage.Encoding, storage.Kind, string, string) storage.Context                          = storage.Encoding.Context
	_ func(storage.Encoding, context.Context, storage.Kind, string, string, []byte) ([]byte, error) = storage.Encoding.Encode
	_ func(storage.Encoding, context.Context, storage.Kind, string, string, []byte) ([]byte, error) = storage.Encoding.Decode
	_ interface{ Error() string }                                                                   = (*storage.Error)(nil)
	_ func(storage.Codec) string                                                                    = storage.Codec.ID
	_ func(storage.Codec, context.Context, []byte, storage.Context) ([]byte, error)                 = storage.Codec.Encode
	_ func(storage.Codec, context.Context, []byte, storage.Context) ([]byte, error)                 = storage.Codec.Decode
	_ func() storage.Codec                                                                          = codec.Gzip
	_ func() storage.Codec                                                                          = codec.Zstd
	_ func(codec.AEADOptions) (storage.Codec, error)                                                = codec.NewAEAD
	_                                                                                               = codec.AEADOptions{KeyID: "", Key: func(ctx context.Context, keyID string) ([]byte, error) { return nil, nil }}
	_                                                                                               = codec.XChaCha20Poly1305
	_                                                                                               = codec.AES256GCM
	_ func(string, session.FileOptions) (*session.FileCheckpointer, error)                          = session.NewFileCheckpointer
	_                                                                                               = session.FileOptions{Encoding: storage.Encoding{}, Durable: false, RepairTail: false}
	_ func() *session.MemoryCheckpointer                                                            = session.NewMemoryCheckpointer
	_ session.Checkpointer                                                                          = (*session.FileCheckpointer)(nil)
	_ session.Checkpointer                                                                          = (*session.MemoryCheckpointer)(nil)
	_ func(session.Checkpointer, context.Context, string, []session.Event, int64) (int64, error)    = session.Checkpointer.Append
	_ func(session.Checkpointer, context.Context, string, int64) ([]session.StoredEvent, error)     = session.Checkpointer.Read
	_ func(session.Checkpointer, context.Context, string) (int64, error)                            = session.Checkpointer.Head
	_ func(session.Checkpointer, context.Context) ([]session.Info, error)                           = session.Checkpointer.List
	_ func(session.Checkpointer, context.Context, string) error                                     = session.Checkpointer.Delete
	_ func(session.Checkpointer, context.Context, string, int64, int64) error                       = session.Checkpointer.Truncate
	_ func(string, string, storage.Encoding) (*task.FileStore, error)                               = task.NewFileStore
	_ task.Store                                                                                    = (*task.FileStore)(nil)
	_ func(task.Store, context.Context, task.CreateInput) (task.Task, error)                        = task.Store.Create
	_ func(task.Store, context.Context, string, task.UpdateInput) (task.Task, error)                = task.Store.Update
	_ func(task.Store, context.Context, string) (task.Task, bool, error)                            = task.Store.Get
	_ func(task.Store, context.Context) ([]task.Task, error)                                        = task.Store.List
	_ func(task.Store, context.Context, task.RenderOptions) (string, error)                         = task.Store.Render
	_ func(string, archive.Options) (*archive.FileArchive, error)                                   = archive.NewFileArchive
	_                                                                                               = archive.Options{Encoding: storage.Encoding{}, SessionID: "", MaxReadBytes: 0}
	_ archive.Archive                                                                               = (*archive.FileArchive)(nil)
	_ func(string, storage.Encoding) (*spill.FileStore, error)                                      = spill.NewFileStore
	_ spill.Store                                                                                   = (*spill.FileStore)(nil)
	_ func(context.Context, retention.Options) (retention.Report, error)                            = retention.Sweep
	_                                                                                               = retention.Options{Home: "", MaxAge: time.Duration(0), MaxBytes: int64(0), DryRun: false}
	_ func(context.Context, liteagent.Options) (*liteagent.Agent, error)                            = liteagent.New
	_ func(context.Context, liteagent.QueryOptions) (*liteagent.Result, error)                      = liteagent.Query
	_ func(*liteagent.Agent) error                                                                  = (*liteagent.Agent).Close
	_ func(*liteagent.Agent, context.Context, string) (*liteagent.Result, error)                    = (*liteagent.Agent).Send
	_ func(*liteagent.Agent, context.Context, string) iter.Seq2[liteagent.Event, error]             = (*liteagent.Agent).Run
	_ func(*liteagent.Agent) string                                                                 = (*liteagent.Agent).SessionID
	_ func(*liteagent.Agent, string) error                                                          = (*liteagent.Agent).Resume
	_ func(*liteagent.Agent)                                                                        = (*liteagent.Agent).Clear
	_ func(*liteagent.Agent, context.Context) ([]session.Info, error)                               = (*liteagent.Agent).ListSessions
	_ func(*liteagent.Agent, context.Context, string) error                                         = (*liteagent.Agent).DeleteSession
	_ func(permission.FileOptions) (*permission.FilePolicy, error)                                  = liteagent.PermissionFilePolicy
	_                                                                                               = permission.FileOptions{Workdir: "", Storage: storage.Options{}, Default: permission.Deny, ManagedFile: "", Inline: []permission.Rule(nil)}
	_                                                                                               = liteagent.Options{Model: nil, ModelName: "", Workdir: "", Storage: storage.Options{}}
)

// TestArchitectureContract checks what the declarations above cannot: the
// documented constant values and the JSON forms that codecs and tools see.
func TestArchitectureContract(t *testing.T) {
	if storage.DefaultNamespace != "lite-agent" {
		t.Errorf("DefaultNamespace = %q", storage.DefaultNamespace)
	}
	kinds := map[storage.Kind]string{
		storage.KindCheckpoint: "checkpoint", storage.KindTask: "task", storage.KindArchive: "archive",
		storage.KindArchiveIndex: "archive-index", storage.KindSpill: "spill",
	}
	for k, want := range kinds {
		if string(k) != want {
			t.Errorf("kind %q, want %q", k, want)
		}
	}
	b, err := json.Marshal(storage.Context{Namespace: "n", ProjectID: "p", Kind: storage.KindTask, ScopeID: "s", RecordID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"namespace":"n","projectId":"p","kind":"task","scopeId":"s","recordId":"r"}`; string(b) != want {
		t.Errorf("Context JSON = %s, want %s", b, want)
	}
	b, err = json.Marshal(storage.ProjectPaths{})
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"home", "namespace", "projectConfigDir", "hash", "sessionsDir", "tasksDir",
		"spillDir", "globalSkillsDir", "projectSkillsDir", "globalAgentsDir", "projectAgentsDir"} {
		if _, ok := fields[name]; !ok {
			t.Errorf("ProjectPaths JSON lacks %q: %s", name, b)
		}
	}
	c, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: func(context.Context, string) ([]byte, error) { return make([]byte, 32), nil }})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID() != "xchacha20poly1305.v1.k1" {
		t.Errorf("AEAD default id = %q", c.ID())
	}
}
