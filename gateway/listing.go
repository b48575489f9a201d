package gateway

import (
	"mime"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// A client that names access.ListingType in its Accept header (urlkit get
// --proxy does) gets each listing as the access layer gives it, not as a
// page: a gopher menu as the server sent it, an ftp directory's lines, a
// WAIS search's or a Prospero directory's listing, a group list or an
// overview, typed access.ListingType with its kind, so that the client
// shows it as it shows the listing it fetches itself. Files are relayed
// as for any client. The policy, the caps and the deadline are the same.

// wantsListing reports whether the Accept header fields name
// access.ListingType with a weight above zero, and whether they ask for
// ftp details (its "ftp-details=1" parameter).
func wantsListing(fields []string) (listing, details bool) {
	for _, f := range fields {
		if !strings.Contains(f, access.ListingType) {
			continue // the common case: a browser's, curl's
		}
		for _, field := range strings.Split(f, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(field))
			if err != nil || mt != access.ListingType {
				continue
			}
			if v, ok := params["q"]; ok {
				if w, err := strconv.ParseFloat(v, 64); err != nil || w <= 0 {
					continue
				}
			}
			return true, params["ftp-details"] == "1"
		}
	}
	return false, false
}

// relay executes plan for q and sends what access gives: a listing typed
// access.ListingType, a file as it is.
func (g *Gateway) relay(q *request, plan scheme.Plan) {
	rc, err := g.open(q, plan)
	if err != nil {
		g.fail(q, err)
		return
	}
	q.w.Header().Add("Vary", "Accept")
	if rc.Kind == "file" {
		g.sendBody(q, rc, rc.Size, rc.ContentType)
		return
	}
	params := map[string]string{"kind": rc.Kind}
	if rc.ContentType != "" {
		params["type"] = rc.ContentType
	}
	if rc.ListFormat != "" {
		params["format"] = string(rc.ListFormat)
	}
	if rc.Directory {
		params["directory"] = "1"
	}
	g.sendBody(q, rc, rc.Size, mime.FormatMediaType(access.ListingType, params))
}
