package urlkit

import (
	"strings"
	"testing"
)

// hostCases are hosts at the edges of RFC 1738 5's host rule (hostname =
// *[ domainlabel "." ] toplabel, hostnumber = digits "." digits "."
// digits "." digits): labels that start or end with "-" or are empty, top
// labels that start with a digit, host numbers of three, four and five
// parts, bytes no host holds, and long hosts past the vector scan's 64
// bytes.
var hostCases = []string{
	"a", "a.b", "a-b.c", "a--b.c9", "9a.b", "a.9b", "a.b9", "-a", "a-", "a-.b", "a.-b", "a..b", ".a", "a.", "",
	"1.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.x", "x.1.2.3", "a_b", "a b", "A.B-C.d", "xn--bcher-kva.de",
	strings.Repeat("a", 70) + ".com", strings.Repeat("a.", 40) + "b", strings.Repeat("ab-", 30) + "c",
	strings.Repeat("a", 63) + "-", strings.Repeat("1.", 3) + strings.Repeat("9", 70),
}

// TestHostAccelerators holds the fast paths' host readers, the scalar one
// (fastHostPort) and the vector one (fastHost64, where it runs), to the
// one host rule, checkHost: an accelerator takes a host only when
// checkHost takes it, ends it where the host's bytes end, and takes every
// host name checkHost takes (a host number it may leave to the general
// parser). Issue 35: one definition of the host rule, the others
// accelerators checked against it.
func TestHostAccelerators(t *testing.T) {
	for _, h := range hostCases {
		for _, tail := range []string{"", "/", "/p", ":80/", "#f", "?q", "@x/"} {
			checkHostAccelerators(t, h, tail)
		}
	}
}

// FuzzHostAccelerators is TestHostAccelerators on any host and tail.
func FuzzHostAccelerators(f *testing.F) {
	for _, h := range hostCases {
		f.Add(h, "/")
	}
	f.Fuzz(checkHostAccelerators)
}

func checkHostAccelerators(t *testing.T, host, tail string) {
	const pre = "http://"
	s := pre + host + tail
	h := len(pre)
	span := hostSpan(s, h)
	off, _, _ := checkHost(s, h, span)
	valid := span > h && off < 0
	hostName := valid && strings.Trim(s[h:span], "0123456789.") != ""
	check := func(name string, hostEnd, end int) {
		if end < 0 {
			if hostName && (span == len(s) || s[span] == '/' || s[span] == '#' || s[span] == ':' && span+1 < len(s) && s[span+1] >= '0' && s[span+1] <= '9') {
				t.Errorf("%s(%q) leaves the host name %q to the general parser", name, s, s[h:span])
			}
			return
		}
		if !valid || hostEnd != span {
			t.Errorf("%s(%q) takes the host %q, which checkHost refuses (offset %d) or ends at %d", name, s, s[h:hostEnd], off, span)
		}
	}
	hostEnd, end, _ := fastHostPort(s, h, 0)
	check("fastHostPort", hostEnd, end)
	if simdAvailable {
		hostEnd, end, _, _ := fastHost64(s, h, 0)
		if hostEnd != hostLong {
			check("fastHost64", hostEnd, end)
		}
	}
}
