package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/urlkit/urlkit/scheme"
)

// ErrNotRetrievable is wrapped by the error Open returns for a plan that
// names no retrieval this package carries out: an interactive session
// (telnet, tn3270, rlogin), a message to compose (mailto), or a protocol
// urlkit has no client for (wais, prospero, mid, cid).
var ErrNotRetrievable = errors.New("protocol not supported for retrieval")

// Open carries out an access plan of the scheme package and returns the
// resource as a stream. Each plan maps field for field onto this package's
// request for its protocol: an *scheme.FTPPlan onto an FTPRequest, a
// *scheme.GopherPlan onto a GopherRequest, a *scheme.NNTPPlan onto an
// NNTPRequest, a *scheme.HTTPPlan onto an HTTPRequest and a
// *scheme.FilePlan onto a FileRequest.
//
// prompt, when not nil, is asked for an FTP password when the URL gives a
// user without one and the server asks for it (RFC 1738 3.2.1).
func Open(ctx context.Context, p scheme.Plan, opts *Options, prompt func(context.Context) (string, error)) (io.ReadCloser, error) {
	switch p := p.(type) {
	case *scheme.FTPPlan:
		return FetchFTP(ctx, FTPRequestFor(p, prompt), opts)
	case *scheme.GopherPlan:
		return FetchGopher(ctx, GopherRequestFor(p), opts)
	case *scheme.NNTPPlan:
		return FetchNNTP(ctx, NNTPRequestFor(p), opts)
	case *scheme.HTTPPlan:
		return FetchHTTP(ctx, &HTTPRequest{URL: p.URL}, opts)
	case *scheme.FilePlan:
		return OpenFile(ctx, &FileRequest{Path: p.Path}, opts)
	case nil:
		return nil, errors.New("access: no plan")
	}
	return nil, fmt.Errorf("access: %s: %w", p.Scheme(), ErrNotRetrievable)
}

// FTPRequestFor maps an ftp plan onto an FTPRequest.
func FTPRequestFor(p *scheme.FTPPlan, prompt func(context.Context) (string, error)) *FTPRequest {
	return &FTPRequest{
		Addr: p.Addr, User: p.User, Password: p.Password,
		HasUser: p.HasUser, HasPassword: p.HasPassword,
		CWD: p.CWD, Name: p.Name, Type: p.Type,
		PasswordPrompt: prompt,
	}
}

// GopherRequestFor maps a gopher plan onto a GopherRequest.
func GopherRequestFor(p *scheme.GopherPlan) *GopherRequest {
	return &GopherRequest{
		Addr: p.Addr, Type: p.Type, Selector: p.Selector,
		Search: p.Search, HasSearch: p.HasSearch,
		PlusString: p.PlusString, HasPlus: p.HasPlus,
	}
}

// NNTPRequestFor maps a news or nntp plan onto an NNTPRequest.
func NNTPRequestFor(p *scheme.NNTPPlan) *NNTPRequest {
	return &NNTPRequest{Addr: p.Addr, Group: p.Group, Article: p.Article, MessageID: p.MessageID, ListGroups: p.ListGroups}
}

// SessionFor maps a telnet, tn3270 or rlogin plan onto a Session.
func SessionFor(p *scheme.Session) *Session {
	return &Session{
		Program: p.Program, Host: p.Host, Port: strconv.Itoa(p.Port),
		User: p.User, Password: p.Password, HasPassword: p.HasPassword,
	}
}
