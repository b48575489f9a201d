package conformance

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"github.com/urlkit/urlkit/scheme"
)

// curlTest is one record of curl_ftp_gopher_url_tests.jsonl: a curl test
// whose command line holds an ftp:// or gopher:// URL, with the dialogue
// curl's test server recorded.
type curlTest struct {
	Test       string   `json:"test"`
	Server     string   `json:"server"`
	URLs       []string `json:"urls"`
	Simple     bool     `json:"simple_url_only"`
	ExtraArgs  string   `json:"extra_args"`
	Protocol   *string  `json:"protocol"`
	ErrorCode  any      `json:"errorcode"`
	UsesLibtst bool     `json:"uses_libtest"`
}

// curlDialogueArgs are curl options that leave the commands a URL maps to
// unchanged (-g: no globbing; --insecure: no certificate check).
var curlDialogueArgs = map[string]bool{"-g": true, "--insecure": true}

// curlFTPPinned pins every case where urlkit's plan and curl's dialogue
// deliberately differ, by test, with the class that explains it. A
// divergence not pinned here, or a pinned case that no longer diverges
// that way, is wrong.
var curlFTPPinned = map[string]string{
	"test100":  classCurlLIST,
	"test1153": classCurlLIST,
	"test250":  classCurlLIST,
	"test106":  classCurlCWDSlash,
	"test143":  classCurlCWDSlash,
	"test1224": classCurlCWDSlash,
}

const (
	classCurlLIST     = "LIST for a directory"
	whyCurlLIST       = "RFC 1738 3.2.2: a directory (\";type=d\", or an empty name) is listed with NLST; curl sends LIST"
	classCurlCWDSlash = "empty or %2F segment: curl sends \"CWD /\""
	whyCurlCWDSlash   = "RFC 1738 3.2.2: each segment, empty or not, is one CWD with the segment decoded (\"%2Ftmp\" is \"CWD /tmp\", an empty segment \"CWD \"); curl sends \"CWD /\" for a leading empty or %2F segment, splits at the decoded \"/\" and skips empty middle segments"
)

