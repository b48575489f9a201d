// Package archive keeps what urlkit fetches as WARC/1.1 records (ISO
// 28500:2017) and gives it back: capture writes the exact exchanges of
// package access into records by each scheme's convention; replay reads
// them back into the resources access returns.
//
// This file is the one statement of the record conventions (see
// docs/archiving.md for the reasons behind each choice). Capture and
// replay both go through it: [PayloadMediaType] is the way from a
// retrieval to the Content-Type of its record, [ResourceOf] the way back,
// both over the one table kinds, so the two sides cannot drift.
package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// The WARC record types urlkit writes (WARC/1.1 section 6).
const (
	TypeWarcinfo = "warcinfo"
	TypeRequest  = "request"
	TypeResponse = "response"
	TypeResource = "resource"
	TypeMetadata = "metadata"
	TypeRevisit  = "revisit"
)

// The HTTP record media types, as wget, warcio and Heritrix write them
// (WARC/1.1 annex, application/http of RFC 9112 section 10.1).
const (
	HTTPRequestType  = "application/http; msgtype=request"
	HTTPResponseType = "application/http; msgtype=response"
)

// RevisitProfile is the profile of the revisit records urlkit writes: the
// payload is the same as that of an earlier record (WARC/1.1 section 6.7.2).
const RevisitProfile = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

// A Convention is how the retrievals of one protocol are written as
// records.
type Convention struct {
	// Protocol is the name of the protocol client of package access
	// ("gopher", "ftp", "nntp", "http", "wais", "prospero", "file"),
	// which is also the Connection.Protocol of its connections.
	Protocol string
	// WARCProtocol is the value of the WARC-Protocol field (the IIPC
	// proposal, iipc/warc-specifications issue 42), "" when none is
	// written. For http it is given by the response's version
	// (HTTPProtocol) and this is "".
	WARCProtocol string
	// Payload is the WARC-Type of the record holding what came back:
	// TypeResponse for http (status, header and body as received),
	// TypeResource for the others (the resource, protocol framing
	// removed, as access delivers it).
	Payload string
	// Exchange is the WARC-Type of the record holding what was sent:
	// TypeRequest for http, TypeMetadata for the others ("" for file,
	// which sends nothing). It is tied to the payload record by
	// WARC-Concurrent-To.
	Exchange string
	// ExchangeType is the Content-Type of that record.
	ExchangeType string
}

// The media types of the exchange records that are not http's. ftp's is
// Heritrix's; the others follow its pattern (see docs/archiving.md for the
// format of their blocks).
const (
	FTPConversationType      = "text/x-ftp-control-conversation"
	GopherConversationType   = "text/x-gopher-conversation"
	NNTPConversationType     = "text/x-nntp-conversation"
	WAISConversationType     = "application/x-wais-conversation"
	ProsperoConversationType = "application/x-prospero-conversation"
)

var conventions = []Convention{
	{Protocol: "http", Payload: TypeResponse, Exchange: TypeRequest, ExchangeType: HTTPRequestType},
	{Protocol: "ftp", WARCProtocol: "ftp", Payload: TypeResource, Exchange: TypeMetadata, ExchangeType: FTPConversationType},
	{Protocol: "gopher", WARCProtocol: "gopher", Payload: TypeResource, Exchange: TypeMetadata, ExchangeType: GopherConversationType},
	{Protocol: "nntp", WARCProtocol: "nntp", Payload: TypeResource, Exchange: TypeMetadata, ExchangeType: NNTPConversationType},
	{Protocol: "wais", WARCProtocol: "wais", Payload: TypeResource, Exchange: TypeMetadata, ExchangeType: WAISConversationType},
	{Protocol: "prospero", WARCProtocol: "prospero", Payload: TypeResource, Exchange: TypeMetadata, ExchangeType: ProsperoConversationType},
	{Protocol: "file", Payload: TypeResource},
}

// ConventionOf returns the convention of a protocol client's name (see
// ProtocolOf).
func ConventionOf(protocol string) (Convention, bool) {
	for _, c := range conventions {
		if c.Protocol == protocol {
			return c, true
		}
	}
	return Convention{}, false
}

