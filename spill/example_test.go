package spill_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func ExampleFileStore() {
	ctx := context.Background()
	home, err := os.MkdirTemp("", "spill-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)

	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: "/src/app",
		Storage: storage.Options{Home: home},
	})
	if err != nil {
		log.Fatal(err)
	}
	store, err := spill.NewFileStore(paths.SpillDir, storage.Encoding{Codec: codec.Gzip(), ProjectID: paths.Hash})
	if err != nil {
		log.Fatal(err)
	}

	ref, err := store.Put(ctx, "hello world")
	if err != nil {
		log.Fatal(err)
	}
	body, ok, err := store.Get(ctx, ref)
	if err != nil {
		log.Fatal(err)
	}
	_, statErr := os.Stat(filepath.Join(paths.SpillDir, ref+".txt"))
	fmt.Println(ref, ok, body, statErr == nil)

	_, ok, err = store.Get(ctx, "0000000000000000")
	fmt.Println(ok, err)
	// Output:
	// 2aae6c35c94fcfb4 true hello world true
	// false <nil>
}

func ExampleRef() {
	fmt.Println(spill.Ref("hello world"))
	fmt.Println(spill.ValidRef("2aae6c35c94fcfb4"), spill.ValidRef("../etc/passwd"))
	// Output:
	// 2aae6c35c94fcfb4
	// true false
}

// Verify reports every damaged or misnamed spill file and changes nothing.
func ExampleFileStore_Verify() {
	dir, err := os.MkdirTemp("", "spill")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := spill.NewFileStore(dir, storage.Encoding{})
	if err != nil {
		log.Fatal(err)
	}
	ref, err := store.Put(ctx, "hello world")
	if err != nil {
		log.Fatal(err)
	}
	// Damage the file behind the store's back, and add a misnamed one.
	if err := os.WriteFile(filepath.Join(dir, ref+".txt"), []byte("hello, world"), 0o600); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		log.Fatal(err)
	}
	problems, err := store.Verify(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range problems {
		fmt.Printf("%s %s %q\n", p.Kind, filepath.Base(p.File), p.Record)
	}
	// Output:
	// integrity 2aae6c35c94fcfb4.txt "2aae6c35c94fcfb4"
	// name notes.txt ""
}
