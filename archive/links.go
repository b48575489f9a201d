package archive

import (
	"bufio"
	"io"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
)

// A Link is one link a listing names: its URL as the listing gives it
// (not checked: a link that is no URL is the caller's to judge), and for
// an item of a gopher menu its item type (RFC 1436 3.8), zero otherwise.
type Link struct {
	URL        string
	GopherType byte
}

// ListingLinks reads the listing r, as access.Execute returns it or
// ResourceOf reads it back from a record of target, and calls each with
// every link it names: a gopher menu's items (information and error lines
// are not links), an ftp directory's entries (as URLs under target, a
// directory's ending in "/"), a WAIS search's hits, a Prospero
// directory's prospero: links. It returns false, reading nothing, for a
// resource that is not a listing (a document). Lines longer than maxLine
// bytes (zero: access.DefaultMaxReplyLine) are an error; memory is
// bounded by that line whatever the listing's length. This is the one
// link-finding of urlkit's listings: a recursive capture follows these
// links, and the link-set pipeline reads them from archives.
func ListingLinks(r *access.Resource, target urlkit.URL, maxLine int, each func(Link)) (bool, error) {
	if maxLine <= 0 {
		maxLine = access.DefaultMaxReplyLine
	}
	switch {
	case r.Kind == "menu":
		mr := access.NewMenuReader(r, maxLine)
		for {
			it, err := mr.Next()
			if err == io.EOF {
				return true, nil
			}
			if err != nil {
				return true, err
			}
			if u, err := it.URL(); err == nil {
				each(Link{URL: u, GopherType: it.Type})
			}
		}
	case r.Kind == "directory" && ProtocolOf(r.Plan) == "ftp":
		base := target.WithoutFragment().String()
		if i := strings.LastIndex(base, ";type="); i > strings.LastIndexByte(base, '/') {
			base = base[:i] // RFC 1738 3.2.2: ;type=d names the listing, not a segment
		}
		if !strings.HasSuffix(base, "/") {
			base += "/" // a name the server took for a directory
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		now := time.Now()
		for sc.Scan() {
			e, skip := access.ParseListLine(r.ListFormat, strings.TrimRight(sc.Text(), "\r"), now)
			if skip || e.Name == "" || strings.ContainsAny(e.Name, "/\x00") {
				continue
			}
			u := base + urlkit.EscapeSegment(e.Name)
			if e.Kind == access.KindDir {
				u += "/"
			}
			each(Link{URL: u})
		}
		return true, sc.Err()
	case r.Kind == "search":
		hits, _, err := access.ReadWAISHits(r)
		if err != nil {
			return true, err
		}
		for _, h := range hits {
			each(Link{URL: h.URL})
		}
		return true, nil
	case r.Kind == "directory" && ProtocolOf(r.Plan) == "prospero":
		pr := access.NewProsperoListReader(r)
		for {
			e, err := pr.Next()
			if err == io.EOF {
				return true, nil
			}
			if err != nil {
				return true, err
			}
			if e.URL != "" && strings.HasPrefix(e.URL, "prospero:") {
				each(Link{URL: e.URL})
			}
		}
	}
	return false, nil
}