// ProtocolOf returns the name of the access client that carries out p:
// "news" and "nntp" URLs both give "nntp", "http" and "https" "http".
func ProtocolOf(p scheme.Plan) string {
	switch p.(type) {
	case *scheme.HTTPPlan:
		return "http"
	case *scheme.FTPPlan:
		return "ftp"
	case *scheme.GopherPlan:
		return "gopher"
	case *scheme.NNTPPlan:
		return "nntp"
	case *scheme.WAISPlan:
		return "wais"
	case *scheme.ProsperoPlan:
		return "prospero"
	case *scheme.FilePlan:
		return "file"
	}
	return ""
}

// HTTPProtocol returns the WARC-Protocol value of an HTTP message of
// version proto ("HTTP/1.1" gives "http/1.1", as the proposal spells it).
func HTTPProtocol(proto string) string { return strings.ToLower(proto) }

// A kind is one sort of resource a protocol client returns that is not a
// document: its Kind and ListFormat in access, the media type its record
// is written with, and the ContentType access gives it.
type kind struct {
	protocol    string
	kind        string
	list        access.ListFormat
	media       string // the record's Content-Type, parameters included
	contentType string // Resource.ContentType
}

// kinds is the one table of listing media types. A resource of Kind
// "file" (a document) is written with the ContentType access gave it, or
// OctetStream when it gave none.
var kinds = []kind{
	{"gopher", "menu", "", "text/x-gopher-menu", "text/x-gopher-menu"},
	{"ftp", "directory", access.ListNames, "text/x-ftp-listing; format=nlst", ""},
	{"ftp", "directory", access.ListFacts, "text/x-ftp-listing; format=mlsd", ""},
	{"ftp", "directory", access.ListLong, "text/x-ftp-listing; format=list", ""},
	{"nntp", "article", "", "message/rfc822", "message/rfc822"},
	{"nntp", "overview", "", "text/x-nntp-overview", "text/plain"},
	{"nntp", "groups", "", "text/x-nntp-list", "text/plain"},
	{"wais", "search", "", "text/x-wais-hits; charset=utf-8", "text/plain; charset=utf-8"},
	{"prospero", "directory", "", "text/x-prospero-listing; charset=utf-8", "text/plain; charset=utf-8"},
	{"file", "directory", "", "text/x-file-directory", "text/plain"},
}

// OctetStream is the media type of a document whose type access does not
// know (an ftp file, a Prospero file): replay gives it as its
// ContentType, where access gave "".
const OctetStream = "application/octet-stream"

// fallbackParam marks an ftp listing that answers a URL naming a file: the
// server refused RETR and accepted the name as a directory
// (access.Resource.Directory).
const fallbackParam = "fallback"

// ErrNotCapturable is wrapped by the error for a resource no record
// convention covers: the answer to a HEAD plan (Kind "head", "attributes"),
// or a plan of no retrieving protocol.
var ErrNotCapturable = errors.New("no WARC record convention for it")

// PayloadMediaType returns the Content-Type of the resource record that
// holds r, a resource that access.Execute returned for a plan that is not
// http's (OctetStream for a document whose type access does not know). It
// is the inverse of ResourceOf.
func PayloadMediaType(r *access.Resource) (string, error) {
	proto := ProtocolOf(r.Plan)
	if proto == "" || proto == "http" {
		return "", fmt.Errorf("archive: %T: %w (http is written as a response record)", r.Plan, ErrNotCapturable)
	}
	if r.Kind == "file" {
		if r.ContentType == "" {
			// WARC/1.1 5.6 wants a Content-Type on every record with a
			// block; unknown is application/octet-stream (RFC 2046 4.5.1).
			return OctetStream, nil
		}
		return r.ContentType, nil
	}
	for _, k := range kinds {
		if k.protocol == proto && k.kind == r.Kind && k.list == r.ListFormat {
			if r.Directory {
				return k.media + "; " + fallbackParam + "=cwd", nil
			}
			return k.media, nil
		}
	}
	return "", fmt.Errorf("archive: %s resource of kind %q: %w", proto, r.Kind, ErrNotCapturable)
}