// CurlFTPGopher compares the scheme layer's plans with the dialogues of
// curl's ftp and gopher tests.
func CurlFTPGopher(dir string) (*Suite, error) {
	const rel = "scheme-tests/curl_ftp_gopher_url_tests.jsonl"
	s := &Suite{
		Name:   "curl ftp/gopher tests (dialogues)",
		Source: "`" + rel + "` (curl's tests/data: the URL on the command line and the commands curl's test server recorded); the other side is curl.",
		Notes: "Considered: tests whose dialogue follows from the URL alone (no curl option that changes it, no libtest program, the first server ftp or gopher). " +
			"For ftp, the commands a URL maps to (USER, PASS, CWD, TYPE, RETR, LIST, NLST) are taken from curl's recorded dialogue and from `scheme` plan's Commands (anonymous password ftp@example.com, curl's) and compared; when curl's test ends in an error the server caused, what curl sent must be the start of the plan. " +
			"For gopher, the selector line is compared. A client-chosen TYPE (no \";type=\", RFC 1738 3.2.3) is left out of the comparison. Every divergence is pinned by test in `curlFTPPinned`.",
	}
	rows, err := corpus.ReadJSONL[curlTest](filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	seenPinned := map[string]bool{}
	for _, r := range rows {
		s.Total++
		server, _, _ := strings.Cut(r.Server, "\n")
		switch {
		case r.UsesLibtst:
			s.skip("libtest program", "a C program drives libcurl with its own options; the dialogue does not follow from the URL alone", r.Test)
			continue
		case !onlyDialogueArgs(r.ExtraArgs):
			s.skip("curl options change the dialogue", "the command line has options (-T upload, -Q quote commands, --ftp-method, -P active mode, -u, proxies...) that change the commands curl sends", r.Test)
			continue
		case server != "ftp" && server != "gopher" && server != "gopher-ipv6":
			s.skip("not an ftp or gopher dialogue", "the first server is "+server+" (an HTTP proxy, ftps or another protocol), so the recorded dialogue is not the one RFC 1738 maps the URL to", r.Test)
			continue
		case len(r.URLs) != 1 || r.Protocol == nil && r.ErrorCode == nil:
			s.skip("no single URL and dialogue", "the test has several URLs or no recorded dialogue", r.Test)
			continue
		}
		got := compareCurlTest(s, r)
		if got != "" {
			seenPinned[r.Test] = true
		}
	}
	for t, c := range curlFTPPinned {
		if !seenPinned[t] {
			s.Stale = append(s.Stale, Case{t, "pinned as " + c + ", but that divergence no longer occurs (or the test is no longer considered)"})
		}
	}
	return s, nil
}

func onlyDialogueArgs(args string) bool {
	for _, a := range strings.Fields(args) {
		if !curlDialogueArgs[a] {
			return false
		}
	}
	return true
}

// curlURLCommands are the commands an ftp URL maps to (RFC 1738 3.2.2).
var curlURLCommands = map[string]bool{"USER": true, "PASS": true, "CWD": true, "TYPE": true, "RETR": true, "LIST": true, "NLST": true}

// compareCurlTest compares one test; it returns the class when the case is
// a pinned divergence.
func compareCurlTest(s *Suite, r curlTest) (pinned string) {
	num := strings.TrimPrefix(r.Test, "test")
	sub := strings.NewReplacer("%HOSTIP", "127.0.0.1", "%FTPPORT", "8990", "%GOPHERPORT", "8991",
		"%HOST6IP", "[::1]", "%GOPHER6PORT", "8992", "%TESTNUMBER", num)
	in := sub.Replace(r.URLs[0])
	tag := r.Test + ": " + in
	proto := ""
	if r.Protocol != nil {
		proto = sub.Replace(*r.Protocol)
	}
	curlRefuses := fmt.Sprint(r.ErrorCode) == "3" // CURLE_URL_MALFORMAT
	u, err := urlkit.Parse(in)
	if err != nil {
		if curlRefuses {
			classReject(s, "both refuse; urlkit: ", in, err, true)
		} else {
			classReject(s, "urlkit rejects, curl accepts: ", in, err, false)
		}
		return ""
	}
	v, err := scheme.ViewOf(u)
	var plan scheme.Plan
	if err == nil {
		plan, err = v.Plan(scheme.Config{Email: "ftp@example.com"})
	}
	if err != nil {
		if curlRefuses && errors.Is(err, scheme.ErrControl) {
			s.agree(tag, []reasoned{{"both refuse an encoded control character", "RFC 1738 6 and 3.2.2: an encoded CR or LF in an ftp or gopher URL would inject a command; the plan refuses it (scheme.ErrControl) and curl exits with CURLE_URL_MALFORMAT"}})
			return ""
		}
		s.wrong(tag, fmt.Sprintf("plan error %v; curl exit %v", err, r.ErrorCode))
		return ""
	}
	if curlRefuses {
		s.wrong(tag, "urlkit plans it; curl refuses the URL (CURLE_URL_MALFORMAT)")
		return ""
	}
	if gp, ok := plan.(*scheme.GopherPlan); ok {
		want := strings.TrimSuffix(proto, "\n")
		if strings.TrimSuffix(gp.Line(), "\r\n") == want {
			s.agree(tag, nil)
		} else {
			s.wrong(tag, fmt.Sprintf("selector line %q, curl %q", gp.Line(), want))
		}
		return ""
	}
	fp, ok := plan.(*scheme.FTPPlan)
	if !ok {
		s.wrong(tag, fmt.Sprintf("plan of type %T, want ftp or gopher", plan))
		return ""
	}
	curl := urlCommands(strings.Split(proto, "\n"))
	mine := urlCommands(planLines(fp))
	var used []reasoned
	if (fp.Guessed || fp.Type == 0) && !fp.List && !equalCmds(mine, curl, r.ErrorCode != nil) {
		// RFC 1738 3.2.3: without ";type=" the client picks the type.
		if len(dropType(curl)) != len(curl) || len(dropType(mine)) != len(mine) {
			used = append(used, reasoned{"TYPE chosen by the client", "RFC 1738 3.2.3: without \";type=\" the client chooses the transfer type (curl and the plan: I for a file); where they choose differently the TYPE line is not compared"})
			curl, mine = dropType(curl), dropType(mine)
		}
	}
	stopped := r.ErrorCode != nil
	if !equalCmds(mine, curl, stopped) && equalCmds(dropLogin(mine), dropLogin(curl), stopped) && isPrefixLogin(curl, mine) {
		// The test's server answered USER with 230 (no password needed) or
		// greeted a session already logged in (RFC 959 5.4): curl skipped
		// what the plan would also skip at that reply.
		used = append(used, reasoned{"login step the server waived", "the test's server needs no PASS (or no USER) and says so in its reply (RFC 959 5.4: 230 after USER); the plan's remaining commands are the same"})
		mine, curl = dropLogin(mine), dropLogin(curl)
	}
	if equalCmds(mine, curl, stopped) {
		if stopped {
			used = append(used, reasoned{"dialogue cut short by the server", "the test's server fails a step (curl exits with an error), so what curl sent is compared with the start of the plan"})
		}
		if p, isPinned := curlFTPPinned[r.Test]; isPinned {
			s.wrong(tag, "pinned as "+p+" but agrees")
			return ""
		}
		s.agree(tag, used)
		return ""
	}
	cls, why := curlFTPClass(fp, mine, curl, stopped)
	if cls == "" {
		s.wrong(tag, fmt.Sprintf("plan %q, curl %q", mine, curl))
		return ""
	}
	if curlFTPPinned[r.Test] != cls {
		s.wrong(tag, fmt.Sprintf("%s (plan %q, curl %q), but pinned as %q", cls, mine, curl, curlFTPPinned[r.Test]))
		return ""
	}
	s.different(cls, why, tag)
	return cls
}

// planLines returns the line of each of the plan's commands, a password
// to be asked as "PASS <ask the user>".
func planLines(p *scheme.FTPPlan) []string {
	out := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		out[i] = c.Line()
		if c.Pass == scheme.PassAsk {
			out[i] = c.Text()
		}
	}
	return out
}

