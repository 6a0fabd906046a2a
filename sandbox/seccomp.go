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

	afUnix  = 1
	x32Base = 0x40000000 // __X32_SYSCALL_BIT
)

// A syscallABI is what the filter needs to know of an architecture.
type syscallABI struct {
	auditArch  uint32 // AUDIT_ARCH_*
	socket     uint32 // __NR_socket
	ioUringSet uint32 // __NR_io_uring_setup, which could create sockets past the filter
}

// abiOf returns the ABI of goarch, if the filter supports it.
func abiOf(goarch string) (syscallABI, bool) {
	switch goarch {
	case "amd64":
		return syscallABI{auditArch: 0xc000003e, socket: 41, ioUringSet: 425}, true
	case "arm64":
		return syscallABI{auditArch: 0xc00000b7, socket: 198, ioUringSet: 425}, true
	}
	return syscallABI{}, false
}

// unixSocketFilter returns a seccomp program, as bwrap --seccomp reads
// it, that makes socket(AF_UNIX, …) and io_uring_setup fail with EPERM,
// kills a process that makes system calls of another architecture (such
// as 32-bit or x32 ones, which would slip past the numbers checked here),
// and allows everything else. ok is false on an architecture it does not
// know.
func unixSocketFilter() (prog []byte, ok bool) {
	abi, ok := abiOf(runtime.GOARCH)
	if !ok {
		return nil, false
	}
	type insn struct {
		code   uint16
		jt, jf uint8
		k      uint32
	}
	insns := []insn{
		0:  {bpfLoadAbs, 0, 0, offArch},
		1:  {bpfJumpEq, 1, 0, abi.auditArch}, // native: 3
		2:  {bpfReturn, 0, 0, retKill},
		3:  {bpfLoadAbs, 0, 0, offNr},
		4:  {bpfJumpGE, 4, 0, x32Base},        // x32: 9
		5:  {bpfJumpEq, 3, 0, abi.ioUringSet}, // 9
		6:  {bpfJumpEq, 0, 3, abi.socket},     // not socket: 10
		7:  {bpfLoadAbs, 0, 0, offArg0},
		8:  {bpfJumpEq, 0, 1, afUnix}, // not AF_UNIX: 10
		9:  {bpfReturn, 0, 0, retErrnoEPERM},
		10: {bpfReturn, 0, 0, retAllow},
	}
	for _, in := range insns {
		prog = binary.NativeEndian.AppendUint16(prog, in.code)
		prog = append(prog, in.jt, in.jf)
		prog = binary.NativeEndian.AppendUint32(prog, in.k)
	}
	return prog, true
}
