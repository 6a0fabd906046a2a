package liteagent

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/skill"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/subagent"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/telemetry"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// TaskListEnv names the environment variable that sets the shared task list
// of the default namespace. Custom namespaces ignore it.
const TaskListEnv = "LITE_AGENT_TASK_LIST_ID"

// ErrClosed is returned by an Agent after Close.
var ErrClosed = errors.New("liteagent: agent is closed")

// ErrDeletingRunningSession is returned by DeleteSession called, with the
// tool's context, from a tool (or an approval) of a turn of the session it
// deletes: that turn would go on writing to the session.
var ErrDeletingRunningSession = errors.New("liteagent: a session cannot be deleted from within one of its own turns")

// ErrNotRunning is returned by [Agent.Steer] when no prompt is running on
// the current session.
var ErrNotRunning = errors.New("liteagent: no prompt is running on the session")

// ErrReentrant is returned when a hook of an agent, with the context it was
// given, runs a prompt on that agent, deletes a session or waits for it to
// be idle: the agent waits for the hook, so that would never end.
var ErrReentrant = errors.New("liteagent: a hook cannot await another run, maintenance, or close on the same agent family; schedule it after the hook returns")

// ErrEmptySteer is returned by [Agent.Steer] for text that is empty or
// only white space.
var ErrEmptySteer = errors.New("liteagent: Steer needs text")

// ErrNilSubscriber is returned by [Agent.Subscribe] and
// [Agent.SubscribeAll] given a nil function.
var ErrNilSubscriber = errors.New("liteagent: Subscribe needs a function")

// ErrNoResult is returned by [Agent.Send] and [Query] when a turn's events
// end without a done event carrying a [Result] and without an error that
// says why. It reports a broken promise of the event stream, not a failure
// of the model or the stores; the session log stays valid.
var ErrNoResult = errors.New("liteagent: turn ended without a result")

// ErrNoSessions is returned by the session management methods of an agent
// whose sessions are disabled and that has no Checkpointer.
var ErrNoSessions = errors.New("liteagent: session management requires a checkpointer (it is disabled when sessions are off)")

