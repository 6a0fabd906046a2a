//go:build linux

package bash

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// maxSessionRounds bounds how often killSession looks for processes
// again: one that was forking while a round killed it may have started
// another that the round did not list.
const maxSessionRounds = 64

// killSession sends SIGKILL to every process in session sid (a session
// the bash tool made for one command: the session leader's pid), found by
// their /proc/PID/stat, and to the process group of each, until a round
// finds no process of the session that it had not seen dead, or
// maxSessionRounds rounds have passed.
//
// The group is killed too because listing /proc is not atomic: a chain of
// processes each of which starts the next and exits at once (sh hop.sh &
// in hop.sh) changes its pid faster than a round reads the stat files, so
// the link a round lists is dead when it is read and the next link was
// not listed; the links share a group, which kill(2) reaches at once, and
// a dead link's stat (a zombie's) still names it. A zombie not seen
// before also means another round: what it started may not be listed yet.
//
// Linux keeps a pid from being reused while a session or a group of that
// id has a member (a zombie included), and a group holds only processes of
// one session, so no other process is reached.
func killSession(sid int) {
	self := os.Getpid()
	zombies := map[int]bool{}
	for range maxSessionRounds {
		found := false
		for _, m := range sessionMembers(sid) {
			if m.pid == self || m.pgrp == self {
				continue
			}
			if m.zombie {
				if !zombies[m.pid] {
					zombies[m.pid] = true
					found = true
				}
			} else if syscall.Kill(m.pid, syscall.SIGKILL) == nil {
				found = true
			}
			if m.pgrp > 0 && syscall.Kill(-m.pgrp, syscall.SIGKILL) == nil && !m.zombie {
				found = true
			}
		}
		if !found {
			return
		}
	}
}

// A member is a process of a session as its /proc/PID/stat shows it.
type member struct {
	pid, pgrp int
	zombie    bool // dead, not yet waited for
}

// sessionMembers returns the processes of session sid that /proc lists.
func sessionMembers(sid int) []member {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil
	}
	var ms []member
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		if s, pgrp, state, ok := statSession(stat); ok && s == sid {
			ms = append(ms, member{pid: pid, pgrp: pgrp, zombie: state == 'Z' || state == 'X'})
		}
	}
	return ms
}

// statSession parses the state, the process group and the session id out
// of a /proc/PID/stat line: "pid (comm) state ppid pgrp session …", where
// comm may hold spaces and parentheses, so the fields are counted from the
// last ')'.
func statSession(stat []byte) (sid, pgrp int, state byte, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, 0, false
	}
	sid, err := strconv.Atoi(string(f[3]))
	if err != nil {
		return 0, 0, 0, false
	}
	pgrp, err = strconv.Atoi(string(f[2]))
	if err != nil {
		return 0, 0, 0, false
	}
	return sid, pgrp, f[0][0], true
}
