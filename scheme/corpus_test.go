package scheme

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// The external corpora live beside the module: ../shared/corpora from the
// module root (see its SOURCES.md); corpus.Require skips (or, in CI, fails)
// when they are absent.
func openCorpus(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus.Require(t), "scheme-tests", name))
	if err != nil {
		t.Fatalf("corpus file: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// readTSV returns the rows of a corpus TSV file as maps keyed by the header,
// skipping "#" comment lines.
func readTSV(t *testing.T, name string) []map[string]string {
	f := openCorpus(t, name)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	var rows []map[string]string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if header == nil {
			header = cols
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			if i < len(cols) {
				row[h] = cols[i]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func curlSubst(s, test string) string {
	num := strings.TrimPrefix(test, "test")
	return strings.NewReplacer("%HOSTIP", "127.0.0.1", "%FTPPORT", "8990", "%GOPHERPORT", "8991",
		"%HOST6IP", "[::1]", "%GOPHER6PORT", "8992", "%GOPHERSPORT", "8993", "%TESTNUMBER", num).Replace(s)
}

// curlCWD rewrites an RFC 1738 CWD list the way curl (multicwd) sends it,
// for comparison only: a leading empty segment or a leading "/" in the first
// segment becomes "CWD /", and other empty segments are skipped. These are
// curl's deviations from RFC 1738 3.2.2, which says an empty segment is
// "CWD " with a null argument and "%2F" decodes to "/" inside one argument
// (the file header of curl_ftp_url_to_commands.tsv lists them).
func curlCWD(cwd []string) (out []string, diverges bool) {
	for i, c := range cwd {
		switch {
		case i == 0 && c == "":
			out = append(out, "/")
			diverges = true
		case i == 0 && strings.HasPrefix(c, "/"):
			out = append(out, "/")
			if rest := strings.TrimPrefix(c, "/"); rest != "" {
				out = append(out, rest)
			}
			diverges = true
		case c == "":
			diverges = true
		default:
			out = append(out, c)
		}
	}
	return out, diverges
}

// TestCorpusCurlFTP checks the ftp URL to command mapping of curl's test
// suite (curl_ftp_url_to_commands.tsv) against RFC 1738 3.2.
func TestCorpusCurlFTP(t *testing.T) {
	rows := readTSV(t, "curl_ftp_url_to_commands.tsv")
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	cfg := Config{Email: "ftp@example.com"} // curl's default anonymous password
	var divergent []string
	for _, r := range rows {
		test := r["test"]
		in := curlSubst(r["url"], test)
		v, err := Parse(in)
		if err != nil {
			t.Errorf("%s %s: %v", test, in, err)
			continue
		}
		plan, err := v.Plan(cfg)
		if r["errorcode"] == "3" {
			// CURLE_URL_MALFORMAT: curl refuses an encoded LF or CR; RFC 1738 6 too.
			if !errors.Is(err, ErrControl) {
				t.Errorf("%s %s: curl refuses this URL; plan error %v, want ErrControl", test, in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: plan: %v", test, in, err)
			continue
		}
		p := plan.(*FTPPlan)
		if r["errorcode"] != "" {
			continue // a server-side failure: the dialogue stops early
		}
		if u := r["user"]; u != "" {
			if got := ftpArgs(p, FTPUser); len(got) != 1 || got[0] != u {
				t.Errorf("%s: USER %q, curl %q", test, got, u)
			}
		}
		if pw := r["pass"]; pw != "" && !slices.Contains(ftpLines(p), "PASS "+pw) {
			t.Errorf("%s: commands %q lack PASS %s", test, ftpLines(p), pw)
		}
		cwd := ftpArgs(p, FTPCwd)
		want := []string{}
		if r["cwd"] != "" {
			want = strings.Split(curlSubst(r["cwd"], test), " | ")
		}
		got, div := curlCWD(cwd)
		if div {
			divergent = append(divergent, test)
			// Each divergence is pinned: urlkit's own CWD list must be the
			// RFC 1738 3.2.2 one recorded for the case, so a change on
			// either side fails here instead of passing through the
			// translation into curl's form.
			pin, ok := curlFTPDivergences[test]
			if !ok {
				t.Errorf("%s %s: CWD %q diverges from curl's %q and is not a pinned divergence", test, in, cwd, want)
			} else if strings.Join(cwd, "|") != strings.Join(pin.cwd, "|") {
				t.Errorf("%s %s: CWD %q, pinned RFC 1738 list %q (%s)", test, in, cwd, pin.cwd, pin.why)
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s %s: CWD %q (as curl would send %q), curl %q", test, in, cwd, got, want)
		}
		if r["extra_args"] != "" {
			continue // --use-ascii, -I and -l change the type and the final command
		}
		if !p.Guessed {
			if string(rune(p.Type&^0x20)) != r["type"] {
				t.Errorf("%s: TYPE %c, curl %s", test, p.Type&^0x20, r["type"])
			}
		}
		// Without ;type= RFC 1738 3.2.3 leaves the type to the client (curl
		// picks I for files and A for listings): the plan must say "guess".
		last := p.Commands[len(p.Commands)-2].Line() // the transfer, before QUIT
		final := curlSubst(r["final_cmds"], test)
		switch {
		case final == "LIST":
			// curl sends LIST; RFC 1738 3.2.2 says NLST.
			if !p.List || !strings.HasPrefix(last, "NLST") {
				t.Errorf("%s: curl lists the directory, plan ends %q", test, last)
			}
		case strings.Contains(final, "RETR "):
			name := final[strings.Index(final, "RETR "):]
			if last != name {
				t.Errorf("%s: last command %q, curl %q", test, last, name)
			}
		}
	}
	if len(divergent) != len(curlFTPDivergences) {
		t.Errorf("divergent cases %v, pinned %d: a pinned divergence no longer occurs", divergent, len(curlFTPDivergences))
	}
	t.Logf("%d rows; curl's CWD differs from RFC 1738 (leading empty or %%2F segment, empty middle segments) in %v, each pinned", len(rows), divergent)
}

// curlFTPDivergences pins the cases of curl_ftp_url_to_commands.tsv where
// curl's CWD sequence differs from RFC 1738 3.2.2's, with urlkit's list.
var curlFTPDivergences = map[string]struct {
	cwd []string
	why string
}{
	"test106":  {[]string{"", "path with  spaces", "", "and things2"}, "RFC 1738 3.2.2: every segment, empty ones too, is one CWD (an empty CWD); curl sends \"CWD /\" for the leading empty segment and skips the middle one"},
	"test1091": {[]string{"/tmp", "moo"}, "RFC 1738 3.2.2: %2F is a \"/\" inside the segment, so the first CWD is \"/tmp\"; curl splits it into \"CWD /\" and \"CWD tmp\""},
	"test143":  {[]string{"/tmp", "moo"}, "as test1091, with ;type=a"},
	"test1224": {[]string{""}, "RFC 1738 3.2.2: the empty first segment is an empty CWD; curl sends \"CWD /\""},
}

// TestCorpusCurlGopher checks curl's gopher selector tests.
func TestCorpusCurlGopher(t *testing.T) {
	// Deliberate divergences: not RFC 1738 URLs.
	diverge := map[string]string{
		"test1203": "IPv6 literal host [::1]: RFC 2732 came after RFC 1738",
		"test1272": "gophers: not a scheme of RFC 1738 (read as an unknown scheme)",
	}
	for _, r := range readTSV(t, "curl_gopher_selector.tsv") {
		test := r["test"]
		in := curlSubst(r["url"], test)
		if reason, ok := diverge[test]; ok {
			u, err := urlkit.Parse(in)
			if err == nil {
				if _, err = PlanOf(u, Config{}); err == nil {
					t.Errorf("%s %s: listed as divergent (%s) but planned", test, in, reason)
				}
			}
			continue
		}
		v, err := Parse(in)
		if err != nil {
			t.Errorf("%s %s: %v", test, in, err)
			continue
		}
		plan, err := v.Plan(Config{})
		if r["errorcode"] == "3" {
			if !errors.Is(err, ErrControl) {
				t.Errorf("%s: curl refuses %s; got %v", test, in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", test, err)
			continue
		}
		want := strings.ReplaceAll(curlSubst(r["wire_selector"], test), `\t`, "\t") + "\r\n"
		if got := plan.(*GopherPlan).Line(); got != want {
			t.Errorf("%s %s: line %q, curl sends %q", test, in, got, want)
		}
	}
}

// perlDiverge lists the libwww-perl URI cases this package does not follow,
// and why.
var perlDiverge = map[string]string{
	"http:0":                        `RFC 1738 3.3: an http URL has "//" and a host`,
	"http:/0?0":                     `RFC 1738 3.3: an http URL has "//" and a host`,
	"http://0:0/0/0;0?0#0":          `RFC 1738 3.1: a host number has four parts; "0" is neither hostname nor hostnumber`,
	"gopher://host/7foo\tbar%20baz": "RFC 1738 2.2: a raw TAB is a control character and must be encoded as %09",
	"http://web.net as_string":      "URI.pm adds the \"/\"; urlkit keeps the text as written (RFC 1738 3.3 makes it optional)",
	"hTTp://web1.net/a/b/c/welcome#intro as_string": "URI.pm lower-cases the scheme in the text; urlkit keeps the text and lower-cases Scheme()",
	"file://host/fseg/fs?g/fseg path":               `RFC 1738 5: fsegment allows "?", so "?g/fseg" belongs to the file path; URI.pm reads a query`,
}

// TestCorpusPerlURI checks the RFC 1738 accessors of libwww-perl URI's
// old-base.t and gopher.t (perl_uri_scheme_cases.jsonl).
func TestCorpusPerlURI(t *testing.T) {
	f := openCorpus(t, "perl_uri_scheme_cases.jsonl")
	sc := bufio.NewScanner(f)
	n, checked := 0, 0
	for sc.Scan() {
		var c struct {
			URL, Method string
			Expected    any
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		if _, ok := perlDiverge[c.URL+" "+c.Method]; ok {
			continue
		}
		if reason, ok := perlDiverge[c.URL]; ok {
			if _, err := Parse(c.URL); err == nil {
				t.Errorf("%q listed as divergent (%s) but parses", c.URL, reason)
			}
			continue
		}
		v, err := Parse(c.URL)
		if err != nil {
			t.Errorf("%q: %v", c.URL, err)
			continue
		}
		got, ok := perlAccessor(v, c.Method)
		if !ok {
			continue // an accessor of URI.pm's own API (netloc, epath...)
		}
		checked++
		want := c.Expected
		if f, isNum := want.(float64); isNum {
			want = fmt.Sprint(int(f))
		}
		if want == nil {
			want = "<nil>"
		}
		if fmt.Sprint(want) != got {
			t.Errorf("%q %s: got %q, URI.pm %q", c.URL, c.Method, got, want)
		}
	}
	t.Logf("%d assertions, %d compared", n, checked)
}

// perlAccessor returns what this package says for a URI.pm accessor.
func perlAccessor(v View, method string) (string, bool) {
	u := v.URL()
	str := func(s string, ok bool) string {
		if !ok {
			return "<nil>"
		}
		return s
	}
	switch method {
	case "scheme":
		return u.Scheme(), true
	case "as_string":
		return u.String(), true
	case "host":
		return u.Host(), true
	case "frag":
		return str(u.Fragment()), true
	}
	switch v := v.(type) {
	case *HTTP:
		switch method {
		case "port":
			return fmt.Sprint(v.Port), true
		case "path":
			return "/" + v.Path, true
		case "query":
			return str(v.Search, v.HasSearch), true
		}
	case *FTP:
		switch method {
		case "port":
			return fmt.Sprint(v.Port), true
		case "user":
			if !v.HasUser {
				return AnonymousUser, true // RFC 1738 3.2.1
			}
			return v.User, true
		case "password":
			return str(v.Password, v.HasPassword), true
		case "path":
			p, _ := u.Path()
			if i := strings.LastIndex(p, ";type="); i >= 0 {
				p = p[:i]
			}
			return "/" + p + searchSuffix(u), true
		case "params":
			if v.Type == 0 {
				return "<nil>", true
			}
			return "type=" + string(rune(v.Type)), true
		case "query":
			return str(u.Search()), true
		}
	case *Gopher:
		switch method {
		case "port":
			return fmt.Sprint(v.Port), true
		case "gtype", "gopher_type":
			return string(rune(v.Type)), true
		case "selector":
			if v.Selector == "" {
				return "<nil>", true
			}
			return v.Selector, true
		case "search":
			return str(v.Search, v.HasSearch), true
		}
	case *News:
		switch method {
		case "group", "groupart":
			if v.All {
				return "*", true
			}
			if method == "groupart" && v.MessageID != "" {
				return v.MessageID, true
			}
			return v.Group, true
		case "article":
			return v.MessageID, true
		}
	case *NNTP:
		if method == "group" {
			return v.Group, true
		}
	case *Telnet:
		switch method {
		case "user":
			return v.User, true
		case "password":
			return v.Password, true
		}
	case *Mailto:
		switch method {
		case "address", "encoded822addr":
			return v.Address, true
		}
	case *File:
		if method == "path" {
			return "/" + strings.Join(v.Segments, "/"), true
		}
	}
	return "", false
}

func searchSuffix(u urlkit.URL) string {
	if s, ok := u.Search(); ok {
		return "?" + s
	}
	return ""
}

// sagaDiverge lists SAGA's cases this package reads differently, and why.
var sagaDiverge = map[string]string{
	"file:/dir/a/b/c.html":  `RFC 1738 5: fileurl = "file://" [ host | "localhost" ] "/" fpath; "//" is required`,
	"file:/dir/a/b?/c.html": `RFC 1738 5: fileurl requires "//"`,
	"news://binky.capnet.state.tx.us/5rb1or$67v@news.jumpnet.com":        "RFC 1738 3.6 / RFC 1630 News note 1: news URLs name no host; read as one message-id",
	"news://adenine.c.dna.affrc.go.jp/misc.transport.air-industry.cargo": `RFC 1738 5: a group starts with a letter, not "/"; news URLs name no host`,
	"wais://wais.ceic.com//base/wtype/wpath":                             `RFC 1738 3.9: four path segments; SAGA collapses "//"`,
	"wais://wais.ceic.com:8080//base/wtype/wpath":                        `RFC 1738 3.9: four path segments; SAGA collapses "//"`,
	"wais://usr:pass@wais.ceic.com:210//base/wtype/wpath":                `RFC 1738 5: waisurl has hostport, no user or password`,
	"file:////bar/foo/":                            "path: SAGA collapses the empty first segment",
	"file:////bar/foo":                             "path: SAGA collapses the empty first segment",
	"file:///./bar/foo/":                           `path: SAGA drops the leading "/"; RFC 1738 keeps "." as a segment`,
	"file:///./bar/foo":                            `path: SAGA drops the leading "/"; RFC 1738 keeps "." as a segment`,
	"file://host//bar/foo":                         "path: SAGA collapses the empty first segment",
	"file://host/./bar/foo":                        `path: SAGA drops the leading "/"`,
	"file://locAlhost/dir/a/b/c.html":              "host: SAGA lower-cases the host; urlkit keeps it as written (and reads it as local)",
	"ftp://www.foo.bar/bar?foo/bar":                `RFC 1738 5: fsegment allows "?", so "?foo/bar" is part of the ftp path, not a query`,
	"ftp://ftp@www.foo.bar/bar?foo/bar":            `RFC 1738 5: fsegment allows "?"`,
	"ftp://anonymous@www.foo.bar/bar?foo/bar":      `RFC 1738 5: fsegment allows "?"`,
	"ftp://anonymous:pass@www.foo.bar/bar?foo/bar": `RFC 1738 5: fsegment allows "?"`,
}

// TestCorpusSAGA checks the component split of SAGA's URL tests for the
// schemes of RFC 1738 (saga_cpp_url_components.jsonl).
func TestCorpusSAGA(t *testing.T) {
	f := openCorpus(t, "saga_cpp_url_components.jsonl")
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		var c struct {
			URI     string
			IsValid bool
			Host    *string
			Port    int
			Path    *string
			Query   *string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		name, _, _ := strings.Cut(c.URI, ":")
		switch name {
		case "ftp", "file", "gopher", "news", "nntp", "wais", "mailto":
		default:
			continue
		}
		v, err := Parse(c.URI)
		reason, div := sagaDiverge[c.URI]
		if err != nil {
			if !div {
				t.Errorf("%q: %v", c.URI, err)
			}
			continue
		}
		checked++
		u := v.URL()
		var mismatch []string
		if c.Host != nil && *c.Host != u.Host() {
			mismatch = append(mismatch, "host")
		}
		port, hasPort := u.RawPort()
		if hasPort != (c.Port >= 0) || (hasPort && fmt.Sprint(c.Port) != port) {
			mismatch = append(mismatch, "port")
		}
		if c.Path != nil && u.HasAuthority() {
			if p := (part{raw: u.PathWithSlash()}).decode(); p != *c.Path {
				mismatch = append(mismatch, "path")
			}
		}
		if q, ok := u.Search(); (c.Query != nil) != ok || (ok && q != *c.Query) {
			if _, isFTP := v.(*FTP); !isFTP {
				mismatch = append(mismatch, "query")
			}
		}
		if len(mismatch) > 0 && !div {
			t.Errorf("%q: %v differ from SAGA", c.URI, mismatch)
		}
		if len(mismatch) == 0 && div && !strings.Contains(reason, "fsegment") {
			t.Errorf("%q: listed as divergent (%s) but agrees", c.URI, reason)
		}
	}
	t.Logf("%d SAGA cases compared", checked)
}
