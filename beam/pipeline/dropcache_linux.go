package pipeline

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropPages tells the kernel that the pages of f from off for n bytes are
// not needed again (POSIX_FADV_DONTNEED): clean pages leave the page
// cache at once.
func dropPages(f *os.File, off, n int64) {
	unix.Fadvise(int(f.Fd()), off, n, unix.FADV_DONTNEED)
}
