// Package liteagent assembles an LLM agent whose runtime state — session
// logs, task lists, context archives — lives in a namespaced, optionally
// encoded, crash-safe data home.
//
//	agent, err := liteagent.New(ctx, liteagent.Options{
//		Model:     anthropic.New(anthropic.Options{}),
//		ModelName: "claude-sonnet-4-5",
//		Workdir:   wd,
//		Storage:   storage.Options{Namespace: "acme", Home: "/data/acme", Codec: c},
//	})
//	if err != nil { … }
//	defer agent.Close()
//	res, err := agent.Send(ctx, "Summarize README.md")
//
// New resolves the storage layout once (see storage.ResolveProjectPaths),
// validates the codec before creating anything on disk, sweeps stale runtime
// files from the data home (unless disabled), and builds the stores, the
// built-in tools and the engine. Later changes to the options or to the
// environment do not redirect a running agent.
//
// An Agent works on one current session at a time: [Agent.Send] and
// [Agent.Run] run one prompt as a turn of that session, [Agent.Resume]
// switches to another (tomorrow's process can resume today's session from
// the same data home), and [Agent.Clear] starts a new one. Prompts on one
// session run one after another.
package liteagent
