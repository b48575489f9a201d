package scheme

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemes"
)

func TestHTTPRFC1630Examples(t *testing.T) {
	tests := []struct {
		cite, in, addr, uri string
	}{
		// RFC 1630, HTTP, EXAMPLES: the welcome page, typical paths, another port,
		// a fragment (not sent), searches.
		{"RFC 1630 HTTP welcome", "http://www.my.work.com/", "www.my.work.com:80", "/"},
		{"RFC 1630 HTTP typical", "http://www.my.uni.edu/info/matriculation/enroling.html", "www.my.uni.edu:80", "/info/matriculation/enroling.html"},
		{"RFC 1630 HTTP typical", "http://info.my.org/AboutUs/Phonebook", "info.my.org:80", "/AboutUs/Phonebook"},
		{"RFC 1630 HTTP typical", "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", "www.library.my.town.va.us:80", "/Catalogue/76523471236%2Fwen44--4.98"},
		{"RFC 1630 HTTP typical", "http://www.my.org/462F4F2D4241522A314159265358979323846", "www.my.org:80", "/462F4F2D4241522A314159265358979323846"},
		{"RFC 1630 HTTP port", "http://info.cern.ch:8000/imaginary/test", "info.cern.ch:8000", "/imaginary/test"},
		{"RFC 1630 HTTP fragment not sent", "http://www.myu.edu/org/admin/people#andy", "www.myu.edu:80", "/org/admin/people"},
		{"RFC 1630 HTTP search", "http://info.my.org/AboutUs/Index/Phonebook?dobbins", "info.my.org:80", "/AboutUs/Index/Phonebook?dobbins"},
		// RFC 1738 3.3: with neither path nor search, the "/" may be omitted.
		{"RFC 1738 3.3 no path", "http://h.dom", "h.dom:80", "/"},
	}
	for _, tt := range tests {
		p := mustPlan(t, tt.in, Config{}).(*HTTPPlan)
		if p.Addr != tt.addr || p.RequestURI != tt.uri || p.RequestLine() != "GET "+tt.uri+" HTTP/1.0" {
			t.Errorf("%s %s: addr %q uri %q line %q", tt.cite, tt.in, p.Addr, p.RequestURI, p.RequestLine())
		}
		// RFC 1630: through a proxy the entire URI is passed, without the fragment.
		whole := urlkit.MustParse(tt.in).WithoutFragment().String()
		if p.ProxyRequestLine != "GET "+whole+" HTTP/1.0" {
			t.Errorf("%s: proxy line %q", tt.in, p.ProxyRequestLine)
		}
	}
	// RFC 1630's last HTTP example, http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins,
	// holds "%%3D", which is not an escape: the core parser rejects it.
	if _, err := Parse("http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins"); !errors.Is(err, urlkit.ErrBadEscape) {
		t.Errorf("RFC 1630 %%%%3D example: got %v, want ErrBadEscape", err)
	}
}

func TestHTTPErrors(t *testing.T) {
	// RFC 1738 3.3: "No user name or password is allowed."
	_, err := Parse("http://joe:pw@h.dom/")
	wantOffset(t, "http://joe:pw@h.dom/", err, ErrNotAllowed, 7)
	// RFC 1738 5: search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]: no "/".
	_, err = Parse("http://h.dom/p?a/b")
	wantOffset(t, "http://h.dom/p?a/b", err, urlkit.ErrReservedChar, 16)
	v := mustView(t, "https://h.dom/").(*HTTP)
	if v.Port != 443 {
		t.Errorf("https default port %d", v.Port)
	}
}