// Options configures an [Agent]. Model and ModelName are required; the zero
// value of every other field is a documented default. An interface field
// (Model, Permission, Checkpointer, Store, Sandbox) that holds a nil
// pointer, and a nil element of Tools, Compaction or ToolMiddleware, is
// refused by [New] with an *[OptionError] naming it.
type Options struct {
	// Model is the model provider, such as anthropic.New(…). It is wrapped
	// in model.WithRetry unless DisableRetry is set.
	Model model.Provider
	// ModelName is the provider's model id.
	ModelName string

	// Workdir is the project directory: the file tools' workspace, bash's
	// working directory and the input of the project hash. "" means the
	// working directory. It must exist.
	Workdir string
	// Storage selects the namespace, data home and record codec.
	Storage storage.Options
	// Home is the data home.
	//
	// Deprecated: set Storage.Home. A Home that differs from Storage.Home
	// is rejected.
	Home string

	// Tools are custom tools, added after the built-in ones. A custom tool
	// named like a built-in one runs in its place (both specs are sent).
	Tools []tool.Tool
	// AllowedTools, when not nil, keeps only the tools with these names.
	AllowedTools []string
	// DisallowedTools removes the tools with these names.
	DisallowedTools []string
	// System replaces the default system prompt when not empty.
	System string

	// MaxTurns bounds the model calls of one prompt; zero means 50.
	MaxTurns int
	// MaxTokens bounds each response; zero means the provider's default.
	// Either is lowered, for a request whose input leaves less room in the
	// model's context window, to that room (never below
	// engine.MinAnswerTokens; see the engine package's "The answer's
	// room"); the model_call_start event says so.
	MaxTokens int
	// Temperature is forwarded to the model when not nil.
	Temperature *float64
	// MaxParallelTools bounds the tool calls run at once; zero means 10.
	MaxParallelTools int
	// LogToolStarts records each tool call's start in the session log before
	// the call runs (the TypeScript SDK's crashRecovery "safe"), so that after a
	// crash the log tells which calls may have had effects. It costs one
	// log append a call. Either way, calls a crash left unanswered get
	// "interrupted" results on the next prompt, with tool_recovered events.
	LogToolStarts bool
	// OnAskUser, when set, offers the model an ask_user tool for questions
	// to the person it works for, which it answers. Questions come one at a
	// time; input_request and input_resolved events frame each. Subagents
	// do not inherit it.
	OnAskUser AskUserFunc
	// OutputSchema, when set, is the JSON Schema (an object schema) of a
	// structured answer: the agent offers a final_answer tool taking it,
	// after the AllowedTools and DisallowedTools filters, and its system
	// prompt (the host's too) asks the model to call it when done. The
	// input of the prompt's last valid call is the Result's Output; see
	// DecodeOutput, and OutputSchemaFor to infer a schema from a Go type.
	// final_answer goes through the permission policy like any tool, so a
	// policy must allow it. Subagents do not inherit it.
	OutputSchema json.RawMessage
	// ContextWindow is the model's context window in tokens, within which
	// the context engine keeps every request (see the engine package):
	// under pressure, tool results the model has seen go to the session's
	// context archive, and older messages are shortened in the request,
	// never in the log. Zero means the window the provider reports for the
	// model (model.WindowReporter: 200,000 tokens for Claude models with
	// model/anthropic), else engine.DefaultContextWindow (32,000).
	ContextWindow int
	// ContextPlanner makes the agent's model the context engine's level-3
	// planner (engine.ModelPlanner): over 85% of the window it is asked
	// which earlier segments to keep, summarize or archive, within
	// engine.DefaultPlannerBudget, falling back without a plan when it is
	// slower. Off by default: it costs a model call per compacted request.
	ContextPlanner bool
	// CompactSummary makes [Agent.Compact] have the agent's model summarize
	// the session's older turns (compaction.Summary: all but the newest
	// three turns become one summary message) after the context levels, so
	// that the committed view, and every resume from it, stays small
	// however long the session grew. Off by default: it costs a model call
	// per Compact, or several (up to 16) for a history too long for one
	// request within the context window (SummaryOptions.Window). Without
	// it, a compacted history still over the window loses its oldest turns
	// from the view instead.
	CompactSummary bool
	// DisableContext turns the context engine off: every request carries
	// the whole session history, and a request the provider refuses as too
	// long ends the run.
	DisableContext bool
	// Compaction are compaction passes (package compaction) run on every
	// model request after the context engine's levels, or on the whole
	// history when the context engine is off; the context engine commits
	// what they change to the session's context view. nil runs none.
	// read_spilled reads the spill store of LegacyCompaction only, so
	// spill tool results through LegacyCompaction rather than a
	// compaction.ToolResultBudget here.
	Compaction []compaction.Pass
	// LegacyCompaction selects the TypeScript SDK's legacy context mode in
	// place of the context engine: every request goes through
	// compaction.Default with the project's spill store (tool results over
	// the budget are spilled, and read_spilled returns them), then
	// Compaction, and a request the provider refuses as too long is
	// retried once, trimmed by compaction.Reactive.
	LegacyCompaction bool

	// TaskListID names a task list shared by every session that names it.
	// "" means each session has a private list named after it, unless the
	// namespace is the default one and LITE_AGENT_TASK_LIST_ID is set.
	TaskListID string
	// DisableTasks removes the task tools and the task reminder.
	DisableTasks bool

	// DisableSessions keeps sessions in memory only (they are lost on
	// Close) unless Checkpointer is set.
	DisableSessions bool
	// Checkpointer replaces the file checkpointer. It keeps its own
	// serialization: Storage.Codec is not applied to it.
	Checkpointer session.Checkpointer
	// Store keeps session logs, task lists and context archives in place
	// of the data home's projects directory, where the agent then writes
	// nothing (its configuration files are still read from the data home
	// and the project directory): store/postgres keeps them in PostgreSQL
	// for agents on several hosts. With a Store (and no Checkpointer) the
	// agent never creates the data home: it only reads configuration
	// files there, and the cleanup sweep only removes stale files. Storage.Codec applies to every record
	// it keeps. nil means the data home's files. A Checkpointer, when set,
	// keeps the sessions instead; DisableSessions keeps everything in
	// memory. The Store stays the host's: Close does not close it, so
	// one Store can serve several agents, one after another or at once.
	Store Store

	// DisableCleanup skips the sweep of stale runtime files that New runs
	// over the data home (see package retention for what it removes:
	// session logs, context archives and spilled output of every project
	// of the home older than 30 days, and orphaned temporary files older
	// than an hour; never task lists, locked files or symlinks).
	DisableCleanup bool
	// Cleanup configures that sweep; Home is always the agent's data home.
	// A zero MaxAge means CleanupDaysEnv's value in the default namespace,
	// else 30 days.
	Cleanup retention.Options
	// OnCleanup, when set, receives the report of the sweep New runs,
	// before New returns (whether or not anything was removed). The
	// sweep also logs one line to Logger when it removed anything.
	OnCleanup func(retention.Report)

	// Permission decides about every tool call, hook command and MCP
	// connection. nil means permission.Default(): ask before bash,
	// write_file, edit_file, delete_file, hook, mcp_connect and mcp__*,
	// allow the rest. Use PermissionFilePolicy for permissions.json files.
	// The input of a hook or mcp_connect check carries "source": "user"
	// (the data home's files), "project" (the project directory's, which
	// a cloned repository may supply) or "host" (Hooks, MCPServers);
	// permission.OwnConfig narrows an allow to "user" and "host".
	Permission permission.Policy
	// OnApproval answers the calls the policy asks about, one at a time
	// for the whole agent. nil denies them.
	OnApproval permission.ApprovalFunc
	// PermissionDryRun records decisions but runs every tool call. Hook
	// commands and MCP connections are still decided for real: an ask
	// goes to OnApproval, a deny stops them.
	PermissionDryRun bool
	// SecretEnv names environment variables that hold a secret whatever
	// their names say (the variable the store codec's key is read from):
	// the gate asks before a bash line prints one (see
	// permission.GateOptions.SecretEnv).
	SecretEnv []string
	// PermissionAudit appends every decision to the session log as a
	// permission_decision event, with redacted input. A hook's decision
	// around a turn (run:start, run:end) goes to the run's session in the
	// background, between its turns; Close waits for it.
	PermissionAudit bool
	// Redact hides secrets in audited inputs; nil means permission.Redact.
	Redact func(json.RawMessage) json.RawMessage

	// DisableAgents removes the Agent tool and skips loading subagent
	// definitions (<home>/agents, <workdir>/.<namespace>/agents, AgentsDir).
	DisableAgents bool
	// AgentsDir is one more directory of subagent definitions.
	AgentsDir string
	// MaxParallelSubagents bounds the subagents running at once across the
	// whole agent; zero means 5.
	MaxParallelSubagents int

	// MCPServers are the host's own MCP servers, merged after
	// <home>/mcps.json and <workdir>/.<namespace>/mcps.json (a name defined
	// twice is an error).
	MCPServers map[string]mcphost.ServerConfig
	// DisableMCPFiles skips the mcps.json files.
	DisableMCPFiles bool

	// DisableHookFiles skips loading <home>/hooks.json and
	// <workdir>/.<namespace>/hooks.json. Hooks run only what the host
	// permits: command hooks are asked about as the tool "hook", which the
	// default policy denies without an approval handler.
	DisableHookFiles bool
	// Hooks are programmatic hooks, run after the file hooks.
	Hooks []hook.Hook

	// SkillsDir is one more directory of skills (SKILL.md files), searched
	// after <home>/skills and <workdir>/.<namespace>/skills.
	SkillsDir string

	// DisableRetry sends each model request once.
	DisableRetry bool
	// Retry configures the retries of failed model requests.
	Retry model.RetryOptions

	// Bash configures the bash tool; Workdir and Background are set by
	// the agent.
	Bash bash.Options

	// FileTools configures read_file, write_file, edit_file and
	// delete_file: extra ReadRoots, Symlinks, MaxSnapshotBytes,
	// MaxFileBytes. The agent sets Workdir, Snapshots and Archive; its
	// session read roots apply besides any SessionReadRoots given here,
	// and the protected paths of its layout (the data home, the project's
	// permissions.json, hooks.json, mcps.json, agents/ and skills/, and
	// .git/hooks and .git/config) besides any Protected given here.
	FileTools builtin.FileOptions

	// Sandbox contains the commands of the whole family: the bash tool's
	// foreground and background commands (subagents share the tool) and
	// command hooks. Bash.Sandbox, when set, takes precedence for the bash
	// tool. nil runs commands uncontained, with the rights of the host
	// process: build one with sandbox.Auto or sandbox.NewBubblewrap from
	// sandbox.ProjectOptions(storage.ResolveProjectPaths(…)).
	Sandbox sandbox.Sandbox

	// ModelMiddleware shapes every model call of the agent and of its
	// subagents, the first outermost (see model.Use): it sees each request
	// before it leaves, the streamed chunks and the final message. It runs
	// outside the retries, so one call through it may make several
	// attempts. redact.New (package model/redact) masks secrets in
	// requests.
	ModelMiddleware []model.Middleware
	// ToolMiddleware wraps every tool call of the agent and of its
	// subagents, the first outermost (see tool.Use). It runs inside the
	// tool hooks and outside the permission policy: it sees every call
	// the model makes, a denied one with the denial as its result, and
	// an input it changes is the one the policy decides about.
	ToolMiddleware []tool.Middleware
	// Telemetry records OpenTelemetry spans and metrics of turns, model
	// and tool calls, subagent runs and compactions. The zero value
	// records nothing. See package telemetry.
	Telemetry telemetry.Options

	// Logger receives diagnostics (ids, sizes, durations; never prompts or
	// payloads). nil logs nothing.
	Logger *slog.Logger
}

// layout is the frozen result of resolving the options: children and later
// calls use it, never the options or the environment again.
type layout struct {
	workdir    string
	paths      storage.ProjectPaths
	enc        storage.Encoding
	taskListID string // explicit shared list, or ""
}

