package gateway

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// logWriter records the status and size of a response for the log line.
type logWriter struct {
	http.ResponseWriter
	status  int
	bytes   int64
	aborted string // why the response was cut short, if it was
	note    string // a remark on a complete response (a truncated page)
	rule    string // the policy rule the request was refused by
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

// Flush sends what has been written to the client.
func (w *logWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the underlying ResponseWriter (for http.ResponseController).
func (w *logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequest writes one line in the Common Log Format:
//
//	host ident authuser [date] "request line" status bytes
//
// with the password of any URL in the request line masked and the line's
// quotes, backslashes and non-printable bytes escaped.
func (g *Gateway) logRequest(w *logWriter, r *http.Request, start time.Time) {
	if g.cfg.LogJSON != nil {
		g.logJSON(w, r, start)
	}
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
	bp := logPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 4<<10 { // a huge request line's buffer is not kept
			logPool.Put(bp)
		}
	}()
	b := append((*bp)[:0], host...)
	b = append(b, " - - ["...)
	b = start.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] \""...)
	b = appendLogEscape(b, r.Method)
	b = append(b, ' ')
	b = appendLogEscape(b, redactTarget(r.RequestURI))
	b = append(b, ' ')
	b = appendLogEscape(b, r.Proto)
	b = append(b, "\" "...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	if w.bytes > 0 {
		b = strconv.AppendInt(b, w.bytes, 10)
	} else {
		b = append(b, '-')
	}
	if w.aborted != "" {
		b = append(b, " \"aborted: "...)
		b = appendLogEscape(b, w.aborted)
		b = append(b, '"')
	}
	if w.note != "" {
		b = append(b, " \"note: "...)
		b = appendLogEscape(b, w.note)
		b = append(b, '"')
	}
	b = append(b, '\n')
	*bp = b
	// One Write per line, so that lines from concurrent requests do not
	// interleave; the line is built before the lock is taken.
	g.logMu.Lock()
	defer g.logMu.Unlock()
	g.cfg.Log.Write(b)
}

// logPool holds the buffers log lines are built in.
var logPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// redactTarget masks the password of the URL in a request-target, in the
// proxy form or the path form ("/" and the URL).
func redactTarget(t string) string {
	if strings.HasPrefix(t, "/") {
		return "/" + urlkit.RedactString(t[1:])
	}
	return urlkit.RedactString(t)
}

// appendLogEscape appends s to b with '"', '\' and bytes outside
// printable ASCII escaped as \xHH.
func appendLogEscape(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

// note records a remark about q's response for its log line: a page cut
// at its cap, a listing that ended early, a resource longer than its
// server announced.
func (g *Gateway) note(q *request, s string) {
	if w, ok := q.w.(*logWriter); ok {
		w.note = scrub(s, q.user, q.pass)
	}
}

// logJSON writes one JSON object per request, on one line, with the facts
// of the Common Log Format line and what it has no field for:
//
//	{"time":"2026-11-28T18:00:00.123Z","client":"127.0.0.1","method":"GET",
//	 "target":"/gopher://h/1/","proto":"HTTP/1.1","status":200,"bytes":1234,
//	 "duration_ms":12.5,"rule":"T2","aborted":"...","note":"..."}
//
// the target's password masked as in the Common Log Format; rule, aborted
// and note only when there is one. Strings are escaped by the project's
// JSON writer (internal/jsonw): a byte of invalid UTF-8 is written \udcXX.
func (g *Gateway) logJSON(w *logWriter, r *http.Request, start time.Time) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	bp := logPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 4<<10 {
			logPool.Put(bp)
		}
	}()
	j := jsonw.Writer{B: (*bp)[:0]}
	j.Open()
	j.KStr("time", start.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	j.KStr("client", host)
	j.KStr("method", r.Method)
	j.KStr("target", redactTarget(r.RequestURI))
	j.KStr("proto", r.Proto)
	j.KNum("status", status)
	j.KNum("bytes", int(w.bytes))
	j.Key("duration_ms")
	j.Value(func(b []byte) []byte {
		return strconv.AppendFloat(b, float64(g.now().Sub(start).Microseconds())/1000, 'f', -1, 64)
	})
	j.KNonEmpty("rule", w.rule)
	j.KNonEmpty("aborted", w.aborted)
	j.KNonEmpty("note", w.note)
	j.Close()
	b := append(j.B, '\n')
	*bp = b
	g.logMu.Lock()
	defer g.logMu.Unlock()
	g.cfg.LogJSON.Write(b)
}
