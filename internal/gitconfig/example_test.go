package gitconfig_test

import (
	"fmt"

	"github.com/lite-agent/lite-agent-go/internal/gitconfig"
)

func ExampleParse() {
	entries, err := gitconfig.Parse([]byte("[core]\n\tFSMonitor = \"./mon\" # watch\n[diff \"Img\"]\n\ttextconv = exif\n[alias]\n\tst\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Printf("%s %q %q %q %q\n", e.Name, e.Section(), e.Subsection(), e.Key(), e.Value)
	}
	_, err = gitconfig.Parse([]byte("[core]\n\tpager = less\t-R\n"))
	fmt.Println(err)
	// Output:
	// core.fsmonitor "core" "" "fsmonitor" "./mon"
	// diff.Img.textconv "diff" "Img" "textconv" "exif"
	// alias.st "alias" "" "st" ""
	// git configuration line 2: '\t' between the words of a value, which git versions read differently
}