// Captured is a record as ResourceOf reads it: the fields of its header it
// needs, and its block.
type Captured struct {
	// Type is the WARC-Type: TypeResource, or TypeResponse for http.
	// (A revisit is read as the record it refers to, with the revisit's
	// TargetURI.)
	Type string
	// TargetURI is the WARC-Target-URI.
	TargetURI string
	// ContentType is the record's Content-Type, "" when it has none.
	ContentType string
	// Length is the block's length (the record's Content-Length).
	Length int64
	// Block is the record's block; ResourceOf's resource reads it and
	// closes it.
	Block io.ReadCloser
}

// ResourceOf returns what access.Execute returned when the record c was
// captured: Plan (the plan of the target URI, planned with cfg), Kind,
// ListFormat, ContentType, Directory, and the payload as the stream. Size
// is the payload's length, exact where access gives what the server
// announced. For an http response it is the body (chunked transfer coding
// undone), with Status and Header; a redirect is the *access.RedirectError
// and another status that is not 2xx the *access.HTTPStatusError that
// access returns (without FollowRedirects). It is the inverse of
// PayloadMediaType.
func ResourceOf(c Captured, cfg scheme.Config) (*access.Resource, error) {
	fail := func(err error) (*access.Resource, error) {
		c.Block.Close()
		return nil, err
	}
	u, err := urlkit.Parse(c.TargetURI)
	if err != nil {
		if u, err = urlkit.ParseExtended(c.TargetURI); err != nil {
			return fail(fmt.Errorf("archive: WARC-Target-URI %q: %w", c.TargetURI, err))
		}
	}
	p, err := scheme.PlanOf(u, cfg)
	if err != nil {
		return fail(fmt.Errorf("archive: WARC-Target-URI %q: %w", c.TargetURI, err))
	}
	proto := ProtocolOf(p)
	conv, ok := ConventionOf(proto)
	if !ok {
		return fail(fmt.Errorf("archive: WARC-Target-URI %q: %w", c.TargetURI, ErrNotCapturable))
	}
	if c.Type != conv.Payload {
		return fail(fmt.Errorf("archive: %s record for %q: a %s retrieval is kept in a %s record", c.Type, c.TargetURI, proto, conv.Payload))
	}
	if proto == "http" {
		return httpResource(c, p)
	}
	r := &access.Resource{ReadCloser: c.Block, Plan: p, Kind: "file", ContentType: c.ContentType, Size: c.Length}
	if c.ContentType == "" {
		r.ContentType = OctetStream // WARC/1.1 5.6: what a record without one holds
		return r, nil
	}
	mt, params, err := mime.ParseMediaType(c.ContentType)
	if err != nil {
		return fail(fmt.Errorf("archive: record for %q: Content-Type %q: %w", c.TargetURI, c.ContentType, err))
	}
	for _, k := range kinds {
		if k.protocol != proto {
			continue
		}
		kt, kp, _ := mime.ParseMediaType(k.media)
		if kt != mt || kp["format"] != params["format"] {
			continue
		}
		r.Kind, r.ListFormat, r.ContentType = k.kind, k.list, k.contentType
		r.Directory = params[fallbackParam] == "cwd"
		return r, nil
	}
	return r, nil
}

// httpResource reads an http response record: status line and header,
// then the body.
func httpResource(c Captured, p scheme.Plan) (*access.Resource, error) {
	hp := p.(*scheme.HTTPPlan)
	resp, err := http.ReadResponse(bufio.NewReader(c.Block), &http.Request{Method: hp.Method})
	if err != nil {
		c.Block.Close()
		return nil, fmt.Errorf("archive: response record for %q: %w", c.TargetURI, err)
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
		resp.Body.Close()
		c.Block.Close()
		return nil, &access.RedirectError{URL: hp.URL, Code: resp.StatusCode, Location: loc,
			Reason: "the archive holds this redirect; its target is a capture of its own"}
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		c.Block.Close()
		return nil, &access.HTTPStatusError{URL: hp.URL, Code: resp.StatusCode, Status: resp.Status}
	}
	body := struct {
		io.Reader
		io.Closer
	}{resp.Body, closers{resp.Body, c.Block}}
	return &access.Resource{ReadCloser: body, Plan: p, Kind: "file", ContentType: resp.Header.Get("Content-Type"),
		Size: resp.ContentLength, Status: resp.Proto + " " + resp.Status, Header: resp.Header}, nil
}

// closers closes each in turn, returning the first error.
type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