// dropLogin leaves out USER and PASS commands.
func dropLogin(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		if !strings.HasPrefix(c, "USER ") && !strings.HasPrefix(c, "PASS ") {
			out = append(out, c)
		}
	}
	return out
}

// isPrefixLogin: curl's USER/PASS commands are the plan's, in order, with
// some left out at the end (the ones the server waived).
func isPrefixLogin(curl, mine []string) bool {
	var c, m []string
	for _, x := range curl {
		if strings.HasPrefix(x, "USER ") || strings.HasPrefix(x, "PASS ") {
			c = append(c, x)
		}
	}
	for _, x := range mine {
		if strings.HasPrefix(x, "USER ") || strings.HasPrefix(x, "PASS ") {
			m = append(m, x)
		}
	}
	return equalCmds(m, c, true)
}

// equalCmds compares the plan's commands with curl's; when curl's test
// stopped early, curl's must be a prefix of the plan's (the server may skip
// PASS by accepting USER alone, or greet a logged-in session).
func equalCmds(mine, curl []string, stopped bool) bool {
	if !stopped {
		return strings.Join(mine, "\n") == strings.Join(curl, "\n")
	}
	if len(curl) > len(mine) {
		return false
	}
	for i := range curl {
		if curl[i] != mine[i] {
			return false
		}
	}
	return true
}

// urlCommands keeps the commands an ftp URL maps to (RFC 1738 3.2.2),
// leaving out those of the transfer itself (PWD, EPSV, PASV, SIZE, QUIT...).
func urlCommands(lines []string) []string {
	var out []string
	for _, l := range lines {
		verb, _, _ := strings.Cut(l, " ")
		if curlURLCommands[verb] {
			out = append(out, l)
		}
	}
	return out
}

func dropType(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		if !strings.HasPrefix(c, "TYPE ") {
			out = append(out, c)
		}
	}
	return out
}

// curlFTPClass explains a difference between the plan's commands and
// curl's: each class rewrites the plan's commands the way curl departs from
// RFC 1738, and holds only if the result is curl's commands exactly.
func curlFTPClass(p *scheme.FTPPlan, mine, curl []string, stopped bool) (name, reason string) {
	// LIST: curl lists a directory with "TYPE A" and "LIST" where RFC
	// 1738 3.2.2 sends NLST.
	if p.List {
		var asCurl []string
		for _, c := range mine {
			if c == "NLST" {
				asCurl = append(asCurl, "TYPE A", "LIST")
			} else {
				asCurl = append(asCurl, c)
			}
		}
		if equalCmds(asCurl, curl, stopped) {
			return classCurlLIST, whyCurlLIST
		}
	}
	// CWD: a leading empty or "/"-prefixed argument becomes "CWD /" and
	// the rest of its text, empty arguments after it are left out.
	var asCurl []string
	for _, c := range mine {
		arg, isCWD := strings.CutPrefix(c, "CWD ")
		switch {
		case !isCWD && c != "CWD":
			asCurl = append(asCurl, c)
		case len(asCurl) == 0 || !strings.HasPrefix(asCurl[len(asCurl)-1], "CWD") && (arg == "" || strings.HasPrefix(arg, "/")):
			asCurl = append(asCurl, "CWD /")
			if rest := strings.TrimPrefix(arg, "/"); rest != "" {
				asCurl = append(asCurl, "CWD "+rest)
			}
		case arg == "":
		default:
			asCurl = append(asCurl, c)
		}
	}
	if equalCmds(asCurl, curl, stopped) {
		return classCurlCWDSlash, whyCurlCWDSlash
	}
	return "", ""
}