// Agent is an LLM agent over one data home. Its methods are safe for
// concurrent use; prompts on one session run one at a time.
//
// An Agent has one current session ([Agent.SessionID]), which Resume,
// ResumeStored, StartSession and Clear change for every caller, and which
// Send and Run take when they are called. So a host serving several
// sessions at once from goroutines (one per user, say) either gives each
// session its own Agent (agents on one data home or one [Store] resume
// each other's sessions) or holds a lock of its own from each Resume
// to the Send or Run that follows: two goroutines that each Resume and
// then Send can otherwise both send to the session resumed last.
//
// Make one with [New]. The zero Agent and a nil *Agent behave as closed
// agents, so that a deferred Close after a failed New is harmless: Close
// and Shutdown return nil, SessionID "", Paths the zero ProjectPaths, Clear
// does nothing, and every other method fails with [ErrClosed].
type Agent struct {
	lay  layout
	eng  *engine.Engine
	cp   session.Checkpointer
	mode storeMode
	// store keeps the tasks and archives (and, in externalStore mode, the
	// sessions) when not nil; nil means the data home's files.
	store Store
	// idNamesTaskList: a session's private task list is named after the
	// session (a file list in the data home, or a Store's list, whose ids
	// follow storage.ValidateID too), so a host checkpointer's session ids
	// must be valid list ids (see checkID).
	idNamesTaskList bool
	// forkPaused, tests only (see export_test.go), runs in Fork between
	// the copy of the session's data and the write of the new log.
	forkPaused func(newID string)
	// forkRead, tests only (see export_test.go), runs in Fork between the
	// read of the session's events and the copy of its data.
	forkRead func()
	// forkArchiveSeen, tests only (see export_test.go), runs in Fork once
	// it has seen that the session's archive exists, before it opens it.
	forkArchiveSeen func()
	// forkNewID, tests only (see export_test.go), replaces the random id
	// Fork gives the new session.
	forkNewID func() string
	// deliveryStarting, tests only (see export_test.go), runs when a
	// background command's completion is about to be delivered, before
	// the delivery's turn starts.
	deliveryStarting func(sessionID string)
	// restoreLocking, tests only (see export_test.go), runs in Restore
	// just before the restore takes the session's lock.
	restoreLocking func(id string)
	// resumeLooked, tests only (see export_test.go), runs in
	// ResumeStored between its read of the session's first record and
	// its look at the session's log.
	resumeLooked func(id string)
	// heldStored, tests only (see export_test.go), runs in a held task
	// or archive write once the session's log is found there, before the
	// write.
	heldStored func(id string)
	// heldWrites keeps an in-process DeleteSession from removing a
	// session's data while a held write of it is under way (see
	// sessionheld.go).
	heldWrites sessionWrites
	// files puts workspace files back for Restore, by the file tools'
	// rules.
	files *builtin.FileRestorer
	// leaseMu guards leases, the session leases the agent's turns hold
	// (see leaseSession). It is never held while the Store takes or
	// releases a lease (a turn waits on the lease's channels), nor with mu.
	leaseMu sync.Mutex
	leases  map[string]*heldLease
	bg      *bash.Background

	audits     sync.WaitGroup // permission decisions around turns being appended
	deliveries sync.WaitGroup // turns delivering background bash completions
	log        *slog.Logger
	// hooks runs hook commands and functions; nil when there are none.
	hooks *hook.Runner
	// permit asks the permission gate about a non-tool action (a hook
	// command, an MCP connection); nil denies.
	permit func(ctx context.Context, call permission.Call) (bool, error)
	// runs are the runs whose hooks may fire, and the hook commands being
	// decided about.
	runs hookRuns

	// mcp holds the MCP connections of the family; nil without servers.
	mcp *mcphost.Host
	// pool runs the subagent groups of the whole family; nil when agents
	// are disabled.
	pool *subagent.Pool
	// tools and engineOpts are the assembled tools and engine options,
	// kept to build subagent engines.
	tools      []tool.Tool
	engineOpts engine.Options
	// spill is the project's spill store with LegacyCompaction, else nil.
	spill spill.Store

	// subs are the functions of Subscribe.
	subs subscribers
	// obs holds the host's middleware and the telemetry.
	obs observers

	// life ends when the agent closes; every turn's context ends with it.
	life context.Context
	stop context.CancelFunc

	// sched tracks the turns, prompts, subagent sessions and cancelled
	// background work of the family; its close refuses new turns.
	sched *schedule
	// closeDone is closed when closing has finished; closeErr is its
	// result, written before.
	closeDone chan struct{}
	closeErr  error

	mu       sync.Mutex // guards the fields below
	current  string
	archives map[string]archive.Archive
	tasks    map[string]task.Store
}

// New returns an Agent. It validates every option and the codec before it
// creates anything on disk. A field it refuses on its own is an
// *[OptionError] naming the field; an invalid namespace, home or codec is
// the *storage.Error of package storage.
func New(ctx context.Context, opts Options) (*Agent, error) {
	cfg, err := loadConfig(ctx, opts)
	if err != nil {
		return nil, err
	}
	a := newAgent(cfg)
	if a.obs, err = newObservers(opts); err != nil {
		return nil, err
	}
	if cfg.sweep {
		cleanup(ctx, cfg.sweepOpts, opts.OnCleanup, a.log)
	}
	if err := a.openStores(ctx, opts); err != nil {
		return nil, err
	}
	a.idNamesTaskList = a.mode == customStore && !opts.DisableTasks && a.lay.taskListID == ""
	gate, err := a.buildGate(opts, cfg.hooks)
	if err != nil {
		return nil, err
	}
	if err := a.startServices(opts, cfg); err != nil {
		return nil, err
	}
	tools, err := a.buildTools(opts, cfg.skills, cfg.defs, gate, cfg.finalAnswer)
	if err != nil {
		a.bg.Close()
		return nil, err
	}
	if err := a.buildEngine(opts, cfg, gate, tools); err != nil {
		a.bg.Close()
		return nil, err
	}
	return a, nil
}

// config is what New reads and checks before it creates anything: the
// layout, the sweep to run, and the definitions loaded from the data home
// and the project (hooks, skills, MCP servers, subagents).
type config struct {
	lay         layout
	log         *slog.Logger
	sweep       bool
	sweepOpts   retention.Options
	finalAnswer tool.Tool // nil without an OutputSchema
	hooks       hook.Config
	skills      []skill.Skill
	mcp         mcphost.Config
	defs        []subagent.Definition // nil when agents are disabled
}

// loadConfig validates opts, resolves the layout and loads the definition
// files. It writes nothing.
func loadConfig(ctx context.Context, opts Options) (config, error) {
	if opts.Model == nil {
		return config{}, &OptionError{Field: "Model", Message: "Model is required"}
	}
	if err := checkNilOptions(opts); err != nil {
		return config{}, err
	}
	if opts.ModelName == "" {
		return config{}, &OptionError{Field: "ModelName", Message: "ModelName must be non-empty"}
	}
	var cfg config
	var err error
	if cfg.lay, err = resolveLayout(opts); err != nil {
		return config{}, err
	}
	if cfg.sweepOpts, cfg.sweep, err = cleanupOptions(opts, cfg.lay.paths); err != nil {
		return config{}, err
	}
	if opts.OutputSchema != nil {
		if cfg.finalAnswer, err = finalAnswerTool(opts.OutputSchema); err != nil {
			return config{}, err
		}
	}
	paths := cfg.lay.paths
	if err := checkNoUnfinishedMigration(paths); err != nil {
		return config{}, err
	}
	if !opts.DisableHookFiles {
		if cfg.hooks, err = hook.LoadFiles(ctx, paths); err != nil {
			return config{}, err
		}
	}
	if cfg.skills, err = skill.Load(ctx, skill.LoadOptions{Paths: paths, ExtraDir: opts.SkillsDir}); err != nil {
		return config{}, err
	}
	if cfg.mcp, err = mcphost.LoadConfigContext(ctx, mcphost.LoadOptions{Paths: paths, Servers: opts.MCPServers, NoFiles: opts.DisableMCPFiles}); err != nil {
		return config{}, err
	}
	if !opts.DisableAgents {
		if cfg.defs, err = subagent.Load(ctx, subagent.LoadOptions{Paths: paths, ExtraDir: opts.AgentsDir}); err != nil {
			return config{}, err
		}
	}
	if err := bindPermission(ctx, opts, cfg.lay); err != nil {
		return config{}, err
	}
	cfg.log = opts.Logger
	if cfg.log == nil {
		cfg.log = slog.New(slog.DiscardHandler)
	}
	for _, s := range cfg.mcp.Skipped {
		cfg.log.Warn("MCP server of the project skipped: "+s.Error()+"; the first is used (rename or remove it in the project's file to use both)",
			"server", s.Server, "kept", s.First, "skipped", s.Second)
	}
	return cfg, nil
}

