// Command lite-agent operates on the data home of lite-agent-go agents.
//
// Usage:
//
//	lite-agent [global flags] <command> [flags]
//
// The global flags select the project (--workdir), the namespace
// (--namespace), the data home (--home) and the record codec (--codec with
// --key-env or --key-file). The commands are:
//
//	paths    print the resolved storage layout of the project (--json)
//
// lite-agent exits 0 on success, 1 when an operation fails and 2 when the
// command line is wrong. Each error is one line on standard error.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
