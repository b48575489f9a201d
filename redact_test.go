package urlkit

import "testing"

func TestRedacted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// RFC 1738 3.1: user:password@host.
		{"ftp://myname:secret@host.dom/etc/motd", "ftp://myname:xxxxx@host.dom/etc/motd"},
		{"ftp://myname:@host.dom/", "ftp://myname:xxxxx@host.dom/"},
		{"ftp://myname@host.dom/", "ftp://myname@host.dom/"},
		{"ftp://host.dom/a:b@c", "ftp://host.dom/a:b@c"},
		{"URL:ftp://u:p@h.com/", "ftp://u:xxxxx@h.com/"},
		{"//u:p@h.com/x", "//u:xxxxx@h.com/x"},
		{"mailto:a:b@c.com", "mailto:a:b@c.com"},
	} {
		u, err := ParseRef(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := u.Redacted(); got != c.want {
			t.Errorf("%q.Redacted() = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRedactedNoAlloc(t *testing.T) {
	u := MustParse("ftp://myname@host.dom/")
	if n := testing.AllocsPerRun(100, func() { _ = u.Redacted() }); n != 0 {
		t.Errorf("Redacted without a password allocates %v times", n)
	}
}

func TestRedactString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Parsable: same as Redacted, prefix kept.
		{"ftp://u:p@h.com/", "ftp://u:xxxxx@h.com/"},
		{"URL:ftp://u:p@h.com/", "URL:ftp://u:xxxxx@h.com/"},
		// Not parsable: a space, a "/" in the password, an IPv6 host.
		{"ftp://u:pa ss@h.com/", "ftp://u:pa ss@h.com/"}, // the word ends at the space: no "@" in "u:pa"
		{"ftp://u:p/ss@h.com/x", "ftp://u:xxxxx@h.com/x"},
		{"http://u:p?q@h.com/", "http://u:xxxxx@h.com/"},
		{"http://u:s3cret@[::1]:80/", "http://u:xxxxx@[::1]:80/"},
		{"http://u:p@h@evil.com/", "http://u:xxxxx@evil.com/"},
		{"http://h.com:80/a b@c", "http://h.com:80/a b@c"},
		{"http://h:80/a@b%zz", "http://h:xxxxx@b%zz"}, // errs on the side of masking
		// In a message, several URLs.
		{`Get "ftp://a:one@h/%zz": fails; see ftp://b:two@h2/%`, `Get "ftp://a:xxxxx@h/%zz": fails; see ftp://b:xxxxx@h2/%`},
		{"x//a:b@c", "x//a:b@c"},
		{"no login here %zz", "no login here %zz"},
		{"http://h/%zz@", "http://h/%zz@"},
		{"", ""},
	} {
		if got := RedactString(c.in); got != c.want {
			t.Errorf("RedactString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzRedactString: a masked text never contains the password of a URL
// that parses, and never panics.
func FuzzRedactString(f *testing.F) {
	for _, s := range []string{"ftp://u:p@h/", "http://u:p/q@h", "a //u:p@h b", "URL:ftp://u:p@h/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := RedactString(s)
		u, err := ParseRef(s)
		if err != nil {
			return
		}
		v, err := ParseRef(got)
		if err != nil {
			t.Fatalf("RedactString(%q) = %q, which does not parse: %v", s, got, err)
		}
		if _, ok := u.Password(); ok {
			if p, _ := v.Password(); p != RedactedPassword {
				t.Fatalf("RedactString(%q) = %q: password %q", s, got, p)
			}
		}
		if v.Host() != u.Host() || v.PathAndSearch() != u.PathAndSearch() || v.Scheme() != u.Scheme() {
			t.Fatalf("RedactString(%q) = %q changed more than the password", s, got)
		}
	})
}
