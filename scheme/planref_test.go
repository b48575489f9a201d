package scheme

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf"
)

// refFTPCommands is the FTP command sequence of RFC 1738 3.2.2 built the
// straightforward way, from the URL's text alone: the url-path read with
// the regular expression of ftpurl's fpath and ftptype made from RFC 1738
// 5's text (ftpPathByGrammar), each part decoded by urlkit.Unescape, a
// part that decodes to a control character refused (RFC 1738 6), the
// port bound checked on the digits as written. Nothing of ftp.go's path
// reading, decoding or checking is called; the type guessed for a name
// without ";type=" is GuessFTPType's, a policy of the plan with its own
// table test rather than a rule of the RFC. The host, port, type and
// whether there is a user and a password are the view's, which Plan
// follows (TestFTPPlanOfChangedView changes them); refFTPView checks an
// unchanged view's against the URL's text.
func refFTPCommands(tb testing.TB, v *FTP, cfg Config) (addr string, cmds, cwd []string, err error) {
	u := v.u
	if p, ok := u.RawPort(); ok {
		if n, e := strconv.Atoi(strings.TrimLeft(p, "0") + "0"); e != nil || n/10 > 65535 {
			return "", nil, nil, fmt.Errorf("port %s is above 65535", p)
		}
	}
	decode := func(raw string) (string, error) {
		d := decodeOracle(raw)
		if strings.IndexFunc(d, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return "", fmt.Errorf("%q decodes to a control character", raw)
		}
		return d, nil
	}
	user, pass := "", ""
	if s, ok := u.User(); ok {
		if user, err = decode(s); err != nil {
			return
		}
	}
	if s, ok := u.Password(); ok {
		if pass, err = decode(s); err != nil {
			return
		}
	}
	var segs []string
	if _, ok := u.Path(); ok {
		var ok bool
		segs, _, ok = ftpPathByGrammar(tb, u.PathAndSearch())
		if !ok {
			return "", nil, nil, errors.New("the url-path is not fpath [ \";type=\" ftptype ] (RFC 1738 5)")
		}
	}
	name := ""
	cwd = []string{}
	for i, s := range segs {
		d, e := decode(s)
		if e != nil {
			return "", nil, nil, e
		}
		if i == len(segs)-1 {
			name = d
		} else {
			cwd = append(cwd, d)
		}
	}
	typ := v.Type
	if typ == 0 {
		typ = GuessFTPType(name)
	}
	switch {
	case !v.HasUser:
		email := cfg.Email
		if email == "" {
			email = "anonymous@localhost"
		}
		cmds = append(cmds, "USER anonymous", "PASS "+email)
	case v.HasPassword:
		cmds = append(cmds, "USER "+user, "PASS "+pass)
	default:
		cmds = append(cmds, "USER "+user, "PASS <ask the user>")
	}
	for _, c := range cwd {
		cmds = append(cmds, "CWD "+c)
	}
	switch {
	case typ == 'd' && name == "":
		cmds = append(cmds, "EPSV", "NLST", "QUIT")
	case typ == 'd':
		cmds = append(cmds, "EPSV", "NLST "+name, "QUIT")
	default:
		cmds = append(cmds, "TYPE "+string(rune(typ&^0x20)), "EPSV", "RETR "+name, "QUIT")
	}
	return fmt.Sprintf("%s:%d", v.Host, v.Port), cmds, cwd, nil
}

// refFTPView checks what an ftp view read from its URL against the URL's
// text: the host as written, the port (21 when none, RFC 1738 3.2), a user
// and a password when the login has them, and the type code of ";type="
// by RFC 1738 5's rules.
func refFTPView(tb testing.TB, v *FTP) {
	tb.Helper()
	u := v.u
	port := 21
	if p, ok := u.RawPort(); ok {
		port, _ = strconv.Atoi(p)
	}
	_, hasUser := u.User()
	_, hasPass := u.Password()
	typ := byte(0)
	if _, ok := u.Path(); ok {
		_, typ, _ = ftpPathByGrammar(tb, u.PathAndSearch())
	}
	if v.Host != u.Host() || (port <= 65535 && v.Port != port) || v.HasUser != hasUser || v.HasPassword != hasPass || v.Type != typ {
		tb.Fatalf("%s: view host %q port %d user %v password %v type %q; the URL says %q %d %v %v %q", u, v.Host, v.Port, v.HasUser, v.HasPassword, v.Type, u.Host(), port, hasUser, hasPass, typ)
	}
}

