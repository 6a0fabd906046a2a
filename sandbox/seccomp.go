package sandbox

import (
	"encoding/binary"
	"runtime"
)

// Classic BPF opcodes and seccomp return values (linux/filter.h,
// linux/seccomp.h).
const (
	bpfLoadAbs    = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJumpEq     = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJumpGE     = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfReturn     = 0x06 // BPF_RET | BPF_K
	retAllow      = 0x7fff0000
	retKill       = 0x80000000 // SECCOMP_RET_KILL_PROCESS
	retErrnoEPERM = 0x00050000 | 1

	// Offsets in struct seccomp_data.
	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low 32 bits on little-endian machines
	offArg1 = 24

	// The fscrypt ioctls that add and remove a file system's keys
	// (linux/fscrypt.h; the same on every architecture the filter knows).
	fsIocAddEncryptionKey            = 0xc0506617
	fsIocRemoveEncryptionKey         = 0xc0406618
	fsIocRemoveEncryptionKeyAllUsers = 0xc0406619

	afUnix  = 1
	x32Base = 0x40000000 // __X32_SYSCALL_BIT
)

// A syscallABI is what the filter needs to know of an architecture.
type syscallABI struct {
	auditArch  uint32    // AUDIT_ARCH_*
	socket     uint32    // __NR_socket
	ioUringSet uint32    // __NR_io_uring_setup, which could create sockets past the filter
	keyring    [3]uint32 // __NR_add_key, __NR_request_key, __NR_keyctl
	ioctl      uint32    // __NR_ioctl
}

// abiOf returns the ABI of goarch, if the filter supports it.
func abiOf(goarch string) (syscallABI, bool) {
	switch goarch {
	case "amd64":
		return syscallABI{auditArch: 0xc000003e, socket: 41, ioUringSet: 425, keyring: [3]uint32{248, 249, 250}, ioctl: 16}, true
	case "arm64":
		return syscallABI{auditArch: 0xc00000b7, socket: 198, ioUringSet: 425, keyring: [3]uint32{217, 218, 219}, ioctl: 29}, true
	}
	return syscallABI{}, false
}

// seccompFilter returns a seccomp program, as bwrap --seccomp reads it,
// that makes add_key, request_key and keyctl fail with EPERM (the kernel's
// keyrings are not namespaced: the session keyring the agent was started
// in, with whatever keys it holds, would be the command's too), and so the
// fscrypt ioctls that add or remove a file system's keys (a key is the
// file system's, not the sandbox's: adding one shows the host the
// decrypted names of an encrypted directory, without changing any time
// the repository check reads), with
// blockUnix makes socket(AF_UNIX, …) and io_uring_setup fail with EPERM,
// kills a process that makes system calls of another architecture (such
// as 32-bit or x32 ones, which would slip past the numbers checked here),
// and allows everything else. ok is false on an architecture it does not
// know.
func seccompFilter(blockUnix bool) (prog []byte, ok bool) {
	abi, ok := abiOf(runtime.GOARCH)
	if !ok {
		return nil, false
	}
	// An insn may carry a label; a jump names the label it goes to, ""
	// meaning the next instruction.
	type insn struct {
		label  string
		code   uint16
		jt, jf string
		k      uint32
	}
	insns := []insn{
		{"", bpfLoadAbs, "", "", offArch},
		{"", bpfJumpEq, "native", "", abi.auditArch},
		{"", bpfReturn, "", "", retKill},
		{"native", bpfLoadAbs, "", "", offNr},
		{"", bpfJumpGE, "deny", "", x32Base},
		{"", bpfJumpEq, "deny", "", abi.keyring[0]},
		{"", bpfJumpEq, "deny", "", abi.keyring[1]},
		{"", bpfJumpEq, "deny", "", abi.keyring[2]},
		{"", bpfJumpEq, "", "rest", abi.ioctl},
		{"", bpfLoadAbs, "", "", offArg1},
		{"", bpfJumpEq, "deny", "", fsIocAddEncryptionKey},
		{"", bpfJumpEq, "deny", "", fsIocRemoveEncryptionKey},
		{"", bpfJumpEq, "deny", "", fsIocRemoveEncryptionKeyAllUsers},
		{"", bpfReturn, "", "", retAllow},
		{"rest", bpfLoadAbs, "", "", offNr},
	}
	if blockUnix {
		insns = append(insns,
			insn{"", bpfJumpEq, "deny", "", abi.ioUringSet},
			insn{"", bpfJumpEq, "", "allow", abi.socket},
			insn{"", bpfLoadAbs, "", "", offArg0},
			insn{"", bpfJumpEq, "", "allow", afUnix},
		)
	} else {
		insns = append(insns, insn{"", bpfReturn, "", "", retAllow})
	}
	insns = append(insns,
		insn{"deny", bpfReturn, "", "", retErrnoEPERM},
		insn{"allow", bpfReturn, "", "", retAllow},
	)
	at := map[string]int{}
	for i, in := range insns {
		if in.label != "" {
			at[in.label] = i
		}
	}
	jump := func(from int, label string) uint8 {
		if label == "" {
			return 0
		}
		return uint8(at[label] - from - 1)
	}
	for i, in := range insns {
		prog = binary.NativeEndian.AppendUint16(prog, in.code)
		prog = append(prog, jump(i, in.jt), jump(i, in.jf))
		prog = binary.NativeEndian.AppendUint32(prog, in.k)
	}
	return prog, true
}
