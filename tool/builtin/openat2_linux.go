package builtin

import "golang.org/x/sys/unix"

// openat2Beneath opens the directory rel below dirfd in one step, refusing
// to leave dirfd and to follow any symbolic link (ELOOP). It fails with
// ENOSYS on kernels without openat2 (before Linux 5.6).
func openat2Beneath(dirfd int, rel string) (int, error) {
	return unix.Openat2(dirfd, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
}
