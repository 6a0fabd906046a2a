//go:build linux

package bash

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// maxSessionRounds bounds how often killSession looks for processes
// again: one that was forking while the first round killed its children
// may have started another.
const maxSessionRounds = 8

// killSession sends SIGKILL to every process in session sid (a session
// the bash tool made for one command: the session leader's pid), found by
// their /proc/PID/stat, until none is left or maxSessionRounds rounds
// have passed. Linux keeps a pid from being reused while a session of that
// id has a member, so no other process is reached.
func killSession(sid int) {
	self := os.Getpid()
	for range maxSessionRounds {
		killed := false
		for _, pid := range sessionMembers(sid) {
			if pid == self {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed = true
			}
		}
		if !killed {
			return
		}
	}
}

// sessionMembers returns the processes of session sid that /proc lists;
// zombies are left out (they are dead already).
func sessionMembers(sid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil
	}
	var pids []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		if s, state, ok := statSession(stat); ok && s == sid && state != 'Z' && state != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// statSession parses the state and the session id out of a
// /proc/PID/stat line: "pid (comm) state ppid pgrp session …", where comm
// may hold spaces and parentheses, so the fields are counted from the
// last ')'.
func statSession(stat []byte) (sid int, state byte, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, false
	}
	sid, err := strconv.Atoi(string(f[3]))
	if err != nil {
		return 0, 0, false
	}
	return sid, f[0][0], true
}
