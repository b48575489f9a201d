package gateway

import (
	"bytes"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// problem is what an error page says: the status, what failed in plain
// words (access.PlainError's, as the command line prints them), the URL
// that failed (without user or password: the URL box is filled with it,
// and Retry asks for it again), and for input typed into the URL box the
// input with the offending byte marked.
type problem struct {
	Status  int
	Message string
	Target  string       // the URL asked for, "" when none
	Retry   template.URL // the address that asks for Target again
	Input   []inputPart  // the typed input, in pieces, one of them marked
	Repairs []string     // what the lenient reading repaired (a 303's page, or Fix's)
	// Fix is the URL as the lenient reading repairs it, when it can: the
	// page links to it (FixHref).
	Fix     string
	FixHref template.URL
	FixText string // what the link to Fix is ("" : the lenient reading's repair)
}

// inputPart is a piece of typed input; Bad marks the offending byte.
type inputPart struct {
	Text string
	Bad  bool
}

// errorPage answers with the status and message of p: an HTML page for
// browsers, text/plain for clients that prefer it (wantsHTML). Headers set
// before (Allow, Location) are kept.
func (g *Gateway) errorPage(w http.ResponseWriter, r *http.Request, p problem) {
	h := w.Header()
	if p.Target != "" && p.Retry == "" {
		p.Retry = template.URL("/" + p.Target)
		if r != nil && !strings.HasPrefix(r.RequestURI, "/") {
			p.Retry = template.URL(p.Target) // the proxy form: the URL itself
		}
	}
	proxy := r != nil && !strings.HasPrefix(r.RequestURI, "/")
	if p.Fix != "" {
		p.FixHref = template.URL("/" + p.Fix)
		if proxy {
			p.FixHref = template.URL(p.Fix)
		}
	}
	if r == nil || !wantsHTML(r.Header.Get("Accept")) {
		// One line, for curl and scripts: the status, what is wrong
		// (where, for a URL: its offset), and the repaired URL to ask for.
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
		var b strings.Builder
		fmt.Fprintf(&b, "urlkit gateway: %d %s: %s", p.Status, http.StatusText(p.Status), oneLine(p.Message))
		if len(p.Repairs) > 0 {
			b.WriteString("; repaired: " + oneLine(strings.Join(p.Repairs, "; ")))
		}
		if p.Fix != "" {
			b.WriteString("; try " + string(p.FixHref))
		}
		b.WriteString("\n")
		h.Set("Content-Length", strconv.Itoa(b.Len()))
		w.WriteHeader(p.Status)
		w.Write([]byte(b.String()))
		return
	}
	var b bytes.Buffer
	data := struct {
		problem
		Title, StatusText string
		Proxy             bool
		bar
	}{p, fmt.Sprintf("%d %s", p.Status, http.StatusText(p.Status)), http.StatusText(p.Status), proxy, bar{URL: p.Target}}
	if len(p.Input) > 0 {
		var in strings.Builder
		for _, part := range p.Input {
			in.WriteString(part.Text)
		}
		data.bar.URL = strings.TrimSpace(in.String()) // the box keeps what was typed
	}
	if err := pages.ExecuteTemplate(&b, "error", data); err != nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "urlkit gateway: page template: %v\n", err)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(p.Status)
	w.Write(b.Bytes())
}

// wantsHTML reports whether a client's Accept header prefers an HTML page
// to plain text (RFC 9110 12.5.1): it names text/html (or XHTML) with a
// weight above zero and at least plain text's. Browsers and lynx send
// such a header; curl ("*/*") and urlkit get (none) get plain text.
func wantsHTML(accept string) bool {
	html, plain := -1.0, -1.0
	for _, field := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(field))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil {
				q = v
			}
		}
		switch mt {
		case "text/html", "application/xhtml+xml":
			html = max(html, q)
		case "text/plain":
			plain = max(plain, q)
		case "text/*", "*/*":
			plain = max(plain, q*0.999) // a wildcard weighs less than a name
		}
	}
	return html > 0 && html >= plain
}

// oneLine is s with its line breaks made spaces.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