func TestMailto(t *testing.T) {
	// RFC 1738 3.5 and RFC 1630 Mailto: "%" is written %25.
	v := mustView(t, "mailto:user%25gateway@relay.dom").(*Mailto)
	if v.Address != "user%gateway@relay.dom" {
		t.Errorf("address %q", v.Address)
	}
	// RFC 1738 3.5: within mailto URLs there are no reserved characters, so
	// "?subject=x" is part of the addr-spec (its domain), not RFC 2368's headers.
	if v := mustView(t, "mailto:a@b.dom?subject=x").(*Mailto); v.Address != "a@b.dom?subject=x" {
		t.Errorf("address %q", v.Address)
	}
	p := mustPlan(t, "mailto:a.b@c.dom", Config{}).(*MailPlan)
	if p.To != "a.b@c.dom" {
		t.Errorf("to %q", p.To)
	}
	for _, tt := range []struct {
		in  string
		err error
		off int
	}{
		{"mailto:no-at-sign", ErrBadAddress, 7},
		{"mailto:", ErrMissing, 7},
		{"mailto:Joe%20%3Ca@b.dom%3E", ErrBadAddress, 7},
		{"mailto:a%0D%0ABcc:x@b.dom", ErrControl, 8},
	} {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
}

func TestNews(t *testing.T) {
	cfg := Config{NewsServer: "news.my.dom"}
	// RFC 1738 3.6: news:*, a group like comp.infosystems.www.misc, and a message-id.
	p := mustPlan(t, "news:*", cfg).(*NNTPPlan)
	if !p.ListGroups || !reflect.DeepEqual(nntpLines(p), []string{"MODE READER", "LIST", "QUIT"}) || p.Addr != "news.my.dom:119" {
		t.Errorf("news:* plan %+v", p)
	}
	p = mustPlan(t, "news:comp.infosystems.www.misc", cfg).(*NNTPPlan)
	if p.Group != "comp.infosystems.www.misc" || !reflect.DeepEqual(nntpLines(p), []string{"MODE READER", "GROUP comp.infosystems.www.misc", "OVER 1-", "QUIT"}) {
		t.Errorf("group plan %+v", p)
	}
	// RFC 1630 News: "ARTICLE by message-id", with the <> of RFC 1036 restored.
	p = mustPlan(t, "news:12345@host.my.dom", cfg).(*NNTPPlan)
	if p.MessageID != "<12345@host.my.dom>" || !reflect.DeepEqual(nntpLines(p), []string{"MODE READER", "ARTICLE <12345@host.my.dom>", "QUIT"}) {
		t.Errorf("article plan %+v", p)
	}
	// No configured server: the plan says so.
	if p := mustPlan(t, "news:comp.lang.go", Config{}).(*NNTPPlan); p.Addr != "" {
		t.Errorf("addr %q without a news server", p.Addr)
	}
	for _, tt := range []struct {
		in  string
		err error
		off int
	}{
		{"news:1comp", ErrBadGroup, 5},
		{"news:comp/lang", ErrBadGroup, 9},
		{"news:@host.dom", ErrBadArticle, 5},
		{"news:a@-bad.dom", ErrBadArticle, 7},
	} {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
	_, err := mustView(t, "news:a%0Db@h.dom").Plan(cfg)
	wantOffset(t, "news:a%0Db@h.dom", err, ErrControl, 6)
}

func TestNNTP(t *testing.T) {
	// RFC 1738 3.7: nntp://<host>:<port>/<newsgroup-name>/<article-number>, port 119.
	p := mustPlan(t, "nntp://news.com/comp.lang.perl/42", Config{}).(*NNTPPlan)
	if p.Addr != "news.com:119" || p.Group != "comp.lang.perl" || p.Article != "42" ||
		!reflect.DeepEqual(nntpLines(p), []string{"MODE READER", "GROUP comp.lang.perl", "ARTICLE 42", "QUIT"}) {
		t.Errorf("plan %+v", p)
	}
	// RFC 1738 5: the article number is optional.
	p = mustPlan(t, "nntp://news.com:8119/alt.test", Config{}).(*NNTPPlan)
	if p.Addr != "news.com:8119" || !reflect.DeepEqual(nntpLines(p), []string{"MODE READER", "GROUP alt.test", "OVER 1-", "QUIT"}) {
		t.Errorf("plan %+v", p)
	}
	for _, tt := range []struct {
		in  string
		err error
		off int
	}{
		{"nntp://news.com/alt.test/4x2", ErrBadArticle, 26},
		{"nntp://news.com/alt.test/", ErrBadArticle, 25},
		{"nntp://news.com/alt.test/1/2", ErrBadPath, 26},
		{"nntp://news.com", ErrMissing, 15},
		{"nntp://u@news.com/a", ErrNotAllowed, 7},
	} {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
}

func TestTelnet(t *testing.T) {
	// RFC 1738 3.8: telnet://<user>:<password>@<host>:<port>/, final "/" optional, port 23.
	for _, in := range []string{"telnet://usr:pswd@web.dom:12345/", "telnet://usr:pswd@web.dom:12345"} {
		s := mustPlan(t, in, Config{}).(*Session)
		want := &Session{Program: "telnet", Host: "web.dom", Port: 12345, User: "usr", Password: "pswd", HasUser: true, HasPassword: true}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("%s: %+v", in, s)
		}
	}
	// RFC 1630: rlogin and tn3270.
	s := mustPlan(t, "rlogin://aas@a.sn.no", Config{}).(*Session)
	if s.Program != "rlogin" || s.User != "aas" || s.Port != 513 {
		t.Errorf("rlogin %+v", s)
	}
	s = mustPlan(t, "tn3270://ibm.host.dom", Config{}).(*Session)
	if s.Program != "tn3270" || s.Port != 23 || s.HasUser {
		t.Errorf("tn3270 %+v", s)
	}
	_, err := Parse("telnet://h.dom/x")
	wantOffset(t, "telnet://h.dom/x", err, ErrBadPath, 15)
	_, err = mustView(t, "rlogin://a%0A@h.dom").Plan(Config{})
	wantOffset(t, "rlogin://a%0A@h.dom", err, ErrControl, 10)
}

func TestWAIS(t *testing.T) {
	// RFC 1738 3.9: the three forms, port 210.
	v := mustView(t, "wais://wais.ceic.com/base").(*WAIS)
	if v.Form != WAISDatabase || v.Database != "base" || v.Port != 210 {
		t.Errorf("database form %+v", v)
	}
	// RFC 1630 references: <wais://quake.think.com/wais-discussion-archives?lynch>.
	v = mustView(t, "wais://quake.think.com/wais-discussion-archives?lynch").(*WAIS)
	if v.Form != WAISSearch || v.Database != "wais-discussion-archives" || v.Search != "lynch" {
		t.Errorf("search form %+v", v)
	}
	// RFC 1738 5: wpath = *uchar, so the "=" and ";" of RFC 1630's
	// document-id fields are encoded.
	v = mustView(t, "wais://h.dom:2100/db/TEXT/0%3Dabc%3B1%3Dx%3B").(*WAIS)
	if v.Form != WAISDocument || v.WType != "TEXT" || v.WPath != "0=abc;1=x;" || v.Port != 2100 {
		t.Errorf("document form %+v", v)
	}
	// RFC 1630 WAIS: "For each field, the identifier field number is the digits
	// before the equals sign, and the field contents follow, encoded in the
	// conventional encoding, terminated by ";"." Read from the decoded
	// document-id, as information.
	if want := []WAISField{{"0", "abc"}, {"1", "x"}}; !reflect.DeepEqual(v.DocIDFields, want) {
		t.Errorf("RFC 1630 WAIS wpath fields %+v", v.DocIDFields)
	}
	if v = mustView(t, "wais://h.dom/db/TEXT/opaque%3D").(*WAIS); v.WPath != "opaque=" || v.DocIDFields != nil {
		t.Errorf("opaque document-id %+v", v)
	}
	p := mustPlan(t, "wais://h.dom/db?two+words", Config{}).(*WAISPlan)
	if len(p.Messages) != 2 || p.Messages[1] != (WAISSearchAPDU{Database: "db", SeedWords: "two words", MaxDocuments: WAISMaxDocuments}) {
		t.Errorf("messages %#v", p.Messages)
	}
	for _, tt := range []struct {
		in  string
		err error
		off int
	}{
		{"wais://h.dom/a/b", ErrBadPath, 14},
		{"wais://h.dom//a/b/c", ErrBadPath, 13},
		{"wais://h.dom/a/b/c?q", ErrNotAllowed, 18},
		{"wais://h.dom/a;b", urlkit.ErrReservedChar, 14},
		{"wais://h.dom", ErrMissing, 12},
		// RFC 1738 5: wpath = *uchar; RFC 1630's literal "=" and ";" in a
		// document-id are refused (RFC 1738, the later standard, decides).
		{"wais://h/db/t/a=b", urlkit.ErrReservedChar, 15},
		{"wais://h/db/t/a;b", urlkit.ErrReservedChar, 15},
		{"wais://h.dom/db/TEXT/0=abc%3B;1=x;", urlkit.ErrReservedChar, 22},
		{"wais://h/db/t=x/a", urlkit.ErrReservedChar, 13},
	} {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
}

func TestFile(t *testing.T) {
	// RFC 1738 3.10: the VMS example names another host.
	v := mustView(t, "file://vms.host.edu/disk$user/my/notes/note12345.txt").(*File)
	if v.Local || !reflect.DeepEqual(v.Segments, []string{"disk$user", "my", "notes", "note12345.txt"}) {
		t.Errorf("VMS example %+v", v)
	}
	_, err := v.Plan(Config{})
	wantOffset(t, "file://vms.host.edu/...", err, ErrNotLocal, 7)
	// RFC 1738 3.10: "localhost" or the empty string is this machine.
	for _, in := range []string{"file:///etc/motd", "file://localhost/etc/motd", "file://LocalHost/etc/motd"} {
		v := mustView(t, in).(*File)
		got, err := v.localPath("linux")
		if err != nil || got != "/etc/motd" {
			t.Errorf("%s: %q %v", in, got, err)
		}
	}
	v = mustView(t, "file:///C:/Program%20Files/x.txt").(*File)
	if got, err := v.localPath("windows"); err != nil || got != `C:\Program Files\x.txt` {
		t.Errorf("windows: %q %v", got, err)
	}
	v = mustView(t, "file:///C%7C/x.txt").(*File)
	if got, err := v.localPath("windows"); err != nil || got != `C:\x.txt` {
		t.Errorf("windows C|: %q %v", got, err)
	}
	v = mustView(t, "file:///a%2Fb/c").(*File)
	_, err = v.localPath("linux")
	wantOffset(t, "file:///a%2Fb/c", err, ErrBadPath, 9)
	v = mustView(t, "file:///a%00b").(*File)
	_, err = v.localPath("linux")
	wantOffset(t, "file:///a%00b", err, ErrControl, 9)
	_, err = Parse("file://h.dom")
	wantOffset(t, "file://h.dom", err, ErrMissing, 12)
	_, err = Parse("file:///a;b")
	wantOffset(t, "file:///a;b", err, urlkit.ErrReservedChar, 9)
}

func TestFileRoundTrip(t *testing.T) {
	for _, tt := range []struct{ goos, path, url string }{
		{"linux", "/etc/motd", "file:///etc/motd"},
		{"linux", "/tmp/a b/100%", "file:///tmp/a%20b/100%25"},
		{"linux", "/", "file:///"},
		{"windows", `C:\Users\x y.txt`, "file:///C:/Users/x%20y.txt"},
	} {
		u, err := fromLocalPath(tt.path, tt.goos)
		if err != nil || u.String() != tt.url {
			t.Errorf("fromLocalPath(%q, %s) = %q, %v; want %q", tt.path, tt.goos, u.String(), err, tt.url)
			continue
		}
		v, err := FileOf(u)
		if err != nil {
			t.Fatal(err)
		}
		back, err := v.localPath(tt.goos)
		if err != nil || back != tt.path {
			t.Errorf("round trip %q -> %q -> %q, %v", tt.path, tt.url, back, err)
		}
	}
	if _, err := fromLocalPath("rel/x", "linux"); !errors.Is(err, ErrRelativePath) {
		t.Errorf("relative path: %v", err)
	}
}

func TestProspero(t *testing.T) {
	// RFC 1738 3.11: <URL:prospero://host.dom//pros/name> designates the hsoname "/pros/name".
	v := mustView(t, "prospero://host.dom//pros/name").(*Prospero)
	if v.HSOName != "/pros/name" || v.Port != 1525 {
		t.Errorf("RFC 1738 3.11 example %+v", v)
	}
	// RFC 1738 3.11: ";field=value" pairs, e.g. OBJECT-VERSION.
	v = mustView(t, "prospero://host.dom:1526/a/b;OBJECT-VERSION=3;x=y").(*Prospero)
	if v.HSOName != "a/b" || !reflect.DeepEqual(v.Fields, []ProsperoField{{"OBJECT-VERSION", "3"}, {"x", "y"}}) || v.Port != 1526 {
		t.Errorf("fields %+v", v)
	}
	// RFC 1630 Prospero: hsoname %00 version; 1993 draft: %00 attributes, version may be empty.
	v = mustView(t, "prospero://host.dom/a/b%0012").(*Prospero)
	if v.HSOName != "a/b" || !v.HasVersion || v.Version != "12" {
		t.Errorf("RFC 1630 version %+v", v)
	}
	v = mustView(t, "prospero://host.dom/a%00%00ATTR1%00x2").(*Prospero)
	if v.Version != "" || !v.HasVersion || !reflect.DeepEqual(v.Attributes, []string{"ATTR1", "x2"}) {
		t.Errorf("1993 draft attributes %+v", v)
	}
	p := mustPlan(t, "prospero://host.dom//pros/name", Config{}).(*ProsperoPlan)
	if p.Addr != "host.dom:1525" || p.HSOName != "/pros/name" {
		t.Errorf("plan %+v", p)
	}
	for _, tt := range []struct {
		in  string
		err error
		off int
	}{
		{"prospero://u@host.dom/a", ErrNotAllowed, 11},
		{"prospero://host.dom/a;novalue", ErrBadPath, 22},
		{"prospero://host.dom/a;f=v=w", urlkit.ErrReservedChar, 25},
	} {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
	// RFC 1738 5: psegment = *[ uchar | ... ], and "%00" is a uchar
	// escape: a path without RFC 1630's version shape after "%00" is an
	// hsoname with a NUL in it. The view accepts it; the plan refuses to
	// send the NUL and Check reports it (RFC 1738 6).
	for _, in := range []string{"prospero://host.dom/a%00x", "prospero://host.dom/a%00", "prospero://h/a%00b", "prospero://h/a%0012%00x-y"} {
		v, err := ProsperoOf(urlkit.MustParse(in))
		if err != nil {
			t.Errorf("%q: %v, want accepted (RFC 1738 5 psegment)", in, err)
			continue
		}
		if v.HasVersion || !strings.Contains(v.HSOName, "\x00") {
			t.Errorf("%q: %+v, want the whole path as the hsoname", in, v)
		}
		if _, err := v.Plan(Config{}); !errors.Is(err, ErrControl) {
			t.Errorf("%q: plan error %v, want ErrControl", in, err)
		}
		if fs := Check(urlkit.MustParse(in)); !HasErrors(fs) || fs[0].Code != CodeControl || fs[0].Offset != strings.Index(in, "%00") {
			t.Errorf("%q: findings %v, want a control error at the %%00", in, fs)
		}
	}
}

func TestMIDCID(t *testing.T) {
	// RFC 1630 Message-Id: the msg-id with its <> wrapper removed.
	p := mustPlan(t, "mid:9401011200.AA01@info.cern.ch", Config{}).(*LookupPlan)
	if p.Header != "Message-ID" || p.Value != "<9401011200.AA01@info.cern.ch>" {
		t.Errorf("mid %+v", p)
	}
	p = mustPlan(t, "cid:part1.abc@host.dom", Config{}).(*LookupPlan)
	if p.Header != "Content-ID" || p.Scheme() != "cid" {
		t.Errorf("cid %+v", p)
	}
	_, err := Parse("mid:%3Cx@y.dom%3E")
	wantOffset(t, "mid:%3Cx@y.dom%3E", err, ErrBadAddress, 4)
}

func TestReservedAndGeneric(t *testing.T) {
	// RFC 1738 4: afs, mid, cid, nfs, tn3270, mailserver, z39.50 reserved;
	// RFC 1630: urn reserved. urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3 is RFC 1630's example.
	for _, in := range []string{"urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", "afs://cell.dom/x", "nfs://h.dom/x", "mailserver:a@b.dom", "z39.50:x"} {
		v := mustView(t, in)
		r, ok := v.(*Reserved)
		if !ok || !r.Reserved {
			t.Errorf("%s: view %T", in, v)
			continue
		}
		if _, err := v.Plan(Config{}); !errors.Is(err, ErrNoAccess) {
			t.Errorf("%s: plan error %v", in, err)
		}
	}
	// RFC 1738 4: x- names are experimental.
	g := mustView(t, "x-mine:thing").(*Generic)
	if !g.Experimental {
		t.Errorf("x-mine not experimental")
	}
	g = mustView(t, "whois://h.dom/x").(*Generic)
	if g.Experimental || g.Scheme != "whois" {
		t.Errorf("whois %+v", g)
	}
	if _, err := g.Plan(Config{}); !errors.Is(err, ErrNoAccess) {
		t.Errorf("generic plan %v", err)
	}
}

// testScheme is a scheme a program adds (RFC 1738 4: new schemes).
type testScheme struct{}

func (testScheme) Info() Info {
	return Info{Name: "x-test-reg", Syntax: SyntaxIP, DefaultPort: 9999, Source: "test",
		ReservedChars: ReservedChars{Stated: true, Path: "/", Source: "test: only \"/\" is reserved"}}
}
func (testScheme) View(u urlkit.URL) (View, error) { return &Generic{u: u, Scheme: "x-test-reg"}, nil }

func TestRegister(t *testing.T) {
	Register(testScheme{})
	if _, ok := Lookup("X-TEST-REG"); !ok {
		t.Fatal("Lookup after Register failed")
	}
	// The core parser now knows the syntax: "//" is required.
	if _, err := urlkit.Parse("x-test-reg:opaque"); !errors.Is(err, urlkit.ErrMissingSlashes) {
		t.Errorf("core syntax not registered: %v", err)
	}
	if DefaultPort("X-Test-Reg") != 9999 {
		t.Errorf("default port not registered")
	}
	// The reserved set reaches urlkit.Equal (RFC 1738 2.2, 4: a new scheme
	// says which characters it reserves); an unregistered scheme keeps
	// RFC 1630's generic set.
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"x-test-reg://h/a?b", "x-test-reg://h/a%3Fb", true},
		{"x-test-reg://h/a@b*", "x-test-reg://h/a%40b%2A", true},
		{"x-test-reg://h/a/b", "x-test-reg://h/a%2Fb", false},
		{"x-unstated://h/a?b", "x-unstated://h/a%3Fb", false},
	} {
		if got := urlkit.Equal(urlkit.MustParse(tt.a), urlkit.MustParse(tt.b)); got != tt.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("second Register did not panic")
		}
	}()
	Register(testScheme{})
}

func TestViewOfPartial(t *testing.T) {
	u, err := urlkit.ParseRef("/a/b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ViewOf(u); !errors.Is(err, urlkit.ErrMissingScheme) {
		t.Errorf("partial: %v", err)
	}
}

func TestEveryBuiltinRegistered(t *testing.T) {
	for _, info := range schemes.Builtin {
		if _, ok := Lookup(info.Name); !ok {
			t.Errorf("built-in scheme %q has no view", info.Name)
		}
	}
}

// namedScheme is a scheme with a name chosen by the test.
type namedScheme string

func (n namedScheme) Info() Info { return Info{Name: string(n), Syntax: SyntaxOpaque, Source: "test"} }
func (n namedScheme) View(u urlkit.URL) (View, error) {
	return &Generic{u: u, Scheme: string(n)}, nil
}

// TestRegisterConcurrent: of many concurrent registrations of one name,
// exactly one succeeds; the duplicate check is made under the lock.
func TestRegisterConcurrent(t *testing.T) {
	for round := 0; round < 20; round++ {
		name := namedScheme(fmt.Sprintf("x-race-%d", round))
		var wg sync.WaitGroup
		var ok atomic.Int32
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { recover() }()
				Register(name)
				ok.Add(1)
			}()
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Fatalf("%d registrations of %s succeeded, want 1", ok.Load(), name)
		}
	}
}

func TestRegisterRejects(t *testing.T) {
	for _, name := range []string{"", "a b", "x_y", "http", "FTP"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(namedScheme(name))
		}()
	}
}
