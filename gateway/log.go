package gateway

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
)

// logWriter records the status and size of a response for the log line.
type logWriter struct {
	http.ResponseWriter
	status  int
	bytes   int64
	aborted string // why the response was cut short, if it was
}

func (w *logWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *logWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// logRequest writes one line in the Common Log Format:
//
//	host ident authuser [date] "request line" status bytes
//
// with the password of any URL in the request line masked and the line's
// quotes, backslashes and non-printable bytes escaped.
func (g *Gateway) logRequest(w *logWriter, r *http.Request, start time.Time) {
	if g.cfg.Log == nil {
		return
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	size := "-"
	if w.bytes > 0 {
		size = fmt.Sprint(w.bytes)
	}
	line := fmt.Sprintf("%s - - [%s] \"%s\" %d %s", host, start.Format("02/Jan/2006:15:04:05 -0700"),
		logEscape(r.Method+" "+redactTarget(r.RequestURI)+" "+r.Proto), status, size)
	if w.aborted != "" {
		line += " \"aborted: " + logEscape(w.aborted) + "\""
	}
	g.logMu.Lock()
	defer g.logMu.Unlock()
	fmt.Fprintln(g.cfg.Log, line)
}

// redactTarget masks the password of the URL in a request-target, in the
// proxy form or the path form ("/" and the URL).
func redactTarget(t string) string {
	if strings.HasPrefix(t, "/") {
		return "/" + urlkit.RedactString(t[1:])
	}
	return urlkit.RedactString(t)
}

// logEscape escapes '"', '\' and bytes outside printable ASCII as \xHH.
func logEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\x%02x", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
