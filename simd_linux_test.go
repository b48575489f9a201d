package urlkit

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestFastPathGuardPage places URLs at the end of a page followed by a
// page that may not be read: a scan that reads past the page of a
// string's last byte crashes the test.
func TestFastPathGuardPage(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	urls := []string{
		"http://www.example.com/a/b", "https://www.sec.gov/edgar.shtml", "http://h.dom/%41%42?q#f",
		"ftp://ftp.host.dom:2121/pub/gnu/emacs/emacs-19.28.tar.gz;type=i", "http://a-.b/", "file:///etc/motd",
		"https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.com/x", "http://x.y/~user/", "http://x.y",
	}
	for _, u := range urls {
		for l := 1; l <= len(u); l++ {
			s := u[:l]
			copy(mem[page-l:page], s)
			compareParsers(t, unsafe.String(&mem[page-l], l))
		}
	}
}