// checkNilOptions refuses, with an *OptionError naming the field, an
// interface option that holds a nil pointer (such as the nil
// *permission.FilePolicy of a failed PermissionFilePolicy whose error was
// dropped) and a nil element of a list option: each would panic later, in
// the middle of a turn.
func checkNilOptions(opts Options) error {
	for _, f := range []struct {
		name string
		v    any
	}{
		{"Model", opts.Model}, {"Permission", opts.Permission}, {"Checkpointer", opts.Checkpointer},
		{"Store", opts.Store}, {"Sandbox", opts.Sandbox},
	} {
		if f.v != nil && isNil(f.v) {
			return &OptionError{Field: f.name, Message: fmt.Sprintf("%s is a nil %T", f.name, f.v)}
		}
	}
	nilAt := func(field string, i int) error {
		name := fmt.Sprintf("%s[%d]", field, i)
		return &OptionError{Field: name, Message: name + " is nil"}
	}
	for i, t := range opts.Tools {
		if isNil(t) {
			return nilAt("Tools", i)
		}
	}
	for i, p := range opts.Compaction {
		if isNil(p) {
			return nilAt("Compaction", i)
		}
	}
	for i, m := range opts.ToolMiddleware {
		if m == nil {
			return nilAt("ToolMiddleware", i)
		}
	}
	return nil
}

// isNil reports whether v is nil or holds a nil pointer, map, slice,
// function or channel.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// bindPermission binds a *permission.FilePolicy given as opts.Permission
// to the agent's workdir and storage (see [permission.FilePolicy.Bind]):
// the fields it was made without take the agent's values, and one made
// for another project, or whose files at the agent's paths do not load (a
// *permission.ConfigError), is an *OptionError for Permission.
func bindPermission(ctx context.Context, opts Options, lay layout) error {
	fp, ok := opts.Permission.(*permission.FilePolicy)
	if !ok || fp == nil {
		return nil
	}
	err := fp.BindContext(ctx, lay.workdir, storage.Options{Namespace: lay.paths.Namespace, Home: lay.paths.Home, Codec: opts.Storage.Codec})
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return err // not the policy's fault
	}
	if be, ok := errors.AsType[*permission.BindError](err); ok {
		return &OptionError{Field: "Permission", Message: "Permission is a file policy for another " + strings.ToLower(strings.TrimPrefix(be.Field, "Storage.")), Err: err}
	}
	if err != nil {
		return &OptionError{Field: "Permission", Message: "a permission file does not load", Err: err}
	}
	return nil
}

// newAgent returns an Agent with its layout and logger, its current
// session and its life, and nothing opened yet.
func newAgent(cfg config) *Agent {
	a := &Agent{lay: cfg.lay, log: cfg.log, sched: newSchedule(), closeDone: make(chan struct{}),
		archives: map[string]archive.Archive{}, tasks: map[string]task.Store{}}
	a.life, a.stop = context.WithCancel(context.Background())
	a.current = newSessionID()
	return a
}

// openStores sets the session store: the host's Checkpointer, memory when
// sessions are disabled, the Store's when there is one, else the file
// store of the project. The Store, if any, keeps the tasks and archives
// unless sessions are in memory.
func (a *Agent) openStores(ctx context.Context, opts Options) error {
	if !opts.DisableSessions || opts.Checkpointer != nil {
		a.store = opts.Store
	}
	switch {
	case opts.Checkpointer != nil:
		a.cp, a.mode = opts.Checkpointer, customStore
	case opts.DisableSessions:
		a.cp, a.mode = session.NewMemoryCheckpointer(), memoryStore
	case opts.Store != nil:
		if err := checkNoUnfinishedImport(ctx, opts.Store, a.lay.enc); err != nil {
			return err
		}
		cp, err := storeValue(opts.Store.Checkpointer(ctx, a.lay.enc))
		if err != nil {
			return fmt.Errorf("liteagent: sessions: %w", err)
		}
		a.cp, a.mode = cp, externalStore
	default:
		if err := safefs.CheckProjectDirs(a.lay.paths); err != nil {
			return err
		}
		cp, err := session.NewFileCheckpointer(a.lay.paths.SessionsDir, session.FileOptions{Encoding: a.lay.enc})
		if err != nil {
			return err
		}
		a.cp, a.mode = cp, fileStore
	}
	if opts.LegacyCompaction {
		var err error
		a.spill, err = a.openSpill(ctx)
		return err
	}
	return nil
}

// buildGate sets up the hook runner, when there are hooks, and returns the
// permission gate of the family. The runner asks the gate (through
// a.permit, set by newGate) before each command hook.
func (a *Agent) buildGate(opts Options, hooks hook.Config) (*permission.Gate, error) {
	if len(hooks.Hooks) > 0 || len(opts.Hooks) > 0 {
		var err error
		if a.hooks, err = hook.New(hooks, hook.Options{Programmatic: opts.Hooks, Workdir: a.lay.workdir, Permit: a.permitHook, Sandbox: opts.Sandbox}); err != nil {
			return nil, err
		}
	}
	return a.newGate(opts)
}

// startServices creates what the family shares besides the stores: the
// subagent pool, the MCP host (which connects nothing yet) and the
// registry of background commands. Only the last holds resources, which
// a.bg.Close releases.
func (a *Agent) startServices(opts Options, cfg config) error {
	var err error
	if !opts.DisableAgents {
		if a.pool, err = subagent.NewPool(opts.MaxParallelSubagents); err != nil {
			return err
		}
	}
	if len(cfg.mcp.Servers) > 0 {
		if a.mcp, err = a.newMCPHost(cfg.mcp); err != nil {
			return err
		}
	}
	a.bg, err = bash.NewBackground(bash.BackgroundOptions{OnExit: a.bashExited})
	return err
}

// buildEngine builds the engine that runs the agent's turns over tools,
// and keeps its options for the subagents' engines.
func (a *Agent) buildEngine(opts Options, cfg config, gate *permission.Gate, tools []tool.Tool) error {
	eopts := engine.Options{
		Provider:         a.provider(opts),
		Model:            opts.ModelName,
		System:           a.systemPrompt(opts, cfg, tools),
		Tools:            tools,
		Checkpointer:     a.cp,
		EmptiedKept:      a.emptyLogKept,
		IdentifiedOnly:   true, // see sessionidentity.go
		MaxTurns:         opts.MaxTurns,
		MaxParallelTools: opts.MaxParallelTools,
		LogToolStarts:    opts.LogToolStarts,
		MaxTokens:        opts.MaxTokens,
		Temperature:      opts.Temperature,
		Logger:           a.log,
	}
	if a.mcp != nil {
		eopts.ExtraTools = a.mcpTools(gate, opts)
	}
	if !opts.DisableContext {
		var planner engine.Planner
		if opts.ContextPlanner {
			planner = engine.ModelPlanner(eopts.Provider, opts.ModelName)
		}
		eopts.Context = &engine.ContextOptions{
			Window: opts.ContextWindow,
			Archive: func(ctx context.Context, id string) (archive.Archive, error) {
				return a.sessionArchive(ctx, id)
			},
			Compacting: a.obs.compacting(a.compactHooks),
			Planner:    planner,
			Summary:    compactSummary(eopts.Provider, opts),
		}
	}
	a.setCompaction(&eopts, opts)
	a.obs.tracePasses(&eopts)
	if !opts.DisableTasks {
		eopts.Reminder = func(ctx context.Context, id string) (string, error) {
			st, err := a.taskStore(ctx, id)
			if err != nil {
				return "", err
			}
			return builtin.TaskReminder(ctx, st)
		}
	}
	eng, err := engine.New(eopts)
	if err != nil {
		return err
	}
	a.eng, a.tools, a.engineOpts = eng, tools, eopts
	return nil
}

