package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// pySplit is the script that runs Python's urllib.parse.urlsplit over
// standard input, one URL a line, writing one JSON array a line.
const pySplit = `
import sys, json
from urllib.parse import urlsplit
for line in sys.stdin.read().split("\n")[:-1]:
    try:
        p = urlsplit(line)
        try:
            port = p.port
            port = "" if port is None else str(port)
        except ValueError:
            port = "ERR"
        print(json.dumps([p.scheme, p.netloc, p.path, p.query, p.fragment,
            p.username or "", p.password or "", p.hostname or "", port, p.geturl(),
            "roundtrip" if urlsplit(p.geturl()) == p else "lossy"]))
    except Exception as e:
        print(json.dumps(["ERROR", str(e)]))
`

// PythonSplit compares urlkit.Parse with Python's urllib.parse.urlsplit
// (run with python3) on every line of the ada-url datasets and every WPT
// input that urlkit accepts. When python3 is absent the suite reports that
// it was not run.
func PythonSplit(dir string) (*Suite, error) {
	s := &Suite{
		Name:   "Oracle: Python urllib.parse.urlsplit",
		Source: "every distinct line of `ada-url-datasets/*.txt` and every ASCII input of `wpt-url/urltestdata.json`; the other side is Python's `urllib.parse.urlsplit` (python3, run as a subprocess).",
		Notes: "Components are compared as written (urlsplit decodes nothing): scheme, netloc against urlkit's login part, user, password, host, port, path (with its leading \"/\"), query and fragment; agreed also needs the URL urlsplit writes back (geturl) to be equivalent by urlkit.Equal. " +
			"An input urlkit rejects is classed by where RFC 1738 5's grammar refuses it (urlsplit splits nearly anything; both reject when urlsplit raises).",
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		s.Unavailable = "python3 is not installed, so this suite was not run"
		return s, nil
	}
	var inputs []string
	seen := map[string]bool{}
	add := func(line string) {
		if seen[line] {
			return
		}
		seen[line] = true
		if strings.ContainsAny(line, "\r\n") {
			s.Total++
			s.skip("line break", "a CR or LF, which RFC 1738 2.2 excludes and the line protocol to python3 cannot carry", line)
			return
		}
		inputs = append(inputs, line)
	}
	for _, rel := range AdaDatasets {
		lines, err := readLines(filepath.Join(dir, rel))
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			add(l)
		}
	}
	cases, err := readWPT(dir, "wpt-url/urltestdata.json")
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		if isASCII(c.Input) {
			add(c.Input)
		}
	}
	cmd := exec.Command(py, "-c", pySplit)
	cmd.Stdin = strings.NewReader(strings.Join(inputs, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("conformance: python3 urlsplit: %w: %s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	i := 0
	for sc.Scan() {
		if i >= len(inputs) {
			return nil, fmt.Errorf("conformance: python3 urlsplit wrote more lines than it was given")
		}
		var row []string
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("conformance: python3 urlsplit output line %d: %w", i+1, err)
		}
		s.Total++
		comparePySplit(s, inputs[i], row)
		i++
	}
	if i != len(inputs) {
		return nil, fmt.Errorf("conformance: python3 urlsplit answered %d of %d inputs", i, len(inputs))
	}
	return s, nil
}

var pyLossy = reasoned{"urlsplit's write-back not a round trip", "the parts agree, but Python's geturl does not give them back (urlsplit of its output differs from the parts: an empty netloc gains or loses \"//\"), so the write-back is not compared"}

type pyFields struct {
	Scheme, Netloc, Path, Query, Fragment, User, Password, Host, Port string
}

func comparePySplit(s *Suite, in string, row []string) {
	u, err := urlkit.Parse(in)
	if err != nil {
		if len(row) > 0 && row[0] == "ERROR" {
			classReject(s, "both reject; urlkit: ", in, err, true)
		} else {
			classReject(s, "urlkit rejects, urlsplit splits: ", in, err, false)
		}
		return
	}
	if len(row) != 11 {
		s.wrong(in, "urlsplit raised: "+strings.Join(row, " "))
		return
	}
	want := pyFields{row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]}
	back := row[9] // urlunsplit of the parts: what Python writes back
	// urlsplit(geturl()) differs from the parts themselves: Python's own
	// write-back loses them (e.g. "file:////foo" becomes "file://foo").
	lossy := row[10] == "lossy"
	got := pyFields{Scheme: u.Scheme()}
	if u.HasAuthority() {
		got.Netloc = u.Authority()
		got.User, _ = u.User()
		got.Password, _ = u.Password()
		got.Host = u.Host()
		got.Port, _ = u.RawPort()
		got.Path = u.PathWithSlash()
	} else {
		got.Path, _ = u.Path()
	}
	got.Query, _ = u.Search()
	got.Fragment, _ = u.Fragment()
	if got == want {
		// Equal parts are not enough: agreed means what urlsplit writes
		// back (geturl) is equivalent by urlkit.Equal.
		if p, err := urlkit.Parse(back); err == nil && urlkit.Equal(u, p) {
			s.agree(in, nil)
			return
		}
		if lossy {
			s.agree(in, []reasoned{pyLossy})
			return
		}
		if i := strings.IndexByte(in, ':'); i > 0 && !strings.HasPrefix(in[i+1:], "//") && back == in[:i+1]+"//"+in[i+1:] {
			s.different("empty authority written by urlsplit", "urlsplit does not tell an empty authority from none and, for the schemes in its uses_netloc (ws, wss...), writes \"//\" back: \"ws:/example.com/\" becomes \"ws:///example.com/\", which has an empty authority (RFC 3986 3.2; RFC 1738 2.1 leaves an unknown scheme's part as written)", in)
			return
		}
		if dropEmptyDelims(in) == back {
			s.different("empty ? or # dropped", "RFC 1738 and RFC 1630 keep \"?\" and \"#\" with an empty search or fragment as written (urlkit.Equal tells them from absent ones); urlsplit cannot tell an empty part from none, and geturl writes the URL back without the delimiter", in)
			return
		}
		s.wrong(in, fmt.Sprintf("same parts, but urlsplit writes back %q, which urlkit.Equal finds different", back))
		return
	}
	var used []reasoned
	if h := strings.ToLower(got.Host); h != got.Host {
		got.Host = h
		used = append(used, reasoned{"host case", "urlsplit's hostname is lower-cased; host names are case-insensitive (RFC 1738 3.1, RFC 1034 3.1)"})
	}
	if p := strings.TrimLeft(got.Port, "0"); p != got.Port && want.Port != "ERR" {
		if p == "" {
			p = "0"
		}
		got.Port = p
		used = append(used, reasoned{"port as number", "urlsplit's port is an integer (\"0080\" is 80); RFC 1738 3.1: the port is a decimal number"})
	}
	if got.Port != "" && want.Port == "ERR" {
		s.different("port above 65535", "RFC 1738 3.1: port = 1*digit with no upper bound; urlsplit's port raises ValueError above 65535", in)
		return
	}
	if got == want {
		if p, err := urlkit.Parse(back); err == nil && urlkit.Equal(u, p) {
			s.agree(in, used)
			return
		}
		if lossy {
			s.agree(in, append(used, pyLossy))
			return
		}
		if dropEmptyDelims(in) == back || strings.EqualFold(dropEmptyDelims(in), back) {
			s.different("empty ? or # dropped", "RFC 1738 and RFC 1630 keep \"?\" and \"#\" with an empty search or fragment as written (urlkit.Equal tells them from absent ones); urlsplit cannot tell an empty part from none, and geturl writes the URL back without the delimiter", in)
			return
		}
		s.wrong(in, fmt.Sprintf("same parts after %v, but urlsplit writes back %q, which urlkit.Equal finds different", used, back))
		return
	}
	if !chars.Is(u.Scheme()[0], chars.Alpha) && want.Scheme == "" {
		s.different("scheme starts with a digit", "RFC 1738 2.1 and 5 allow a scheme to start with a digit; urlsplit (like RFC 3986 3.1) requires a letter, so it finds no scheme", in)
		return
	}
	if !u.HasAuthority() && strings.HasPrefix(u.Opaque(), "//") && got.Path == "//"+want.Netloc+want.Path {
		if info, ok := schemes.Lookup(u.Scheme()); ok && info.Syntax == schemes.Opaque {
			s.different("opaque scheme with //", reasonOpaqueScheme, in)
		} else {
			s.different("\"//\" not a login", reasonLoginFallback, in)
		}
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %+v, urlsplit %+v", got, want))
}
