package conformance

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// AdaDatasets are the ada-url URL lists the net/url differential runs on.
var AdaDatasets = []string{
	"ada-url-datasets/kasztp.txt",
	"ada-url-datasets/userbait.txt",
	"ada-url-datasets/isaacs_files.txt",
	"ada-url-datasets/node_files.txt",
}

// readLines returns the non-empty lines of a file, without line endings or
// a UTF-8 byte-order mark.
func readLines(path string) ([]string, error) {
	out, err := corpus.ReadLines(path)
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	return out, nil
}

// NetURL runs urlkit.Parse and net/url.Parse over the ada-url datasets and
// compares the components of every URL both accept, decoded.
func NetURL(dir string) (*Suite, error) {
	s := &Suite{
		Name:   "Differential: net/url on ada-url datasets",
		Source: "`ada-url-datasets/*.txt` (" + strings.Join(baseNames(AdaDatasets), ", ") + "): real http/https, phishing and file:// URLs, one per line; the other side is Go's net/url.Parse.",
		Notes: "Every line is given to `urlkit.Parse` and `url.Parse`. For each URL both accept, scheme, user, password, host, port, path, query and fragment must agree after decoding " +
			"(net/url decodes the path, user information and fragment; urlkit keeps them as written, so urlkit's are decoded with `urlkit.Unescape` before comparing; the query is compared raw, as both keep it). " +
			"A line urlkit rejects is classed by the kind of its error, and the kind's reason is checked on the line (a line called a bad host really has a host outside RFC 1738 5); lines only net/url rejects are not considered.",
	}
	for _, rel := range AdaDatasets {
		lines, err := readLines(filepath.Join(dir, rel))
		if err != nil {
			return nil, err
		}
		for _, line := range lines {
			s.Total++
			diffNetURL(s, line)
		}
	}
	return s, nil
}

func baseNames(rels []string) []string {
	out := make([]string, len(rels))
	for i, r := range rels {
		out[i] = filepath.Base(r)
	}
	return out
}

// netFields is a URL's components, decoded, as both sides are compared.
type netFields struct {
	Scheme, User, Password, Host, Port, Path, Query, Fragment string
	HasUser, HasPassword, HasQuery, HasFragment               bool
}

func (f netFields) String() string {
	return fmt.Sprintf("{scheme %q user %q pass %q host %q port %q path %q query %q fragment %q}",
		f.Scheme, f.User, f.Password, f.Host, f.Port, f.Path, f.Query, f.Fragment)
}

func unesc(s string) string {
	v, err := urlkit.Unescape(s)
	if err != nil {
		return s
	}
	return v
}

func fromURLKit(u urlkit.URL) netFields {
	var f netFields
	f.Scheme = u.Scheme()
	var user, pass string
	user, f.HasUser = u.User()
	pass, f.HasPassword = u.Password()
	f.User, f.Password = unesc(user), unesc(pass)
	f.Host = u.Host()
	f.Port, _ = u.RawPort()
	if u.HasAuthority() {
		f.Path = unesc(u.PathWithSlash())
	} else {
		p, _ := u.Path()
		f.Path = p // opaque: net/url keeps Opaque as written too
	}
	f.Query, f.HasQuery = u.Search()
	var frag string
	frag, f.HasFragment = u.Fragment()
	f.Fragment = unesc(frag)
	return f
}

func fromNetURL(nu *url.URL) netFields {
	f := netFields{Scheme: nu.Scheme, Host: nu.Hostname(), Port: nu.Port(), Query: nu.RawQuery, Fragment: nu.Fragment}
	if nu.User != nil {
		f.HasUser = true
		f.User = nu.User.Username()
		f.Password, f.HasPassword = nu.User.Password()
	}
	if nu.Opaque != "" {
		f.Path = nu.Opaque
	} else {
		f.Path = nu.Path
	}
	f.HasQuery = nu.ForceQuery || nu.RawQuery != ""
	f.HasFragment = nu.Fragment != "" || strings.HasSuffix(nu.String(), "#")
	return f
}

func diffNetURL(s *Suite, line string) {
	u, uerr := urlkit.Parse(line)
	nu, nerr := url.Parse(line)
	switch {
	case uerr != nil && nerr != nil:
		classReject(s, "both reject; urlkit: ", line, uerr, true)
		return
	case uerr != nil:
		classReject(s, "urlkit rejects, net/url accepts: ", line, uerr, false)
		return
	case !rfc1738Host(u):
		s.wrong(line, fmt.Sprintf("urlkit accepts the host %q, which RFC 1738 5 (hostname | hostnumber) forbids", u.Host()))
		return
	case nerr != nil:
		s.skip("accepted by urlkit only", "net/url rejects what RFC 1738 accepts (e.g. a port net/url finds invalid, a \"%\" escape it refuses in the host)", line)
		return
	}
	got, want := fromURLKit(u), fromNetURL(nu)
	// Neither presence of "?" nor "#" with an empty part changes a
	// component's value, and net/url does not record an empty fragment.
	got.HasFragment, want.HasFragment = false, false
	if got == want {
		// Equal components are not enough: agreed means the URL net/url
		// writes back is equivalent by urlkit.Equal.
		back := nu.String()
		if p, err := urlkit.Parse(back); err == nil && urlkit.Equal(u, p) {
			s.agree(line, nil)
			return
		}
		if strings.HasSuffix(line, "#") && back == strings.TrimSuffix(line, "#") {
			s.different("empty fragment dropped", "RFC 1630 (fragment identifiers) and RFC 3986 3.5: \"#\" with nothing after it is an empty fragment, kept by urlkit as written; net/url cannot hold an empty fragment and writes the URL back without its \"#\"", line)
			return
		}
		s.wrong(line, fmt.Sprintf("same components, but net/url writes back %q, which urlkit.Equal finds different", back))
		return
	}
	if name, reason, ok := netURLClass(u, nu, got, want); ok {
		s.different(name, reason, line)
		return
	}
	s.wrong(line, fmt.Sprintf("urlkit %s, net/url %s", got, want))
}

// netURLClass explains a disagreement between urlkit and net/url.
func netURLClass(u urlkit.URL, nu *url.URL, got, want netFields) (name, reason string, ok bool) {
	if !u.HasAuthority() && nu.Host != "" && strings.HasPrefix(u.Opaque(), "//") {
		if _, known := schemes.Lookup(u.Scheme()); !known {
			return "\"//\" not a login", "a scheme urlkit does not know whose \"//\" part is not an RFC 1738 3.1 login (here: a host whose top label starts with a digit, which hostname = *[ domainlabel \".\" ] toplabel forbids), so RFC 1738 2.1 leaves the whole part opaque; net/url (RFC 3986 3.2.2) takes any reg-name as the host", true
		}
	}
	return "", "", false
}
