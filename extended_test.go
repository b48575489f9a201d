package urlkit

import (
	"errors"
	"strings"
	"testing"
)

// TestParseExtended holds what the extended syntax adds to RFC 1738's:
// the IP-literal of RFC 3986 3.2.2 (RFC 2732), with its accessors.
func TestParseExtended(t *testing.T) {
	for _, tt := range []struct {
		in, host, hostname, port string
		portN                    int
	}{
		{"http://[::1]/", "[::1]", "::1", "", 80},
		{"http://[::1]:8080/a?q#f", "[::1]", "::1", "8080", 8080},
		{"ftp://u:p@[2001:DB8::1]:21/f", "[2001:DB8::1]", "2001:db8::1", "21", 21},
		{"gopher://[::ffff:192.0.2.1]/1", "[::ffff:192.0.2.1]", "::ffff:192.0.2.1", "", 70},
		{"http://[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8]", "1:2:3:4:5:6:7:8", "", 80},
		{"URL:http://[::]/", "[::]", "::", "", 80},
	} {
		u, err := ParseExtended(tt.in)
		if err != nil {
			t.Errorf("ParseExtended(%q): %v", tt.in, err)
			continue
		}
		port, _ := u.RawPort()
		n, _ := u.Port()
		if u.Host() != tt.host || u.Hostname() != tt.hostname || port != tt.port || n != tt.portN || !u.HostIsIPv6() || !u.Extended() {
			t.Errorf("ParseExtended(%q): host %q hostname %q port %q/%d ipv6 %v extended %v", tt.in, u.Host(), u.Hostname(), port, n, u.HostIsIPv6(), u.Extended())
		}
		if want := strings.TrimPrefix(tt.in, "URL:"); u.String() != want {
			t.Errorf("ParseExtended(%q).String() = %q", tt.in, u)
		}
		// RFC 1738 has no IPv6: the strict parser refuses each at the "[".
		_, err = Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrBadHost) || se.Input[se.Offset] != '[' {
			t.Errorf("Parse(%q) = %v, want ErrBadHost at the \"[\"", tt.in, err)
		}
	}
	// A partial form: ParseRefExtended.
	if u, err := ParseRefExtended("//[::1]:70/x"); err != nil || u.Hostname() != "::1" || u.IsAbsolute() {
		t.Errorf("ParseRefExtended(//[::1]:70/x) = %v, %v", u, err)
	}
	// What Parse accepts, ParseExtended accepts with the same parts.
	for _, s := range []string{"http://a.b/c", "ftp://u@h:21/x;type=a", "mailto:a@b", "file:///etc/motd"} {
		u, err := ParseExtended(s)
		p := MustParse(s)
		want := p.Parts()
		want.Extended = true
		if err != nil || u.Parts() != want || p.Extended() || u.HostIsIPv6() {
			t.Errorf("%q: extended %v (%v), strict %v", s, u.Parts(), err, p.Parts())
		}
	}
}

// TestParseExtendedErrors holds what the extended syntax still refuses
// in a host, each at its offset and with its reason.
func TestParseExtendedErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		off  int
		want string // in the reason
	}{
		{"http://[fe80::1%25eth0]/", 15, "zone identifier"}, // RFC 6874: refused, as browsers do
		{"http://[fe80::1%eth0]/", 15, "zone identifier"},
		{"http://[v1.fe]/", 8, "IPvFuture"},
		{"http://[V7.x]/", 8, "IPvFuture"},
		{"http://[1.2.3.4]/", 8, "without brackets"},
		{"http://[::1/", 7, `without a closing "]"`},
		{"http://[::1]x/", 12, `only ":" and a port`},
		{"http://[:::1]/", 8, "not an IPv6 address"},
		{"http://[1:2:3:4:5:6:7:8:9]/", 8, "not an IPv6 address"},
		{"http://[]/", 8, "not an IPv6 address"},
		{"http://[::1]:/", 12, "no port"},
		{"http://[::1]:8o/", 14, "port"},
		{"http://a@[::1@x]/", 10, "not an IPv6 address"},
	} {
		_, err := ParseExtended(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || !strings.Contains(se.Reason(), tt.want) {
			t.Errorf("ParseExtended(%q) = %v, want offset %d and %q", tt.in, err, tt.off, tt.want)
		}
	}
}

