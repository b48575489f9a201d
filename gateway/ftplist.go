package gateway

import (
	"bufio"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/access"
)

// fileRow is one row of an ftp directory page: a name linked relatively
// ("./name", "./name/" for a directory), its size in a person's units with
// the exact count on hover, its date as the listing gives it, and its kind;
// or, for a line of the listing in no format the gateway reads, the line as
// text (Raw).
type fileRow struct {
	Name  string
	Href  template.URL
	Size  string // "50.0 KiB", "" when unknown
	Bytes string // "51,200 bytes", for the title attribute
	Date  string
	Kind  string
	Raw   string
}

// ftpListing renders an ftp directory listing written in format (which
// of NLST, MLSD and LIST the server answered; access.ParseListLine reads
// each line), row by row as the listing arrives (stream.go).
func (g *Gateway) ftpListing(q *request, rc io.Reader, format access.ListFormat) {
	now := g.now()
	head := &pageHead{Title: stripUserinfo(q.u.String()), Heading: "ftp directory", Proxy: q.proxy, Details: format != access.ListNames,
		bar: bar{URL: q.shown(), trail: ftpTrail(q.u)}}
	if p, _ := q.u.Path(); p != "" && p != "/" {
		head.Parent = true
	}
	pg := g.newPage(q, "ftpdir", head)
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		e, skip := access.ParseListLine(format, sc.Text(), now)
		if skip {
			continue
		}
		if !pg.Item(ftpRow(e)) {
			pg.End(nil)
			return
		}
	}
	pg.End(sc.Err())
}

// ftpRow is the row for one entry.
func ftpRow(e access.DirEntry) fileRow {
	if !e.Parsed {
		return fileRow{Raw: e.Raw}
	}
	r := fileRow{Name: e.Name, Href: template.URL("./" + escapeSegment(e.Name))}
	switch e.Kind {
	case access.KindDir:
		r.Name += "/"
		r.Href += "/"
		r.Kind = "directory"
	case access.KindLink:
		r.Kind = "link"
		if e.Link != "" {
			r.Kind = "link to " + e.Link
		}
	case access.KindOther:
		r.Kind = "special file"
		r.Href = ""
	default:
		r.Kind = kindByName(e.Name)
	}
	if e.Size >= 0 && e.Kind != access.KindDir {
		r.Size, r.Bytes = humanSize(e.Size), groupDigits(e.Size)+" bytes"
	}
	switch e.Precision {
	case access.TimeDay:
		r.Date = e.Time.Format("2006-01-02")
	case access.TimeMinute, access.TimeSecond:
		r.Date = e.Time.Format("2006-01-02 15:04")
	}
	return r
}

// humanSize writes n bytes in binary units with one decimal, as ls -lh
// and lynx do: "256 B", "50.0 KiB", "3.2 MiB".
func humanSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	const units = "KMGTPE"
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i:i+1] + "iB"
}

// groupDigits writes n with a comma between groups of three digits.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