// provider returns the model provider of opts, with retries unless they
// are disabled (retries are logged), inside the model middleware.
func (a *Agent) provider(opts Options) model.Provider {
	if opts.DisableRetry {
		return model.Use(model.Checked(opts.Model), a.obs.model...)
	}
	r := opts.Retry
	if r.OnRetry == nil {
		r.OnRetry = func(attempt int, err error, delay time.Duration) {
			a.log.Warn("retrying model request", "attempt", attempt, "delay", delay, "err", err)
		}
	}
	return model.Use(model.WithRetry(opts.Model, r), a.obs.model...)
}

// systemPrompt returns opts.System, or the default prompt for tools with
// the skills' and the subagents' sections, and the final-answer request
// when there is an output schema.
func (a *Agent) systemPrompt(opts Options, cfg config, tools []tool.Tool) string {
	system := opts.System
	if system == "" {
		system = defaultSystemPrompt(a.lay.paths.Namespace, a.lay.workdir, opts.ModelName, tools) + skill.PromptSection(cfg.skills)
		if a.pool != nil {
			system += subagent.PromptSection(cfg.defs, subagent.PromptOptions{})
		}
	}
	if opts.OutputSchema != nil {
		system += finalAnswerPrompt
	}
	return system
}

// checkNoUnfinishedMigration refuses a data home or project directory that
// holds the marker of a migration that did not finish: its contents are a
// partial copy, and an agent writing there (or its cleanup) would mix new
// data into what a rerun of the migration clears.
func checkNoUnfinishedMigration(p storage.ProjectPaths) error {
	for _, dir := range [...]string{p.Home, p.ProjectDir()} {
		marker := filepath.Join(dir, migrate.MarkerName)
		switch err := migrate.CheckComplete(dir); {
		case errors.Is(err, migrate.ErrIncomplete):
			return &storage.Error{Op: "open", File: marker, Message: "A migration to this location did not finish, so its data is incomplete; run the migration again or remove the destination"}
		case err != nil:
			return (&storage.Error{Op: "open", File: marker, Message: "cannot check for an unfinished migration"}).WithCause(err)
		}
	}
	return nil
}

// An importChecker is a [Store] that can tell whether an import into the
// project (lite-agent migrate --to-store) did not finish:
// store/postgres's Store.
type importChecker interface {
	ImportIncomplete(ctx context.Context, enc storage.Encoding) (bool, error)
}

// checkNoUnfinishedImport refuses a project of st that an import did not
// finish copying into, as checkNoUnfinishedMigration refuses files: its
// data is a partial copy, and the rerun that completes the import
// replaces the sessions it copied, with whatever an agent added to them.
func checkNoUnfinishedImport(ctx context.Context, st Store, enc storage.Encoding) error {
	ic, ok := st.(importChecker)
	if !ok {
		return nil
	}
	switch incomplete, err := ic.ImportIncomplete(ctx, enc); {
	case err != nil:
		return fmt.Errorf("liteagent: cannot check for an unfinished import: %w", err)
	case incomplete:
		return &storage.Error{Op: "open", Message: "An import into this project (lite-agent migrate --to-store) did not finish, so its data is incomplete; run the import again"}
	}
	return nil
}

// storeMode says where an agent keeps its sessions.
type storeMode int

const (
	fileStore     storeMode = iota // the built-in file stores in the data home
	customStore                    // a host Checkpointer; tasks and archives in the data home or the Store
	externalStore                  // Options.Store keeps everything
	memoryStore                    // sessions disabled: everything in memory, lost on Close
)

// resolveLayout resolves and validates everything that decides where data
// goes, without touching the disk.
func resolveLayout(opts Options) (layout, error) {
	//lint:ignore SA1019 the deprecated Home is passed on so that ResolveProjectPaths rejects one conflicting with Storage.Home
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: opts.Workdir, Storage: opts.Storage, Home: opts.Home})
	if err != nil {
		return layout{}, err
	}
	// The codec is frozen once, for the root: its children inherit it,
	// and an ID the host changes later does not reach the stores.
	var codec storage.Codec
	if opts.Storage.Codec != nil {
		var err error
		if codec, err = storage.FreezeCodec(opts.Storage.Codec); err != nil {
			return layout{}, err
		}
	}
	wd := paths.Workdir() // absolute and clean, as hashed
	if st, err := os.Stat(wd); err != nil {
		return layout{}, &OptionError{Field: "Workdir", Message: "workdir", Err: err}
	} else if !st.IsDir() {
		return layout{}, &OptionError{Field: "Workdir", Message: fmt.Sprintf("workdir %s is not a directory", wd)}
	}
	listID := opts.TaskListID
	if listID == "" && paths.Namespace == storage.DefaultNamespace {
		listID = os.Getenv(TaskListEnv)
	}
	if listID != "" {
		if err := storage.ValidateID(listID); err != nil {
			return layout{}, &OptionError{Field: "TaskListID", Message: "task list id", Err: err}
		}
	}
	for _, f := range [...]struct {
		name string
		n    int
	}{{"MaxTurns", opts.MaxTurns}, {"MaxTokens", opts.MaxTokens}, {"MaxParallelTools", opts.MaxParallelTools}, {"MaxParallelSubagents", opts.MaxParallelSubagents}, {"ContextWindow", opts.ContextWindow}} {
		if f.n < 0 {
			return layout{}, &OptionError{Field: f.name, Message: "MaxTurns, MaxTokens, MaxParallelTools, MaxParallelSubagents and ContextWindow must not be negative"}
		}
	}
	return layout{
		workdir:    wd,
		paths:      paths,
		enc:        storage.Encoding{Codec: codec, Namespace: paths.Namespace, ProjectID: paths.Hash},
		taskListID: listID,
	}, nil
}

// made reports whether a was made by New. The zero Agent and a nil *Agent
// were not: they behave as closed agents.
func (a *Agent) made() bool { return a != nil && a.sched != nil }

// Paths returns the resolved storage layout; the zero ProjectPaths for an
// Agent not made by New.
func (a *Agent) Paths() storage.ProjectPaths {
	if a == nil {
		return storage.ProjectPaths{}
	}
	return a.lay.paths
}

// SessionID returns the current session's id; "" for an Agent not made by
// New.
func (a *Agent) SessionID() string {
	if a == nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.current
}

