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
