package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// Compress a project's plaintext records into a new home, then read them
// there with the new configuration.
func ExampleRun() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "migrate-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	oldHome, newHome := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	const workdir = "/srv/app"

	// A session written in plaintext.
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: oldHome}})
	if err != nil {
		log.Fatal(err)
	}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: storage.Encoding{ProjectID: paths.Hash}})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
		log.Fatal(err)
	}

	rep, err := migrate.Run(ctx, migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: oldHome}},
		To:   migrate.Endpoint{Storage: storage.Options{Home: newHome, Codec: codec.Gzip()}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("verified:", rep.Verified)
	fmt.Println("session records:", rep.Kinds[storage.KindCheckpoint].Records)
	fmt.Println("same project hash:", rep.Destination.Hash == rep.Source.Hash)

	// The copy reads with the new codec.
	cp, err = session.NewFileCheckpointer(filepath.Join(rep.Destination.Root, "sessions"),
		session.FileOptions{Encoding: storage.Encoding{Codec: codec.Gzip(), ProjectID: rep.Destination.Hash}})
	if err != nil {
		log.Fatal(err)
	}
	evs, err := cp.Read(ctx, "s1", 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(evs[0].Event.(session.UserEvent).Message.Text)
	// Output:
	// verified: true
	// session records: 1
	// same project hash: true
	// hello
}

// A destination whose migration did not finish is reported by CheckComplete.
func ExampleCheckComplete() {
	dir, err := os.MkdirTemp("", "migrate-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	fmt.Println(migrate.CheckComplete(dir))
	if err := os.WriteFile(filepath.Join(dir, migrate.MarkerName), []byte("{}"), 0o600); err != nil {
		log.Fatal(err)
	}
	fmt.Println(errors.Is(migrate.CheckComplete(dir), migrate.ErrIncomplete))
	// Output:
	// <nil>
	// true
}
