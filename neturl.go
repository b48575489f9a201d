package urlkit

import (
	"errors"
	"fmt"
	"net/url"
)

// ErrLossy is returned when a conversion to or from net/url would change
// the URL.
var ErrLossy = errors.New("conversion would change the URL")

// NetURL converts u to a *net/url.URL. The conversion is made only when it
// is lossless: when net/url gives back exactly u's text. Otherwise the
// error wraps [ErrLossy] and says what net/url would have written.
func (u URL) NetURL() (*url.URL, error) {
	nu, err := url.Parse(u.s)
	if err != nil {
		return nil, fmt.Errorf("urlkit: net/url cannot represent %q: %w", u.s, err)
	}
	if got := nu.String(); got != u.s {
		return nil, fmt.Errorf("urlkit: net/url would write %q as %q: %w", u.s, got, ErrLossy)
	}
	return nu, nil
}

// FromNetURL converts a *net/url.URL to a URL, checking it strictly with
// [Parse]. A net/url URL that RFC 1738 does not allow (an IPv6 host, an
// unencoded "~") gives Parse's positioned error.
func FromNetURL(nu *url.URL) (URL, error) {
	if nu == nil {
		return URL{}, errors.New("urlkit: FromNetURL: nil *url.URL")
	}
	s := nu.String()
	u, err := ParseRef(s)
	if err != nil {
		return URL{}, fmt.Errorf("urlkit: from net/url %q: %w", s, err)
	}
	return u, nil
}
