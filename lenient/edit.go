package lenient

import (
	"errors"
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
)

// Host returns the host text h as the lenient reading reads the host of a
// URL: an international name mapped to its A-labels by IDNA (UTS #46), a
// name written with escapes decoded first, every A-label validated, a
// browser's form of a host number written in RFC 1738's, an IPv6 literal
// taken ([urlkit.ParseExtended]). The warnings say what was repaired,
// with offsets in h. h must be a host alone: a user, port or path in it is
// an error.
func Host(h string) (string, []urlkit.Warning, error) {
	const pre = "//"
	u, warns, err := ParseRef(pre + h + "/")
	if err != nil {
		var se *urlkit.SyntaxError
		if errors.As(err, &se) && se.Offset >= len(pre) {
			return "", nil, &urlkit.SyntaxError{Input: h, Offset: min(se.Offset-len(pre), len(h)), Component: urlkit.ComponentHost, Err: se.Err, Detail: se.Reason()}
		}
		return "", nil, err
	}
	_, hasUser := u.User()
	_, hasPort := u.RawPort()
	if p, _ := u.Path(); hasUser || hasPort || p != "" || u.Host() == "" {
		return "", nil, &urlkit.SyntaxError{Input: h, Component: urlkit.ComponentHost, Err: urlkit.ErrBadHost,
			Detail: fmt.Sprintf("%q is not a host alone (RFC 1738 3.1: host = hostname | hostnumber; a user, port or path is set on its own)", h)}
	}
	for k := range warns {
		warns[k].Offset = max(warns[k].Offset-len(pre), 0)
		warns[k].Component = urlkit.ComponentHost
	}
	return u.Host(), warns, nil
}

// Set is [edit.Set] with the host read as the lenient reading reads a
// URL's host ([Host]): edit.Set(u, urlkit.ComponentHost, "bücher.de")
// is refused (RFC 1738 3.1 names hosts in ASCII), Set maps it to
// "xn--bcher-kva.de", with a warning. An IPv6 literal host makes the result
// a URL of the extended syntax. The other components are set as edit.Set
// sets them.
func Set(u urlkit.URL, c urlkit.Component, text string) (urlkit.URL, []urlkit.Warning, error) {
	if c != urlkit.ComponentHost {
		v, err := edit.Set(u, c, text)
		return v, nil, err
	}
	h, warns, err := Host(text)
	if err != nil {
		return urlkit.URL{}, nil, err
	}
	if !u.Extended() {
		if x, err := urlkit.ParseRefExtended(u.String()); err == nil {
			u = x
		}
	}
	v, err := edit.Set(u, c, h)
	return v, warns, err
}
