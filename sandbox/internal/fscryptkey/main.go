//go:build linux

// Command fscryptkey adds, removes or applies a fixed fscrypt v2 key, and
// exchanges two paths: the sandbox tests run it inside the sandbox.
//
//	fscryptkey add DIR     add the key to DIR's file system
//	fscryptkey policy DIR  add the key and encrypt the empty DIR with it
//	fscryptkey remove DIR  remove the key (DIR's file system)
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

func ioctl(fd int, req uint, buf []byte) error {
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(unsafe.Pointer(&buf[0])))
	if e != 0 {
		return e
	}
	return nil
}

// add adds the key and returns its identifier.
func add(fd int) ([]byte, error) {
	buf := make([]byte, 80+64)
	binary.LittleEndian.PutUint32(buf[0:], unix.FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER)
	binary.LittleEndian.PutUint32(buf[40:], 64) // raw_size
	for i := range 64 {
		buf[80+i] = byte(0x42 + i)
	}
	if err := ioctl(fd, unix.FS_IOC_ADD_ENCRYPTION_KEY, buf); err != nil {
		return nil, fmt.Errorf("add key: %w", err)
	}
	return append([]byte(nil), buf[8:24]...), nil
}

func main() {
	if len(os.Args) == 4 && os.Args[1] == "exchange" {
		if err := unix.Renameat2(unix.AT_FDCWD, os.Args[2], unix.AT_FDCWD, os.Args[3], unix.RENAME_EXCHANGE); err != nil {
			fmt.Fprintln(os.Stderr, "exchange:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fscryptkey add|policy|remove DIR")
		os.Exit(2)
	}
	fd, err := unix.Open(os.Args[2], unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	id, err := add(fd)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch os.Args[1] {
	case "add":
	case "policy":
		pol := make([]byte, 24)
		pol[0] = unix.FSCRYPT_POLICY_V2
		pol[1] = unix.FSCRYPT_MODE_AES_256_XTS
		pol[2] = unix.FSCRYPT_MODE_AES_256_CTS
		pol[3] = unix.FSCRYPT_POLICY_FLAGS_PAD_32
		copy(pol[8:], id)
		if err := ioctl(fd, unix.FS_IOC_SET_ENCRYPTION_POLICY, pol); err != nil {
			fmt.Fprintln(os.Stderr, "set policy:", err)
			os.Exit(1)
		}
	case "remove":
		// Once for the add above, once for the user's own claim.
		for i := range 2 {
			arg := make([]byte, 64)
			binary.LittleEndian.PutUint32(arg[0:], unix.FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER)
			copy(arg[8:], id)
			if err := ioctl(fd, unix.FS_IOC_REMOVE_ENCRYPTION_KEY, arg); err != nil {
				if i > 0 {
					break
				}
				fmt.Fprintln(os.Stderr, "remove key:", err)
				os.Exit(1)
			}
			fmt.Printf("removal status %#x\n", binary.LittleEndian.Uint32(arg[40:]))
		}
	default:
		os.Exit(2)
	}
	fmt.Printf("key %x\n", id)
}
