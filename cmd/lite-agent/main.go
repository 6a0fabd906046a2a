// Command lite-agent runs lite-agent-go agents from a terminal and operates
// on the data home they leave behind.
//
// Usage:
//
//	lite-agent [global flags] <command> [flags]
//
// The global flags select the project (--workdir), the namespace
// (--namespace), the data home (--home), the record codec (--codec with
// --key-env or --key-file, and --key-id) and, instead of the data home's
// files, a PostgreSQL store (--store). The commands are:
//
//	run          run one prompt as an agent turn, streaming the answer
//	chat         an interactive conversation in one session
//	paths        print the resolved storage layout of the project
//	sessions     list, show, delete, compact, checkpoints, restore and fork sessions
//	tasks        list task lists
//	cleanup      remove stale runtime files from the data home
//	verify       check that every runtime record decodes
//	migrate      copy the data to another home, namespace, workdir, codec or store, verified
//	permissions  check: print what the permission rules decide for a tool call
//	mcp          list: show the configured MCP servers
//	audit        verify: check the hash chain of an audit log (run --audit-log)
//
// lite-agent exits 0 on success, 1 when an operation fails, 2 when the
// command line is wrong and 130 when an interrupt (Ctrl-C) stopped it; a
// second interrupt during the shutdown exits at once. In chat, Ctrl-C
// aborts the running turn, and at the prompt, twice, ends chat. Each
// error is one line on standard error.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	os.Exit(runInterruptible(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, sigs, os.Exit))
}
