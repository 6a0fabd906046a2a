package main

import (
	"context"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/rewindcmd"
	"github.com/lite-agent/lite-agent-go/session"
)

// rewindAgent opens the agent of the rewind commands for session id once
// the project is known to store it: nothing is created for a missing one.
func (g *globalFlags) rewindAgent(ctx context.Context, id string) (rewindcmd.Agent, func(), error) {
	p, err := g.project()
	if err != nil {
		return nil, nil, err
	}
	st, err := g.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	opts := liteagent.Options{Workdir: p.paths.Workdir(), Storage: p.opts}
	if st == nil {
		err = p.checkLayoutDirs(p.paths.SessionsDir)
	}
	ok := false
	if err == nil {
		ok, err = sessionExists(p, id)
	}
	if st != nil {
		opts.Store = st
		ok, err = storeSessionExists(ctx, st, p, id)
	}
	if err == nil && !ok && st == nil {
		err = beingDeleted(p, id)
	}
	if err == nil && !ok {
		err = &session.NotFoundError{SessionID: id}
	}
	var a *liteagent.Agent
	if err == nil {
		a, err = rewindcmd.Open(ctx, opts)
	}
	if err != nil {
		g.closeStores()
		return nil, nil, err
	}
	return a, func() { a.Close(); g.closeStores() }, nil
}