// TestCanonicalIPv6 checks that Canonical writes an IPv6 literal as RFC
// 5952 section 4 says (the examples of sections 4.1 to 4.3, and section
// 5's IPv4-mapped form), and that Equal follows.
func TestCanonicalIPv6(t *testing.T) {
	for in, want := range map[string]string{
		"2001:db8:0:0:1:0:0:1":    "2001:db8::1:0:0:1",    // 4.2.3: the first of two equal runs
		"2001:0db8:0:0::1":        "2001:db8::1",          // 4.1: no leading zeros
		"2001:db8::0:1":           "2001:db8::1",          // 4.2.1: "::" as long as possible
		"2001:db8:0:1:1:1:1:1":    "2001:db8:0:1:1:1:1:1", // 4.2.2: not one 16-bit 0 field
		"2001:0:0:1:0:0:0:1":      "2001:0:0:1::1",        // 4.2.3: the longest run
		"2001:DB8::AB:1":          "2001:db8::ab:1",       // 4.3: lower case
		"0:0:0:0:0:ffff:c000:201": "::ffff:192.0.2.1",     // 5: IPv4-mapped, dotted
		"::1":                     "::1",
	} {
		u := mustExtended(t, "http://["+in+"]:80/a")
		c := Canonical(u)
		if c.String() != "http://["+want+"]/a" || !c.Extended() || !c.HostIsIPv6() {
			t.Errorf("Canonical(%q) = %q (extended %v), want http://[%s]/a", u, c, c.Extended(), want)
		}
		if !Equal(u, mustExtended(t, "HTTP://["+want+"]/a")) {
			t.Errorf("%q is not Equal to its RFC 5952 form", u)
		}
		if Canonical(c) != c {
			t.Errorf("Canonical is not idempotent on %q", c)
		}
	}
	if Equal(mustExtended(t, "http://[::1]/"), mustExtended(t, "http://[::2]/")) {
		t.Error("[::1] equals [::2]")
	}
	// A URL already canonical is returned as it is, without allocating.
	u := mustExtended(t, "http://[2001:db8::1]/a")
	if n := testing.AllocsPerRun(100, func() { Canonical(u) }); n != 0 {
		t.Errorf("Canonical of a canonical IPv6 URL allocates %v times", n)
	}
}

// TestResolveIPv6 checks that resolution keeps the extended syntax: the
// result of a base with an IPv6 host is a URL of it, in every mode.
func TestResolveIPv6(t *testing.T) {
	base := mustExtended(t, "http://[::1]:8080/a/b/c")
	for _, m := range Modes() {
		for ref, want := range map[string]string{
			"g":        "http://[::1]:8080/a/b/g",
			"/g":       "http://[::1]:8080/g",
			"//[::2]/": "http://[::2]/",
		} {
			r, err := ParseRefExtended(ref)
			if err != nil {
				t.Fatal(err)
			}
			u, err := Resolve(base, r, m)
			if err != nil || u.String() != want || !u.Extended() {
				t.Errorf("%s: resolve %q against %q = %q (extended %v), %v; want %q", m, ref, base, u, u.Extended(), err, want)
			}
		}
	}
	// ResolveStringWith reads both operands by the extended syntax.
	u, err := ResolveStringWith("http://[::1]/a/b/c", "../../../../g", ModeRFC3986, ParseRefExtended)
	if err != nil || u.String() != "http://[::1]/g" || u.Hostname() != "::1" {
		t.Errorf("ResolveStringWith = %q, %v", u, err)
	}
	// Relative goes back.
	rel, err := Relative(base, mustExtended(t, "http://[::1]:8080/a/x"), ModeRFC3986)
	if err != nil || rel.String() != "../x" {
		t.Errorf("Relative = %q, %v", rel, err)
	}
}

func mustExtended(t *testing.T, s string) URL {
	t.Helper()
	u, err := ParseExtended(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
