package gateway

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"sync"
)

// Listing pages (gopher menus, ftp directories, group lists, article
// overviews) are written as the listing arrives, item by item: nothing of
// the listing is kept, so a page costs the same memory whatever the
// upstream sends. A page is the head every page has (appendHead, with the
// data given to newPage) and three templates of pages.go: KIND-start (what
// the kind writes after the head, once, with the same data), KIND-item
// (one item, with the data given to Item) and KIND-end (with the same data
// as the start, its Truncated and Failed fields set); "page-end" is the
// end every kind shares (the truncation or error line and the footer).
// A new kind of page adds its three templates and calls newPage, Item and
// End.

// Defaults for the page caps of Config.
const (
	DefaultMaxPageItems = 10000
	DefaultMaxPageBytes = 8 << 20
)

// pageHold is how much of a page is held before the response starts: a
// listing that fails before it has any item still gets its error status,
// and a page that fits gets a Content-Length.
const pageHold = 32 << 10

// pageHead is the data of a page's start and end templates. Kinds add
// what they need here.
type pageHead struct {
	Title   string       // the URL shown, without user or password
	Heading string       // what the page is: "gopher menu", "newsgroups", ...
	Proxy   bool         // the request came in the proxy form
	Parent  bool         // an ftp directory below the root: a "../" line
	Details bool         // an ftp directory whose listing gave sizes or dates
	Style   template.CSS // style rules of this kind of page (menuStyle)
	// A page of WAIS hits: its search form, sent to Action, asks
	// Database again, with Words in the field.
	Action          template.URL
	Database, Words string
	formOrigin      string // another origin Action may be on (formAction)
	bar                    // the header bar: the URL box's value, breadcrumbs, up
	// Set when the page ends.
	Items     int    // items written
	Truncated string // why the page stops before the listing's end
	Failed    string // why the listing ended early (an upstream error)
}

// page is one listing page being written.
type page struct {
	g         *Gateway
	q         *request
	kind      string
	head      *pageHead
	item      *template.Template
	hold      *pageBuf     // the page until it is committed, then a batch (pageBufs)
	one       bytes.Buffer // one item
	committed bool
	gone      bool  // the client went away
	tmplErr   error // a template failed (a bug): the page is abandoned
	items     int
	size      int64
	maxItems  int
	maxBytes  int64
}

// newPage starts a page of kind for q: nothing is sent yet.
func (g *Gateway) newPage(q *request, kind string, head *pageHead) *page {
	p := &page{g: g, q: q, kind: kind, head: head, item: pages.Lookup(kind + "-item"),
		maxItems: g.cfg.MaxPageItems, maxBytes: g.cfg.MaxPageBytes, hold: pageBufs.Get().(*pageBuf)}
	// The head, as the "head" template writes it (with the kind's style
	// rules), then the rest of the kind's start.
	p.hold.b = appendHead(p.hold.b, head.Title, head.Proxy, head.URL, head.Crumbs, head.Up, head.Style)
	p.tmplErr = pages.ExecuteTemplate(p.hold, kind+"-start", head)
	p.hold.b = q.withBanner(p.hold.b)
	return p
}

// Item writes one item. It returns false when the page takes no more:
// the item or byte cap is reached (the page then ends with a "listing
// truncated" line), or the client has gone away. The caller stops reading
// the listing then and calls End.
func (p *page) Item(data any) bool {
	if !p.room() {
		return false
	}
	p.one.Reset()
	if p.tmplErr = p.item.Execute(&p.one, data); p.tmplErr != nil {
		return false
	}
	return p.add(p.one.Bytes())
}

// ItemAppend writes one item that f appends, as HTML (escaped by f), to
// the page's buffer, under the same caps as Item, without a copy of the
// item. Menus use it: their lines are written by hand (menu.go),
// html/template being the cost of a long page. f appends to the slice it
// is given and returns it, as append does.
func (p *page) ItemAppend(f func([]byte) []byte) bool {
	if !p.room() {
		return false
	}
	n := len(p.hold.b)
	p.hold.b = f(p.hold.b)
	if !p.count(len(p.hold.b) - n) {
		p.hold.b = p.hold.b[:n]
		return false
	}
	p.wrote()
	return !p.gone
}

// room reports whether the page takes another item: the client is there,
// no template failed, and the item cap is not reached (the page is then
// marked truncated).
func (p *page) room() bool {
	if p.gone || p.tmplErr != nil || p.head.Truncated != "" {
		return false
	}
	if p.items >= p.maxItems {
		p.head.Truncated = fmt.Sprintf("the listing is truncated here: the gateway shows at most %s entries on a page, and the server sent more", groupDigits(int64(p.maxItems)))
		return false
	}
	return true
}

