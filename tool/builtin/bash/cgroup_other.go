//go:build !linux

package bash

import (
	"errors"
	"os"
	"os/exec"
)

// A cgroup contains one command's processes; there are none on this
// platform.
type cgroup struct{}

// cgroupParent fails: cgroups are Linux's.
func cgroupParent() (string, error) { return "", errors.New("cgroups are Linux's") }

func newCgroup(string) (*cgroup, *os.File, error) { return nil, nil, errors.ErrUnsupported }

func (*cgroup) kill() {}

func (*cgroup) remove() error { return nil }

// intoCgroup does nothing: there are no cgroups on this platform.
func intoCgroup(*exec.Cmd, *os.File) {}

func probeCgroup(string, string) error { return errors.ErrUnsupported }

func sweepCgroups(string) {}