// ftpPathRE is ftpurl's url-path, fpath [ ";type=" ftptype ], as a regular
// expression made from RFC 1738 5's text, with the path and the type code
// captured.
var ftpPathRE struct {
	once sync.Once
	re   *regexp.Regexp
	err  error
}

// ftpPathByGrammar reads an ftp url-path (the search part included:
// fsegment admits "?") by RFC 1738 5's rules: its segments, as written,
// and its type code in lower case (0 for none); ok is false when the
// rules refuse it. RFC 1738's text is required (the test is skipped
// without it, and fails under URLKIT_REQUIRE_CORPORA=1).
func ftpPathByGrammar(tb testing.TB, path string) (segs []string, typ byte, ok bool) {
	tb.Helper()
	ftpPathRE.once.Do(func() {
		g, err := rfcbnf.LoadURL(rfcbnf.SpecPath())
		if err != nil {
			ftpPathRE.err = err
			return
		}
		fpath, err := g.Regexp("fpath")
		if err != nil {
			ftpPathRE.err = err
			return
		}
		ftype, err := g.Regexp("ftptype")
		if err != nil {
			ftpPathRE.err = err
			return
		}
		inner := func(re *regexp.Regexp) string {
			return strings.TrimSuffix(strings.TrimPrefix(re.String(), "^"), "$")
		}
		ftpPathRE.re = regexp.MustCompile(`^(` + inner(fpath) + `)(?:;type=(` + inner(ftype) + `))?$`)
	})
	if ftpPathRE.err != nil {
		msg := "the ftp reference needs RFC 1738's text (" + rfcbnf.SpecPath() + "): " + ftpPathRE.err.Error()
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	m := ftpPathRE.re.FindStringSubmatch(path)
	if m == nil {
		return nil, 0, false
	}
	if m[2] != "" {
		typ = m[2][0] | 0x20
	}
	return strings.Split(m[1], "/"), typ, true
}

// TestFTPPlanMatchesReference compares Plan with refFTPCommands over logins,
// ports, paths of 0 to 12 segments, escapes (control characters in an
// argument, and in the fragment, which is not sent) and every type code.
func TestFTPPlanMatchesReference(t *testing.T) {
	n := 0
	for _, login := range []string{"", "@", "u@", "u:@", "u:p@", "my%20name:se%3Acret@", "u:%0D@"} {
		for _, hp := range []string{"h.dom", "h.dom:2121", "h.dom:021", "h.dom:65535", "h.dom:65536"} {
			for segs := 0; segs <= 12; segs++ {
				for _, typ := range []string{"", ";type=a", ";type=I", ";type=d", ";type=d#%0A"} {
					for _, last := range []string{"", "file.txt", "Image.GIF", "a%20b", "a%0Ab"} {
						path := ""
						for i := 0; i < segs; i++ {
							path += fmt.Sprintf("d%d%%2F/", i)
						}
						if segs == 2 {
							path += "x%00/" // a control character in a CWD argument
						}
						s := "ftp://" + login + hp + "/" + path + last + typ
						u, err := urlkit.Parse(s)
						if err != nil {
							continue
						}
						view, err := ViewOf(u)
						if err != nil {
							t.Fatalf("%s: %v", s, err)
						}
						v := view.(*FTP)
						refFTPView(t, v)
						for _, cfg := range []Config{{}, {Email: "me@my.dom"}} {
							n++
							plan, err := v.Plan(cfg)
							addr, cmds, cwd, refErr := refFTPCommands(t, v, cfg)
							if (err == nil) != (refErr == nil) {
								t.Fatalf("%s: Plan error %v, reference %v", s, err, refErr)
							}
							if err != nil {
								continue
							}
							p := plan.(*FTPPlan)
							if p.Addr != addr || !slices.Equal(ftpLines(p), cmds) || !slices.Equal(ftpArgs(p, FTPCwd), cwd) {
								t.Fatalf("%s: plan %q %q %q\nreference %q %q %q", s, p.Addr, ftpLines(p), ftpArgs(p, FTPCwd), addr, cmds, cwd)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d plans compared", n)
}

// TestFTPPathSuffix checks ftpPath, which looks for the ";type=" suffix
// at the end of the path first and searches only a path with a ";",
// against ftpPathByGrammar, RFC 1738 5's fpath [ ";type=" ftptype ] read
// from the RFC's text, on type suffixes valid, invalid and misplaced,
// reserved bytes and escapes: the same verdict, segments and type code.
func TestFTPPathSuffix(t *testing.T) {
	for _, seg := range []string{"", "a", "a%3Bb", "a;b", "a?b", "%2F", "a=b&c:d@e"} {
		for _, suffix := range []string{"", ";type=a", ";type=I", ";type=d", ";type=D", ";type=x", ";type=", ";type=ai",
			";type=AN", ";type=i/x", ";type=a;type=i", ";type=i;", ";tyPe=i", ";x", "/", "/;type=i", "?q;type=i"} {
			for _, path := range []string{seg + suffix, "d/" + seg + suffix, seg + "/" + seg + suffix} {
				u, err := urlkit.Parse("ftp://h.dom/" + path)
				if err != nil {
					continue
				}
				p, typ, err := ftpPath(u)
				segs, wantTyp, ok := ftpPathByGrammar(t, u.PathAndSearch())
				if (err == nil) != ok {
					t.Errorf("%s: ftpPath %v, RFC 1738 5's rules say %v", u, err, ok)
					continue
				}
				if ok && (p.raw != strings.Join(segs, "/") || typ != wantTyp) {
					t.Errorf("%s: ftpPath %q %q, by RFC 1738 5's rules %q %q", u, p.raw, typ, strings.Join(segs, "/"), wantTyp)
				}
			}
		}
	}
}

// TestGopherPlanMatchesReference compares the gopher request line with
// the straightforward concatenation of the decoded parts.
func TestGopherPlanMatchesReference(t *testing.T) {
	for _, s := range []string{
		"gopher://h.dom", "gopher://h.dom/", "gopher://h.dom:7070/1", "gopher://h.dom/0/a%20b",
		"gopher://h.dom/7/search/engine%09query%20words", "gopher://h.dom/7/s%09q%09%2B",
		"gopher://h.dom/1/d%09%09%24",
		"gopher://h.dom/%3F/x", "gopher://h.dom/0/x%0Dy",
		"gopher://h.dom/0/a%20b#%0D", // a control escape in the fragment, which is not sent
	} {
		u, err := urlkit.Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		view, err := ViewOf(u)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		v := view.(*Gopher)
		plan, err := v.Plan(Config{})
		l := locOf(u)
		_, fields, _ := gopherParts(u)
		sel, refErr := fields[0].wire(l, "gopher selector")
		if err != nil || refErr != nil {
			if (err == nil) != (refErr == nil) {
				t.Errorf("%s: Plan error %v, selector error %v", s, err, refErr)
			}
			continue
		}
		line := sel
		search := ""
		if v.HasSearch {
			search, _ = fields[1].wire(l, "gopher search")
			line += "\t" + search
		}
		if v.HasPlus {
			line += "\t" + v.PlusString
		}
		if !(v.HasPlus && v.Plus.Kind == PlusForm) {
			line += "\r\n"
		}
		p := plan.(*GopherPlan)
		if p.Line() != line || p.Selector != sel || p.Search != search || p.Addr != fmt.Sprintf("%s:%d", v.Host, v.Port) {
			t.Errorf("%s: plan %q %q %q %q, reference %q %q %q", s, p.Addr, p.Selector, p.Search, p.Line(), sel, search, line)
		}
	}
}

// TestGopherPlanOfChangedView checks that a plan follows the view it is
// made from: a copy of a view whose fields are changed, one at a time, has
// the plan of its fields, not the text its URL decoded to.
func TestGopherPlanOfChangedView(t *testing.T) {
	for _, s := range []string{benchGopher, "gopher://h.dom:7070/0a%20b", "gopher://h.dom/0s%09%09+%091%0D%0A+-1%0D%0Ared%0D%0A.%0D%0A",
		"gopher://h.dom/0s%20a%09q%20b%09!+A%20+B", "gopher://h.dom/1x"} {
		view, err := ViewOf(urlkit.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		v := view.(*Gopher)
		for i, change := range []func(c *Gopher){
			func(*Gopher) {},
			func(c *Gopher) { c.Host = "other.dom" },
			func(c *Gopher) { c.Host = "h.d" }, // a prefix of the old host
			func(c *Gopher) { c.Port++ },
			func(c *Gopher) { c.Selector += "x" },
			func(c *Gopher) { c.Selector = strings.ToUpper(c.Selector) },
			func(c *Gopher) { c.Search = "changed" },
			func(c *Gopher) { c.HasSearch = !c.HasSearch },
			func(c *Gopher) { c.PlusString = "+" },
			func(c *Gopher) { c.HasPlus, c.Plus = false, nil },
		} {
			c := *v
			change(&c)
			plan, err := c.Plan(Config{})
			if err != nil {
				t.Fatalf("%s, change %d: %v", s, i, err)
			}
			line := c.Selector
			if c.HasSearch {
				line += "\t" + c.Search
			}
			if c.HasPlus {
				line += "\t" + c.PlusString
			}
			if !(c.HasPlus && c.Plus.Kind == PlusForm) {
				line += "\r\n"
			}
			search := ""
			if c.HasSearch {
				search = c.Search
			}
			p := plan.(*GopherPlan)
			if p.Addr != fmt.Sprintf("%s:%d", c.Host, c.Port) || p.Line() != line || p.Selector != c.Selector || p.Search != search {
				t.Errorf("%s, change %d: plan %q %q %q %q, want %q %q %q", s, i, p.Addr, p.Selector, p.Search, p.Line(), c.Selector, search, line)
			}
		}
	}
}

// TestGopherSplit checks gopherSplit's fields against splitEscape's on
// gopher-paths with zero to four %09, empty fields and escapes that only
// look like one.
func TestGopherSplit(t *testing.T) {
	for _, raw := range []string{"", "1", "%3F", "0sel", "7s%09q", "7%09", "7%09%09", "0s%09q%09+%091%0D%0A", "0a%09b%09c%09d%09e",
		"0%%09x", "0%0%09", "0%0", "0%090%09", "%09%09x"} {
		typ, fields, n := gopherSplit(part{raw, 5, urlkit.ComponentPath})
		if raw == "" {
			if typ.raw != "" || n != 1 || fields[0] != (part{"", 5, urlkit.ComponentPath}) {
				t.Errorf("gopherSplit(%q) = %v %v %d", raw, typ, fields, n)
			}
			continue
		}
		t1 := 1
		if raw[0] == '%' {
			t1 = 3
		}
		want := part{raw[t1:], 5 + t1, urlkit.ComponentPath}.splitEscape("%09", 2)
		if typ != (part{raw[:t1], 5, urlkit.ComponentPath}) || n != len(want) || !slices.Equal(fields[:n], want) {
			t.Errorf("gopherSplit(%q) = %v %v %d, want %v", raw, typ, fields[:n], n, want)
		}
	}
}

// TestFTPPlanOfChangedView checks that a plan follows the view it is made
// from: a copy of a view whose type, login flags or address are changed
// has the plan refFTPCommands makes of it.
func TestFTPPlanOfChangedView(t *testing.T) {
	for _, s := range []string{benchFTP, "ftp://u@h.dom/a/f", "ftp://h.dom/a/b/f.txt", "ftp://h.dom/d/;type=d"} {
		view, err := ViewOf(urlkit.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		v := view.(*FTP)
		for i, change := range []func(c *FTP){
			func(*FTP) {},
			func(c *FTP) { c.Type = 'e' },
			func(c *FTP) { c.Type = 'A' },
			func(c *FTP) { c.Type = 'i' },
			func(c *FTP) { c.Type = 0 },
			func(c *FTP) { c.HasUser = false },
			func(c *FTP) { c.HasPassword = false },
			func(c *FTP) { c.Host, c.Port = "other.dom", 99 },
		} {
			c := *v
			change(&c)
			for _, cfg := range []Config{{}, {Email: "me@my.dom"}} {
				plan, err := c.Plan(cfg)
				addr, cmds, cwd, refErr := refFTPCommands(t, &c, cfg)
				if err != nil || refErr != nil {
					t.Fatalf("%s, change %d: %v, reference %v", s, i, err, refErr)
				}
				if p := plan.(*FTPPlan); p.Addr != addr || !slices.Equal(ftpLines(p), cmds) || !slices.Equal(ftpArgs(p, FTPCwd), cwd) {
					t.Errorf("%s, change %d: plan %q %q %q\nreference %q %q %q", s, i, p.Addr, ftpLines(p), ftpArgs(p, FTPCwd), addr, cmds, cwd)
				}
			}
		}
	}
}

// TestPlanLongText checks plans whose text outgrows the stack buffer it is
// put together in (256 bytes) against the references.
func TestPlanLongText(t *testing.T) {
	long := strings.Repeat("x", 100)
	u := urlkit.MustParse("ftp://" + long + ":" + long + "@" + long + ".dom/" + long + "/" + long + "/" + long + ";type=i")
	v, err := ViewOf(u)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := v.Plan(Config{})
	addr, cmds, cwd, refErr := refFTPCommands(t, v.(*FTP), Config{})
	if err != nil || refErr != nil {
		t.Fatalf("%s: %v, reference %v", u, err, refErr)
	}
	if p := plan.(*FTPPlan); p.Addr != addr || !slices.Equal(ftpLines(p), cmds) || !slices.Equal(ftpArgs(p, FTPCwd), cwd) {
		t.Errorf("%s: plan %q %q %q\nreference %q %q %q", u, p.Addr, ftpLines(p), ftpArgs(p, FTPCwd), addr, cmds, cwd)
	}
	g, err := PlanOf(urlkit.MustParse("gopher://"+long+".dom/0"+long+long+"%09"+long), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if p := g.(*GopherPlan); p.Addr != long+".dom:70" || p.Line() != long+long+"\t"+long+"\r\n" || p.Selector != long+long || p.Search != long {
		t.Errorf("long gopher plan %q %q %q %q", p.Addr, p.Selector, p.Search, p.Line())
	}
}

// TestPlanPortDigits checks the port bound of the ftp and gopher plans,
// which look at the number only from five digits on: a port with leading
// zeros is its number, one above 65535 is refused.
func TestPlanPortDigits(t *testing.T) {
	for _, tc := range []struct {
		port string
		want int // -1: ErrPortRange
	}{{"1", 1}, {"0070", 70}, {"9999", 9999}, {"65535", 65535}, {"065535", 65535}, {"0000000000021", 21},
		{"65536", -1}, {"0065536", -1}, {"99999", -1}, {"12345678901234567890", -1}} {
		for _, s := range []string{"ftp://h.dom:" + tc.port + "/f", "gopher://h.dom:" + tc.port + "/0x"} {
			p, err := PlanOf(urlkit.MustParse(s), Config{})
			if tc.want < 0 {
				if !errors.Is(err, ErrPortRange) {
					t.Errorf("%s: plan error %v, want ErrPortRange", s, err)
				}
				continue
			}
			addr := ""
			switch p := p.(type) {
			case *FTPPlan:
				addr = p.Addr
			case *GopherPlan:
				addr = p.Addr
			}
			if want := fmt.Sprintf("h.dom:%d", tc.want); err != nil || addr != want {
				t.Errorf("%s: plan address %q, error %v; want %q", s, addr, err, want)
			}
		}
	}
}

// TestPlanAllocs holds the plans to their allocation budgets (after the
// first plan of a view, which takes the room the view's allocation keeps
// for it): the plan, and the address unless the URL writes it (an explicit
// port) or the view's decoded text holds it (a gopher URL with escapes);
// the commands need no text, and a long path's commands a slice.
func TestPlanAllocs(t *testing.T) {
	for _, tc := range []struct {
		url string
		max float64
	}{
		{benchFTP, 1},
		{"ftp://h.dom/a/b/c/d/e/f/g/h;type=i", 3}, // more CWDs than the plan has room for
		{benchGopher, 1},
		{"gopher://h.dom/0s%09%09+%091%0D%0A+-1%0D%0Ared%0D%0A.%0D%0A", 1}, // a form
		{"gopher://h.dom/0sel", 2},
		{"gopher://h.dom:7070/0sel", 1},
	} {
		v, err := ViewOf(urlkit.MustParse(tc.url))
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { v.Plan(Config{}) }); n > tc.max {
			t.Errorf("%s: Plan makes %v allocations, budget %v", tc.url, n, tc.max)
		}
	}
}

// FuzzFTPPlanReference checks Plan against refFTPCommands on any login and
// path the parser accepts.
func FuzzFTPPlanReference(f *testing.F) {
	f.Add("a/b/c;type=i", "u", "p")
	f.Add("%2Fetc/motd", "", "")
	f.Add("d/;type=d", "a%3Ab", "")
	f.Fuzz(func(t *testing.T, path, user, pass string) {
		login := ""
		switch {
		case user != "" && pass != "":
			login = user + ":" + pass + "@"
		case user != "":
			login = user + "@"
		}
		u, err := urlkit.Parse("ftp://" + login + "h.dom/" + path)
		if err != nil {
			return
		}
		view, err := ViewOf(u)
		if err != nil {
			return
		}
		v := view.(*FTP)
		refFTPView(t, v)
		plan, err := v.Plan(Config{Email: "a@b"})
		addr, cmds, cwd, refErr := refFTPCommands(t, v, Config{Email: "a@b"})
		if (err == nil) != (refErr == nil) {
			t.Fatalf("%s: Plan error %v, reference %v", u, err, refErr)
		}
		if err != nil {
			return
		}
		p := plan.(*FTPPlan)
		if p.Addr != addr || !slices.Equal(ftpLines(p), cmds) || !slices.Equal(ftpArgs(p, FTPCwd), cwd) {
			t.Fatalf("%s: plan %q %q %q\nreference %q %q %q", u, p.Addr, ftpLines(p), ftpArgs(p, FTPCwd), addr, cmds, cwd)
		}
	})
}

// decodeOracle is what part.decode must return: urlkit.Unescape's result,
// or the raw text when it fails.
func decodeOracle(raw string) string {
	s, err := urlkit.Unescape(raw)
	if err != nil {
		return raw
	}
	return s
}

// TestDecode checks part.decode and appendDecoded against urlkit.Unescape:
// valid escapes in either case, invalid and cut-off ones, and parts longer
// than decode's stack buffer.
func TestDecode(t *testing.T) {
	long := strings.Repeat("ab%20", 60)
	for _, raw := range []string{"", "a", "%41", "a%2fb%2F", "%", "%4", "a%", "%%41", "%4g", "%0D%0A", "x%C3%A9y", "a+b",
		long, long + "%", long + "%zz", "%20" + long} {
		want := decodeOracle(raw)
		if got := (part{raw: raw}).decode(); got != want {
			t.Errorf("decode(%q) = %q, want %q", raw, got, want)
		}
		if got := string((part{raw: raw}).appendDecoded([]byte("pre"))); got != "pre"+want {
			t.Errorf("appendDecoded(%q) = %q, want %q", raw, got, "pre"+want)
		}
	}
}

// FuzzDecode checks part.decode against urlkit.Unescape on any text.
func FuzzDecode(f *testing.F) {
	f.Add("a%20b")
	f.Add("%zz%41")
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := (part{raw: raw}).decode(), decodeOracle(raw); got != want {
			t.Fatalf("decode(%q) = %q, want %q", raw, got, want)
		}
	})
}
