package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
)

// DefaultMaxRedirects is the number of redirects FetchHTTP follows when
// HTTPRequest.MaxRedirects is zero.
const DefaultMaxRedirects = 10

// HTTPRequest is a GET of an http URL (RFC 1738 section 3.3).
type HTTPRequest struct {
	// URL is the absolute http URL to get.
	URL string
	// Header holds extra request header fields.
	Header http.Header
	// IncludeHeaders puts the final response's status line and header
	// fields, then an empty line, before the body (like curl -i).
	IncludeHeaders bool
	// MaxRedirects bounds the redirects followed (net/http resolves each
	// Location against the current URL as RFC 3986 does). Zero means
	// DefaultMaxRedirects; negative means none are followed.
	MaxRedirects int
	// Transport, when set, replaces the transport built from Options.
	Transport http.RoundTripper
}

// HTTPStatusError reports a final response whose status is not 2xx.
type HTTPStatusError struct {
	URL    string // the URL that gave the status, after redirects
	Code   int
	Status string // e.g. "404 Not Found"
}

// Error formats the failure for a person.
func (e *HTTPStatusError) Error() string {
	return fmt.Sprintf("http: GET %s: %s", e.URL, e.Status)
}

// TooManyRedirectsError reports a chain of redirects longer than allowed.
type TooManyRedirectsError struct {
	Limit int
}

// Error formats the failure for a person.
func (e *TooManyRedirectsError) Error() string {
	return fmt.Sprintf("http: stopped after %d redirects", e.Limit)
}

// FetchHTTP sends a GET and returns the final response's body (preceded by
// its header when IncludeHeaders is set). A status other than 2xx gives a
// *HTTPStatusError. The idle read timeout applies to each read of the
// connection; Options.MaxSize and Progress apply to the body.
func FetchHTTP(ctx context.Context, req *HTTPRequest, opts *Options) (io.ReadCloser, error) {
	if opts == nil {
		opts = &Options{}
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	for k, v := range req.Header {
		hreq.Header[k] = append([]string(nil), v...)
	}
	rt := req.Transport
	if rt == nil {
		rt = &http.Transport{
			Proxy: http.ProxyFromEnvironment,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := opts.dial(ctx, "http", addr)
				if err != nil {
					return nil, err
				}
				return &deadlineConn{Conn: c, idle: opts.readTimeout()}, nil
			},
			ResponseHeaderTimeout: max(opts.readTimeout(), 0),
			DisableKeepAlives:     true,
		}
	}
	limit := req.MaxRedirects
	if limit == 0 {
		limit = DefaultMaxRedirects
	}
	client := &http.Client{
		Transport: rt,
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if limit < 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > limit {
				return &TooManyRedirectsError{Limit: limit}
			}
			opts.tracef("C: GET %s (redirected)", r.URL)
			return nil
		},
	}
	opts.tracef("C: GET %s", req.URL)
	resp, err := client.Do(hreq)
	if err != nil {
		var tm *TooManyRedirectsError
		if errors.As(err, &tm) {
			return nil, tm
		}
		return nil, fmt.Errorf("http: %w", err)
	}
	opts.tracef("S: %s %s", resp.Proto, resp.Status)
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		return nil, &HTTPStatusError{URL: resp.Request.URL.String(), Code: resp.StatusCode, Status: resp.Status}
	}
	var r io.Reader = resp.Body
	if opts != nil && opts.Size != nil && resp.ContentLength >= 0 && !req.IncludeHeaders {
		opts.Size(resp.ContentLength)
	}
	if req.IncludeHeaders {
		var h bytes.Buffer
		fmt.Fprintf(&h, "%s %s\r\n", resp.Proto, resp.Status)
		keys := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, v := range resp.Header[k] {
				fmt.Fprintf(&h, "%s: %s\r\n", k, v)
			}
		}
		h.WriteString("\r\n")
		r = io.MultiReader(&h, resp.Body)
	}
	return newBody(ctx, r, opts, nil, resp.Body.Close), nil
}
