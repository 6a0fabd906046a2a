// Package gitindex reads what the gate and the sandbox need of a git
// index file: the paths of its gitlinks (submodules and embedded
// repositories), which make git, run in the superproject, look into the
// repositories at those paths.
package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// gitlinkMode is the mode of an index entry that records a gitlink.
const gitlinkMode = 0o160000

// ErrFormat is returned for an index Gitlinks cannot read: not an index,
// a version other than 2, 3 or 4, a truncated or inconsistent one, or a
// split index, whose entries are mostly in another file. An index git
// would read otherwise is inconsistent: a name whose length in the entry's
// flags is not where its NUL lies (git takes the length, and so the next
// entry's offset, from the flags), or an end-of-index-entries or
// index-entry-offset-table extension (EOIE, IEOT: where git, loading an
// index with threads, starts the extensions and each block of entries)
// that does not agree with the entries read one after another.
var ErrFormat = errors.New("git index format not understood")

// Gitlinks returns the paths of the gitlink entries of the git index data,
// versions 2, 3 and 4, whose object names are hashLen bytes long (20 for
// SHA-1, 32 for SHA-256). What it cannot read is ErrFormat, never a
// partial list.
func Gitlinks(data []byte, hashLen int) ([]string, error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, ErrFormat
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, ErrFormat
	}
	count := binary.BigEndian.Uint32(data[8:12])
	var links []string
	var prev []byte
	off := 12
	fixed := 40 + hashLen + 2 // stat data, object name, flags
	// starts holds where each entry begins and fresh whether a version 4
	// entry strips all of the name before it, as one that begins a block
	// of git's threaded load must (git reads it with no name before it).
	var starts []int
	var fresh []bool
	for n := uint32(0); n < count; n++ {
		start := off
		if off+fixed > len(data) {
			return nil, ErrFormat
		}
		starts = append(starts, start)
		mode := binary.BigEndian.Uint32(data[off+24 : off+28])
		flags := binary.BigEndian.Uint16(data[off+40+hashLen : off+fixed])
		// The name's length, unless it is 0xFFF or more; git takes the
		// name and the next entry's offset from it, not from the NUL.
		nameLen := int(flags & 0xFFF)
		off += fixed
		if flags&0x4000 != 0 {
			if version < 3 {
				return nil, ErrFormat
			}
			off += 2
		}
		var name []byte
		if version == 4 {
			strip, used := offsetVarint(data[min(off, len(data)):])
			if used == 0 || strip > uint64(len(prev)) {
				return nil, ErrFormat
			}
			fresh = append(fresh, strip == uint64(len(prev)))
			off += used
			end := bytes.IndexByte(data[min(off, len(data)):], 0)
			keep := len(prev) - int(strip)
			if end < 0 || nameLen < 0xFFF && keep+end != nameLen {
				return nil, ErrFormat
			}
			name = append(append([]byte(nil), prev[:keep]...), data[off:off+end]...)
			off += end + 1
		} else {
			end := bytes.IndexByte(data[min(off, len(data)):], 0)
			if end < 0 || nameLen < 0xFFF && end != nameLen {
				return nil, ErrFormat
			}
			name = data[off : off+end]
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			off = start + (off+end-start+8)&^7
			if off > len(data) {
				return nil, ErrFormat
			}
		}
		if len(name) == 0 {
			return nil, ErrFormat
		}
		prev = name
		if mode&0o170000 == gitlinkMode {
			links = append(links, string(name))
		}
	}
	// Extensions follow, each a 4-byte signature and a 4-byte size, until
	// the trailing checksum. A split index ("link") keeps most entries
	// in another file.
	extStart := off
	// git looks for EOIE at its place before the checksum, whatever
	// comes before it, and then for IEOT from the offset EOIE holds.
	if eoie := len(data) - hashLen - 8 - 4 - hashLen; eoie >= extStart && string(data[eoie:eoie+4]) == "EOIE" &&
		binary.BigEndian.Uint32(data[eoie+4:eoie+8]) == uint32(4+hashLen) &&
		int64(binary.BigEndian.Uint32(data[eoie+8:eoie+12])) != int64(extStart) {
		return nil, ErrFormat
	}
	for off+8 <= len(data)-hashLen {
		size := int64(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if string(data[off:off+4]) == "link" || int64(off)+8+size > int64(len(data)) {
			return nil, ErrFormat
		}
		if string(data[off:off+4]) == "IEOT" && !ieotAgrees(data[off+8:off+8+int(size)], starts, fresh) {
			return nil, ErrFormat
		}
		off += 8 + int(size)
	}
	return links, nil
}

// ieotAgrees reports whether the index entry offset table ext (version 1:
// blocks of an offset and an entry count) names blocks that begin where
// the entries read one after another begin (starts) and cover them all,
// and, in a version 4 index (fresh non-nil), begin only at entries whose
// name git reads alike with or without the name before.
func ieotAgrees(ext []byte, starts []int, fresh []bool) bool {
	if len(ext) < 4 || binary.BigEndian.Uint32(ext[:4]) != 1 || (len(ext)-4)%8 != 0 {
		return false
	}
	k := 0
	for b := ext[4:]; len(b) > 0; b = b[8:] {
		offset, nr := int64(binary.BigEndian.Uint32(b[:4])), int(binary.BigEndian.Uint32(b[4:8]))
		if k >= len(starts) || int64(starts[k]) != offset || fresh != nil && !fresh[k] || nr > len(starts)-k {
			return false
		}
		k += nr
	}
	return k == len(starts)
}

// offsetVarint decodes the offset varint of index version 4 (git's
// varint.c, which adds one at each continuation, unlike encoding/binary's)
// and returns it and the bytes it used (0 for none).
func offsetVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		c = b[i]
		i++
		v = (v+1)<<7 | uint64(c&127)
	}
	return v, i
}
