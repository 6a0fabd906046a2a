package retention_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
)

func TestOrphanTempFilesGoAfterAnHour(t *testing.T) {
	const (
		hex   = ".0123456789ab.tmp"
		old   = 2 * time.Hour
		young = 10 * time.Minute
		stale = filelock.DefaultStale + time.Minute // unrefreshed: its holder is gone
	)
	tests := []struct {
		name    string
		build   func(tr *tree)
		gone    []string
		kept    []string
		removed []string
	}{
		{
			name: "task temp beside its record",
			build: func(tr *tree) {
				tr.file(p1+"/tasks/list/.1.json"+hex, 10, old)
				tr.file(p1+"/tasks/list/1.json", 10, 400*day)
			},
			gone:    []string{p1 + "/tasks/list/.1.json" + hex},
			kept:    []string{p1 + "/tasks/list/1.json"},
			removed: []string{"temp " + p1 + "/tasks/list/.1.json" + hex},
		},
		{
			name:  "young task temp",
			build: func(tr *tree) { tr.file(p1+"/tasks/list/.1.json"+hex, 10, young) },
			kept:  []string{p1 + "/tasks/list/.1.json" + hex},
		},
		{
			name: "task list locked",
			build: func(tr *tree) {
				tr.file(p1+"/tasks/list/.1.json"+hex, 10, old)
				tr.dir(p1+"/tasks/list.lock", 0)
			},
			kept: []string{p1 + "/tasks/list/.1.json" + hex, p1 + "/tasks/list.lock"},
		},
		{
			name: "session log temp",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.jsonl", 10, 0)
				tr.file(p1+"/sessions/.s1.jsonl"+hex, 10, old)
			},
			gone:    []string{p1 + "/sessions/.s1.jsonl" + hex},
			kept:    []string{p1 + "/sessions/s1.jsonl"},
			removed: []string{"temp " + p1 + "/sessions/.s1.jsonl" + hex},
		},
		{
			name: "session log locked",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.jsonl", 10, 0)
				tr.file(p1+"/sessions/.s1.jsonl"+hex, 10, old)
				tr.dir(p1+"/sessions/s1.jsonl.lock", 0)
			},
			kept: []string{p1 + "/sessions/.s1.jsonl" + hex},
		},
		{
			name: "archive note temp in a young archive",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.context/index.jsonl", 10, 0)
				tr.file(p1+"/sessions/s1.context/.n1.txt"+hex, 10, old)
			},
			gone:    []string{p1 + "/sessions/s1.context/.n1.txt" + hex},
			kept:    []string{p1 + "/sessions/s1.context/index.jsonl"},
			removed: []string{"temp " + p1 + "/sessions/s1.context/.n1.txt" + hex},
		},
		{
			name: "task list lock stale",
			build: func(tr *tree) {
				tr.file(p1+"/tasks/list/.1.json"+hex, 10, old)
				tr.dir(p1+"/tasks/list.lock", stale)
			},
			gone:    []string{p1 + "/tasks/list/.1.json" + hex},
			kept:    []string{p1 + "/tasks/list.lock"},
			removed: []string{"temp " + p1 + "/tasks/list/.1.json" + hex},
		},
		{
			name: "session log lock stale",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.jsonl", 10, 0)
				tr.file(p1+"/sessions/.s1.jsonl"+hex, 10, old)
				tr.dir(p1+"/sessions/s1.jsonl.lock", stale)
			},
			gone:    []string{p1 + "/sessions/.s1.jsonl" + hex},
			kept:    []string{p1 + "/sessions/s1.jsonl", p1 + "/sessions/s1.jsonl.lock"},
			removed: []string{"temp " + p1 + "/sessions/.s1.jsonl" + hex},
		},
		{
			name: "archive lock stale",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.context/.n1.txt"+hex, 10, old)
				tr.dir(p1+"/sessions/s1.context.lock", stale)
			},
			gone:    []string{p1 + "/sessions/s1.context/.n1.txt" + hex},
			kept:    []string{p1 + "/sessions/s1.context.lock"},
			removed: []string{"temp " + p1 + "/sessions/s1.context/.n1.txt" + hex},
		},
		{
			name: "archive locked",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/s1.context/.n1.txt"+hex, 10, old)
				tr.dir(p1+"/sessions/s1.context.lock", 0)
			},
			kept: []string{p1 + "/sessions/s1.context/.n1.txt" + hex},
		},
		{
			name: "young session temp",
			build: func(tr *tree) {
				tr.file(p1+"/sessions/.s1.jsonl"+hex, 10, young)
			},
			kept: []string{p1 + "/sessions/.s1.jsonl" + hex},
		},
		{
			name: "spill temp",
			build: func(tr *tree) {
				tr.file(p1+"/spill/.r1.txt"+hex, 10, old)
			},
			gone:    []string{p1 + "/spill/.r1.txt" + hex},
			removed: []string{"temp " + p1 + "/spill/.r1.txt" + hex},
		},
		{
			name: "not a temp name",
			build: func(tr *tree) {
				tr.file(p1+"/tasks/list/.notes.tmp", 10, old)
				tr.file(p1+"/tasks/list/.1.json.0123456789AB.tmp", 10, old)
				tr.file(p1+"/sessions/x.tmp", 10, old)
			},
			kept: []string{p1 + "/tasks/list/.notes.tmp", p1 + "/tasks/list/.1.json.0123456789AB.tmp", p1 + "/sessions/x.tmp"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, dry := range []bool{true, false} {
				tr := newTree(t)
				tt.build(tr)
				rep := tr.sweep(retention.Options{DryRun: dry})
				equal(t, "removed", tr.removed(rep), tt.removed)
				tr.mustExist(tt.kept...)
				if dry {
					tr.mustExist(tt.gone...)
				} else {
					tr.mustNotExist(tt.gone...)
				}
			}
		})
	}
}