// add writes the item b, unless it would pass the byte cap.
func (p *page) add(b []byte) bool {
	if !p.count(len(b)) {
		return false
	}
	p.hold.b = append(p.hold.b, b...)
	p.wrote()
	return !p.gone
}

// count counts an item of n bytes, unless it would pass the byte cap
// (the page is then marked truncated).
func (p *page) count(n int) bool {
	if p.size+int64(n) > p.maxBytes {
		p.head.Truncated = fmt.Sprintf("the listing is truncated here: the gateway writes at most %s bytes of entries on a page (%s entries shown), and the server sent more", groupDigits(p.maxBytes), groupDigits(int64(p.items)))
		return false
	}
	p.items++
	p.size += int64(n)
	return true
}

// wrote sends what the page holds, or keeps holding it while the page is
// not committed, after an item was added to it. Once the page is
// committed, items are gathered into writes of about pageBatch bytes
// (one ResponseWriter.Write an item costs more than the item).
func (p *page) wrote() {
	if !p.committed {
		if len(p.hold.b) < pageHold {
			return
		}
		p.commit(false)
		return
	}
	if len(p.hold.b) >= pageBatch {
		p.flush()
	}
}

// pageBatch is the size of the writes of a committed page. net/http
// sends each Write of a chunked response in two system calls whatever its
// size (its 4 KiB buffer filled, then the rest), so the batches are large:
// a 1,000-item menu goes out in three.
const pageBatch = 64 << 10

// pageBufs holds the buffers pages are gathered in (at most pageBatch and
// one item), reused from page to page.
var pageBufs = sync.Pool{New: func() any { return new(pageBuf) }}

// pageBuf is a page's buffer: items are appended to b (ItemAppend), and
// templates write to it.
type pageBuf struct{ b []byte }

// Write appends p.
func (w *pageBuf) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// flush sends what a committed page gathered.
func (p *page) flush() {
	if len(p.hold.b) == 0 || p.gone {
		p.hold.b = p.hold.b[:0]
		return
	}
	if _, err := p.q.w.Write(p.hold.b); err != nil {
		p.gone = true
	}
	p.hold.b = p.hold.b[:0]
}

// commit sends the status and headers and what is held.
func (p *page) commit(whole bool) {
	p.committed = true
	h := p.q.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", cspWithForms(p.head.formOrigin))
	if whole {
		h.Set("Content-Length", strconv.Itoa(len(p.hold.b)))
	}
	p.q.w.WriteHeader(http.StatusOK)
	if _, err := p.q.w.Write(p.hold.b); err != nil {
		p.gone = true
	}
	p.hold.b = p.hold.b[:0]
}

// End finishes the page. err is the error that ended the listing (nil at
// its end or when Item refused more): before any item it becomes the
// error answer with its status; after, a line of the page says the
// listing is incomplete and why.
func (p *page) End(err error) {
	defer func() {
		if cap(p.hold.b) <= 2*pageBatch { // a page of one huge item does not keep its buffer
			p.hold.b = p.hold.b[:0]
			pageBufs.Put(p.hold)
		}
		p.hold = nil
	}()
	if err != nil && p.items == 0 && !p.committed && p.tmplErr == nil {
		p.g.fail(p.q, err)
		return
	}
	if err != nil {
		p.head.Failed = "the listing ends here, incomplete: " + scrub(err.Error(), p.q.user, p.q.pass)
	}
	p.head.Items = p.items
	if note := p.head.Truncated + p.head.Failed; note != "" {
		p.g.note(p.q, note)
	}
	if p.gone {
		return
	}
	if p.tmplErr == nil {
		p.one.Reset()
		p.tmplErr = pages.ExecuteTemplate(&p.one, p.kind+"-end", p.head)
	}
	if p.tmplErr != nil {
		if !p.committed {
			p.g.errorPage(p.q.w, p.q.r, problem{Status: http.StatusInternalServerError, Message: "page template: " + p.tmplErr.Error()})
			return
		}
		// The status is sent: end the connection without completing the
		// response (as sendBody does).
		panic(http.ErrAbortHandler)
	}
	p.hold.b = append(p.hold.b, p.one.Bytes()...)
	if p.committed {
		p.flush()
		return
	}
	p.commit(true)
}