// Resume makes id the current session. An unknown id starts an empty
// session; [Agent.StartSession] starts one only if the id is free, and
// [Agent.ResumeStored] resumes only a stored session, each holding its
// check until the session's first turn (Resume lifts those checks).
// Resume takes the session id holds when its next turn loads it, even one
// started again under the id after the session the agent knew was
// deleted (see [Agent.ResumeStored]). With the built-in file store, with
// a Store, and with a Checkpointer while the session has a private task
// list, in the data home or a Store (tasks on, no TaskListID), the id must be
// made of letters, digits, underscores and hyphens. An empty id, and one
// that breaks that rule, is the *storage.Error of [storage.ValidateID]
// and changes nothing.
func (a *Agent) Resume(id string) error {
	if !a.made() {
		return ErrClosed
	}
	if err := a.checkID(id); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.eng.ExpectNew(id, nil) // a session resumed may have records
	a.eng.Unidentify(id)     // whichever session id holds
	a.leaveCurrent(id)
	a.current = id
	return nil
}

// Clear starts a new session; the old one stays stored.
func (a *Agent) Clear() {
	if !a.made() {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	id := newSessionID()
	a.leaveCurrent(id)
	a.current = id
}

// Run sends prompt as one user turn of the current session and yields the
// turn's events as they happen; the last is a done event carrying the
// [Result]. The session is the one current when Run is called, as the
// agent knows it then: a sequence ranged over after the agent made another
// session current runs its turn on it all the same, and is refused (with
// a *session.ReplacedError, or the *SessionExistsError of a session
// started with [Agent.StartSession]) when another writer has taken the id
// meanwhile. Once the agent has deleted that session ([Agent.DeleteSession],
// with the session current or left), the turn fails with an
// *engine.DeletedError, which matches session.ErrNotFound, and writes
// nothing, even where a prompt after the delete started the id again: a
// deleted session never comes back with a prompt given before its
// delete, while a Run called after the delete starts it again. A session
// the agent had left and forgot, found with no records (deleted by
// another process), fails it with a *session.NotFoundError. A failure
// that ends the turn is yielded once with its error. Breaking out of the
// loop cancels the turn; the log stays valid and resumable.
//
// The turn also stops, as if ctx were cancelled, when the agent closes or
// the session is deleted. Ranging over the sequence after Close yields
// ErrClosed; from within a hook of this agent (with the hook's context),
// ErrReentrant.
func (a *Agent) Run(ctx context.Context, prompt string) iter.Seq2[Event, error] {
	if !a.made() {
		return func(yield func(Event, error) bool) {
			yield(Event{Type: engine.EventError, Err: ErrClosed, Fatal: true}, ErrClosed)
		}
	}
	a.mu.Lock()
	id := a.current
	// The session as the agent knows it now: the turn runs on it even if
	// the agent leaves it, and forgets it, before the sequence is ranged
	// over (see sessionidentity.go).
	pin := a.eng.Pin(id)
	a.mu.Unlock()
	return func(yield func(Event, error) bool) {
		ctx, done, err := a.startTurn(ctx, id, false)
		if err != nil {
			yield(Event{Type: engine.EventError, SessionID: id, Err: err, Fatal: true}, err)
			return
		}
		defer done()
		a.eng.Reinstate(pin) // the turn counts now: no sweep drops it again
		release, err := a.leaseSession(ctx, id)
		if err != nil {
			err = a.takenLease(id, err)
			yield(Event{Type: engine.EventError, SessionID: id, Err: err, Fatal: true}, err)
			return
		}
		defer release()
		// The prompt is over for deliveries once its last event was
		// published: what the consumer does with it (AwaitIdle, say)
		// must not wait for the consumer.
		over := a.sched.promptOver(id)
		defer over()
		for ev, err := range a.tracedTurn(ctx, a.eng, hook.Identity{SessionID: id, Source: hook.SourceUser}, "", "", prompt, func(ctx context.Context) iter.Seq2[Event, error] {
			return a.eng.TurnPinned(ctx, pin, model.UserText(prompt))
		}) {
			a.publish(Notice{SessionID: id, Source: hook.SourceUser, Event: ev})
			if ev.Type == engine.EventDone || err != nil {
				over()
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

// Steer adds text, as a user message, to the prompt running on the current
// session: the model gets it at its next call, after the running tools or,
// when it has just answered, in one more call. It returns ErrNotRunning
// when no prompt runs there (an autonomous turn that delivers background
// work is not one), or when the prompt is at its last model call, and
// ErrEmptySteer for text that is empty or only white space. Text taken by
// a prompt that is then cancelled or fails is dropped.
func (a *Agent) Steer(text string) error {
	if !a.made() {
		return ErrClosed
	}
	if strings.TrimSpace(text) == "" {
		return ErrEmptySteer
	}
	if !a.eng.Steer(a.SessionID(), model.UserText(text)) {
		return ErrNotRunning
	}
	return nil
}

// startTurn registers a turn on session id with the schedule (see
// [schedule.startTurn]); its context also ends when the agent closes. A
// hook of the agent, with its context, may start none: the agent waits
// for the hook.
func (a *Agent) startTurn(ctx context.Context, id string, background bool) (context.Context, func(), error) {
	if inHook(ctx, a) {
		return nil, nil, ErrReentrant
	}
	return a.sched.startTurn(ctx, a.life, id, background)
}

// Send runs prompt like Run and returns its result: the Result of the done
// event, or the error that ended the turn. A cancelled ctx is not an error:
// the turn stops with stop reason aborted. When the events end without a
// done event carrying a Result and without an error, Send returns
// [ErrNoResult] (never a nil Result with a nil error).
func (a *Agent) Send(ctx context.Context, prompt string) (*Result, error) {
	return resultOf(a.Run(ctx, prompt))
}

// resultOf returns the Result of the done event of a turn's events, the
// error that ended them, or ErrNoResult.
func resultOf(events iter.Seq2[Event, error]) (*Result, error) {
	for ev, err := range events {
		if err != nil {
			return nil, err
		}
		if ev.Type == engine.EventDone {
			if ev.Result == nil {
				return nil, ErrNoResult
			}
			return ev.Result, nil
		}
	}
	return nil, ErrNoResult
}

// ListSessions returns the stored sessions, most recent first.
func (a *Agent) ListSessions(ctx context.Context) ([]session.Info, error) {
	if !a.made() {
		return nil, ErrClosed
	}
	if !a.persistent() {
		return nil, ErrNoSessions
	}
	return a.cp.List(ctx)
}

// DeleteSession removes session id: its log, the copies of it that a
// repair or a torn tail set aside, its context archive and, unless the
// agent uses a shared task list, its private task list. Shared lists
// remain, and so does a list named like the session but marked shared by
// the agent that uses it. A session with nothing stored is an error
// matching session.ErrNotFound (a *session.NotFoundError) and nothing is
// cancelled or removed. With the built-in file stores, an id that cannot
// name a session file is the *storage.Error of [storage.ValidateID].
//
// With the built-in file stores the log is set aside first and removed
// last (see [DeleteSessionData]): a delete killed part-way leaves the
// session refused with a *session.DeletingError until DeleteSession (or
// lite-agent sessions delete) runs again and finishes it.
//
// It first cancels the session's work: its running turns and its subagent
// groups, whose results then start no autonomous turn. Called from a tool
// of a turn of the same session (with the tool's context), it fails with
// ErrDeletingRunningSession.
//
// The session deleted is the one the agent knows under id, when it knows
// one (it ran turns on it, or resumed it): once another process has
// deleted that session and another writer has started the id again, the
// delete fails with a *session.ReplacedError and nothing is cancelled or
// removed. It is checked under the session's lock in the data home, and
// just before the delete through a Store. An agent that knows no session
// under id (one that never used it, as lite-agent sessions delete) deletes
// what is stored under it.
func (a *Agent) DeleteSession(ctx context.Context, id string) error {
	if !a.made() {
		return ErrClosed
	}
	if !a.persistent() {
		return ErrNoSessions
	}
	if inHook(ctx, a) {
		return ErrReentrant
	}
	if a.mode == fileStore {
		if err := storage.ValidateID(id); err != nil {
			return err
		}
	}
	if s, ok := a.callSession(ctx); ok && s == id {
		return ErrDeletingRunningSession
	}
	check, remove := a.sessionDeleter(id)
	if err := check(ctx); err != nil {
		return err // a *session.NotFoundError: nothing to cancel or remove
	}
	// Runs called before, ranged over from now on, fail and write
	// nothing (see Run); one that started before is cancelled next.
	undo := a.eng.Deleting(id)
	// Undone unless the delete is done, deferred so that a Store that
	// panics (recovered by the caller, as net/http does) leaves the
	// session as a failed delete does: otherwise the Runs called before
	// failed though nothing was deleted.
	deleted := false
	defer func() {
		if !deleted {
			undo()
		}
	}()
	a.sched.cancelSession(id)
	// Its background commands, and its children's, are killed; their
	// completions are dropped like the groups' results.
	for _, s := range a.sched.family(id) {
		a.sched.dropCommands(a.bg.Running(s)) // before the kill: its completion may come at once
		a.bg.KillSession(s)
	}
	if a.pool != nil {
		// The cancelled groups still complete, as cancelled; their
		// results are dropped even if a new conversation starts under the
		// same id meanwhile.
		a.sched.dropGroups(id, a.pool.Groups(id))
		a.pool.Cancel(id)
	}
	// A cancelled turn that still appends finds the log gone and fails
	// with a conflict: nothing it writes brings the log back. A held
	// write under way (a tool's, a subagent's outcome) ends first.
	// Deferred too: left held, every later held write of the session,
	// and its next delete, waited forever.
	endWrites := a.heldWrites.delete(id)
	err := func() error {
		defer endWrites()
		return remove(ctx)
	}()
	if err != nil && !errors.Is(err, session.ErrNotFound) {
		return err
	}
	deleted = true
	a.eng.Forget(id)
	list := a.listID(id)
	a.mu.Lock()
	delete(a.archives, id)
	delete(a.tasks, list)
	a.forgetLeft(a.current)
	a.mu.Unlock()
	return nil
}

// sessionDeleter returns the functions that DeleteSession uses for session
// id: check fails with a *session.NotFoundError when nothing is stored of
// the session, and remove removes it.
func (a *Agent) sessionDeleter(id string) (check, remove func(context.Context) error) {
	if a.mode == externalStore {
		remove = func(ctx context.Context) error {
			// Checked and deleted under the session's lease (the agent's
			// own, shared, when a cancelled turn still holds it): no
			// other process deletes the session and starts it again
			// between the check and the delete.
			release, err := a.leaseSession(ctx, id)
			if err != nil {
				return err
			}
			defer release()
			if err := a.eng.CheckStored(ctx, id); err != nil {
				return err
			}
			if a.heldStored != nil {
				a.heldStored(id)
			}
			if d, ok := a.cp.(leasedDeleter); ok {
				return d.DeleteSessionUsing(ctx, id, a.lay.taskListID)
			}
			if d, ok := a.store.(listDeleter); ok {
				return d.DeleteSessionUsing(ctx, a.lay.enc, id, a.lay.taskListID)
			}
			return a.store.DeleteSession(ctx, a.lay.enc, id)
		}
		check = func(ctx context.Context) error {
			head, err := a.cp.Head(ctx, id)
			if err != nil {
				return err
			}
			if head > 0 {
				return a.eng.CheckStored(ctx, id)
			}
			// No log: the store tells whether an archive is left, and
			// then removes it, with nothing running to cancel.
			return remove(ctx)
		}
		return check, remove
	}
	same := func(ctx context.Context) error { return a.eng.CheckStored(ctx, id) }
	del := DeleteDataOptions{SharedTaskList: a.lay.taskListID, check: same}
	check = func(ctx context.Context) error {
		_, err := DeleteSessionData(ctx, a.lay.paths, a.cp, id, DeleteDataOptions{SharedTaskList: del.SharedTaskList, DryRun: true, check: same})
		return err
	}
	remove = func(ctx context.Context) error {
		_, err := DeleteSessionData(ctx, a.lay.paths, a.cp, id, del)
		return err
	}
	return check, remove
}

func (a *Agent) persistent() bool { return a.mode != memoryStore }

// Shutdown closes the agent as Close does, waiting for its work only
// until ctx is done; it then returns ctx's error while closing goes on.
// Called with the context of the agent's own work (a tool, hook or
// approval handler of the agent or of its subagents), it starts closing
// and returns nil at once, since that work cannot end while it waits.
func (a *Agent) Shutdown(ctx context.Context) error {
	if !a.made() {
		return nil
	}
	own := a.ownWork(ctx) // before closing ends that work's context
	// The agent is closed (prompts fail with ErrClosed) before Shutdown
	// returns, whatever it then waits for.
	if a.beginClose() {
		go a.finishClose()
	}
	if own {
		return nil
	}
	select {
	case <-a.closeDone:
		return a.closeErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ownWork reports whether ctx is that of work the agent is doing and that
// Close would wait for: a hook of the agent while it runs, or a tool (or
// an approval) of a running turn of one of its sessions or of its
// subagents' sessions.
func (a *Agent) ownWork(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false // a finished turn's tool context, kept past its turn
	}
	if inHook(ctx, a) {
		return true
	}
	s, ok := a.callSession(ctx)
	return ok && s != "" && a.sched.busy(s)
}

// Close stops background commands and releases the agent. Later prompts
// fail with ErrClosed. Close may be called more than once: a later call
// waits for the first to finish and returns its result. It ends the
// agent's running turns and waits for its background work, so it must not
// be called from that work: a hook, a tool or an approval handler of the
// agent; use Shutdown there.
func (a *Agent) Close() error {
	if !a.made() {
		return nil
	}
	if a.beginClose() {
		a.finishClose()
	}
	<-a.closeDone // a later call returns when the first has finished
	return a.closeErr
}

// beginClose marks the agent closed and reports whether this call is the
// first, which must then call finishClose.
func (a *Agent) beginClose() bool {
	return a.sched.close()
}

// finishClose ends the agent's work and releases it.
func (a *Agent) finishClose() {
	a.stop() // ends every turn: prompts and autonomous ones
	if a.pool != nil {
		a.pool.Close()
	}
	if a.mcp != nil {
		a.mcp.Close()
	}
	a.closeErr = a.bg.Close() // kills the commands: their deliveries find the agent closed
	a.deliveries.Wait()
	// Last: the turns ended above may still fire run:end hooks whose
	// decisions are appended in the background.
	a.audits.Wait()
	close(a.closeDone)
}

// listID returns the task list of session id: a subagent's is its
// parent's.
func (a *Agent) listID(id string) string {
	if list, ok := a.sched.taskList(id); ok {
		return list
	}
	return task.DefaultListID(id, a.lay.taskListID)
}

// taskStore returns the task list of session id, opening it on first use.
// ctx bounds the opening (a Store's TaskList and MarkShared), not the use
// of the list, which is kept for later calls.
func (a *Agent) taskStore(ctx context.Context, sessionID string) (task.Store, error) {
	id := a.listID(sessionID)
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.tasks[id]; ok {
		return st, nil
	}
	st, err := a.openTaskList(ctx, id)
	if err != nil {
		return nil, err
	}
	a.tasks[id] = st
	return st, nil
}

// openTaskList opens the task list id in the agent's backend, without
// keeping it: an empty list in memory when sessions are off. The shared
// list ([Options.TaskListID]) is marked shared.
func (a *Agent) openTaskList(ctx context.Context, id string) (task.Store, error) {
	if a.store != nil {
		st, err := storeValue(a.store.TaskList(ctx, a.lay.enc, id))
		if err != nil {
			return nil, fmt.Errorf("liteagent: task list %s: %w", id, err)
		}
		if sh, ok := st.(sharer); ok && id == a.lay.taskListID {
			if err := sh.MarkShared(ctx); err != nil {
				return nil, fmt.Errorf("liteagent: task list %s: %w", id, err)
			}
		}
		return st, nil
	}
	if !a.persistent() {
		return task.NewMemoryStore(), nil
	}
	fs, err := task.NewFileStore(a.lay.paths.TasksDir, id, a.lay.enc)
	if err != nil {
		return nil, err
	}
	if id == a.lay.taskListID {
		// Shared: deleting a session named like it must not remove it.
		if err := fs.MarkSharedContext(ctx); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// readTaskList returns the task list of session id for a read by the host
// ([Agent.TaskList]): the one the agent has open, else, where lists are
// stored, one opened for the read alone, so that reading the lists of
// ever more sessions keeps nothing (the agent's own users of a list open
// and keep it: its turns, its tools, the shared list). Without sessions a
// list the agent has not opened was never written: it is empty.
func (a *Agent) readTaskList(ctx context.Context, sessionID string) (task.Store, error) {
	id := a.listID(sessionID)
	if id == a.lay.taskListID {
		return a.taskStore(ctx, sessionID) // marked shared on its first use
	}
	a.mu.Lock()
	st, ok := a.tasks[id]
	a.mu.Unlock()
	if ok {
		return st, nil
	}
	return a.openTaskList(ctx, id)
}

// archiveFor returns the context archive of session id, or nil when
// sessions are kept in memory.
func (a *Agent) archiveFor(ctx context.Context, id string) (archive.Archive, error) {
	if !a.persistent() || storage.ValidateID(id) != nil {
		return nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if ar, ok := a.archives[id]; ok {
		return ar, nil
	}
	if a.store != nil {
		ar, err := storeValue(a.store.Archive(ctx, a.lay.enc, id))
		if err != nil {
			return nil, fmt.Errorf("liteagent: context archive of session %s: %w", id, err)
		}
		a.archives[id] = ar
		return ar, nil
	}
	ar, err := archive.NewFileArchive(a.lay.paths.ArchiveDir(id), archive.Options{Encoding: a.lay.enc, SessionID: id})
	if err != nil {
		return nil, err
	}
	a.archives[id] = ar
	return ar, nil
}

// buildTools assembles the built-in tools, the custom ones and the filters.
func (a *Agent) buildTools(opts Options, skills []skill.Skill, defs []subagent.Definition, gate *permission.Gate, finalAnswer tool.Tool) ([]tool.Tool, error) {
	resolveArchive := func(ctx context.Context, id string) (builtin.ArchiveScope, error) {
		ar, err := a.sessionArchive(ctx, id)
		if err != nil || ar == nil {
			return builtin.ArchiveScope{SessionID: id}, err
		}
		head, err := a.cp.Head(ctx, id)
		if err != nil {
			return builtin.ArchiveScope{}, err
		}
		return builtin.ArchiveScope{Archive: ar, SessionID: id, Generation: head}, nil
	}
	fopts := opts.FileTools
	fopts.Workdir, fopts.Snapshots, fopts.Archive = a.lay.workdir, snapshotter{}, resolveArchive
	fopts.ReadRoots = slices.Clone(fopts.ReadRoots)
	fopts.Protected = append(a.lay.paths.ProtectedPaths(), fopts.Protected...)
	if a.mode == fileStore && a.lay.enc.Codec == nil {
		hostRoots := fopts.SessionReadRoots
		fopts.SessionReadRoots = func(ctx context.Context, id string) ([]string, error) {
			roots := builtin.SessionDataRoots(a.lay.paths.SessionsDir, id, a.lay.enc)
			if hostRoots == nil {
				return roots, nil
			}
			more, err := hostRoots(ctx, id)
			return append(roots, more...), err
		}
	}
	tools, err := builtin.FileTools(fopts)
	if err != nil {
		return nil, err
	}
	if a.files, err = builtin.NewFileRestorer(fopts); err != nil {
		return nil, err
	}
	search, err := builtin.SearchTools(fopts, builtin.SearchOptions{Readable: readableBy(gate)})
	if err != nil {
		return nil, err
	}
	tools = append(tools, search...)
	bopts := opts.Bash
	bopts.Workdir, bopts.Background = a.lay.workdir, a.bg
	if bopts.Sandbox == nil {
		bopts.Sandbox = opts.Sandbox
	}
	bt, err := bash.Tool(bopts)
	if err != nil {
		return nil, err
	}
	tools = append([]tool.Tool{bt}, tools...)
	if t := skill.Tool(skills); t != nil {
		tools = append(tools, t)
	}
	readSpilled := builtin.ReadSpilledTool(resolveArchive)
	if a.spill != nil {
		readSpilled = builtin.SpilledTool(a.spill)
	}
	tools = append(tools, builtin.ContextTool(resolveArchive), readSpilled)
	if !opts.DisableTasks {
		tools = append(tools, builtin.TaskTools(func(ctx context.Context, id string) (task.Store, error) {
			return a.taskWriter(ctx, id)
		}, builtin.TaskOptions{OnUpdate: func(ctx context.Context, c *tool.Call, t task.Task) {
			c.Emit(Event{Type: engine.EventTaskUpdate, Task: &TaskEvent{ID: t.ID, Status: t.Status, Owner: t.Owner}})
		}})...)
	}
	if a.pool != nil {
		tools = append(tools, a.agentTool(opts, defs))
	}
	tools = append(tools, bash.BackgroundTools(a.bg)...)
	tools = append(tools, opts.Tools...)
	if opts.OnAskUser != nil {
		tools = append(tools, askUserTool(opts.OnAskUser))
	}
	tools = a.filterAndWrap(tools, gate, opts)
	if finalAnswer != nil {
		tools = append(tools, a.filterAndWrap([]tool.Tool{finalAnswer}, gate, Options{})...)
	}
	return tools, nil
}

// filterAndWrap applies the allowed and disallowed tool names, then puts
// each tool behind the permission gate and, outside it, the tool
// middleware and the tool hooks.
func (a *Agent) filterAndWrap(tools []tool.Tool, gate *permission.Gate, opts Options) []tool.Tool {
	var out []tool.Tool
	for _, t := range tools {
		if opts.AllowedTools != nil && !slices.Contains(opts.AllowedTools, t.Name()) {
			continue
		}
		if slices.Contains(opts.DisallowedTools, t.Name()) {
			continue
		}
		t = tool.Use(gate.Wrap(t), a.obs.tool...)
		if a.hooks != nil {
			t = hookedTool{Tool: t, a: a} // tool:start fires before the gate
		}
		out = append(out, markedTool{Tool: t, a: a})
	}
	return out
}

// snapshotter records file snapshots in the log of the turn's session.
type snapshotter struct{}

func (s snapshotter) RecordSnapshot(ctx context.Context, c *tool.Call, ev session.FileSnapshotEvent) error {
	return engine.Record(ctx, c, ev)
}

// newSessionID returns a random UUID v4.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
