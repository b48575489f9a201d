package scheme

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// FILES (RFC 1738 3.10; RFC 1630, file): file://<host>/<path>

func init() {
	registerChecked("file", func(u urlkit.URL) (View, error) { return FileOf(u) }, checkFile)
}

// File is the view of a file URL.
type File struct {
	u    urlkit.URL
	Host string // as written; "" and "localhost" mean this machine
	// Local reports whether the host is "" or "localhost" (in any case):
	// "the machine from which the URL is being interpreted".
	Local bool
	// Segments are the path's segments, decoded: directories, then the
	// name.
	Segments []string
	// segBuf holds the segments of a short path in the view's own
	// allocation; the raw segments (for error offsets) are recomputed
	// from the URL when needed (segs), which keeps the view to one
	// allocation.
	segBuf [8]string
}

// segs returns the path's raw segments with their offsets.
func (v *File) segs() []part {
	return part{v.u.PathAndSearch(), locOf(v.u).urlPath(), urlkit.ComponentPath}.split('/')
}

// FileOf checks u against RFC 1738's fileurl = "file://" [ host |
// "localhost" ] "/" fpath: the "/" after the host is required, and a
// segment is an fsegment, in which ";" is reserved. File URLs have no
// login, port or search part ("?" belongs to the segment).
func FileOf(u urlkit.URL) (*File, error) {
	if err := checkFile(u); err != nil {
		return nil, err
	}
	v := &File{}
	v.fill(u)
	return v, nil
}

// fill builds v from u, which checkFile has accepted, in v's own storage
// (FileOf, ViewInto).
func (v *File) fill(u urlkit.URL) {
	*v = File{u: u, Host: u.Host()}
	v.Local = localHost(v.Host)
	raw := u.PathAndSearch()
	v.Segments = v.segBuf[:0]
	if n := strings.Count(raw, "/") + 1; n > len(v.segBuf) {
		v.Segments = make([]string, 0, n)
	}
	escapes := strings.IndexByte(raw, '%') >= 0
	for {
		k := strings.IndexByte(raw, '/')
		if k < 0 {
			break
		}
		v.Segments = append(v.Segments, part{raw: raw[:k]}.decodeIf(escapes))
		raw = raw[k+1:]
	}
	v.Segments = append(v.Segments, part{raw: raw}.decodeIf(escapes))
}

// fpathChars are the bytes of an fpath besides escapes: those of an
// fsegment and the "/" between segments (RFC 1738 5).
var fpathChars = ucharTable("?:@&=/")

// localHost reports whether a file URL's host names this machine: "" or
// "localhost", in any case (RFC 1738 3.10).
func localHost(h string) bool { return h == "" || strings.EqualFold(h, "localhost") }

// fpathScan returns the offset in p of the first byte an fpath may not
// hold, or -1. A URL of the strict syntax has a url-path and search part
// of RFC 1738's xchar and escapes only, and of those ";" is the one byte
// an fpath refuses: one vector search finds it (TestFPathScanAgrees,
// FuzzView). A URL of the extended syntax is scanned byte by byte.
func fpathScan(ext bool, p part) int {
	if ext {
		return p.firstNotIn(&fpathChars)
	}
	return strings.IndexByte(p.raw, ';')
}

// checkFile is FileOf's grammar, shared with [Validate]: it builds nothing.
// The path is checked in one pass, "/" allowed between segments; the first
// reserved byte is the one a segment-by-segment check finds first.
func checkFile(u urlkit.URL) error {
	// The common case, valid, decided without building the error's
	// locator: no login, no port, a path, no byte an fpath refuses.
	_, user := u.User()
	_, port := u.RawPort()
	_, path := u.Path()
	if !user && !port && path && fpathScan(u.Extended(), part{raw: u.PathAndSearch()}) < 0 {
		return nil
	}
	l := locOf(u)
	if err := noLogin(l, `RFC 1738 5: fileurl = "file://" [ host | "localhost" ] "/" fpath`); err != nil {
		return err
	}
	if _, ok := u.RawPort(); ok {
		return l.err(l.port()-1, urlkit.ComponentPort, ErrNotAllowed, `a file URL has no port (RFC 1738 5: fileurl = "file://" [ host | "localhost" ] "/" fpath)`)
	}
	if _, ok := u.Path(); !ok {
		return l.err(l.end(), urlkit.ComponentPath, ErrMissing, `a file URL has a "/" and a path after the host (RFC 1738 5: fileurl = "file://" [ host | "localhost" ] "/" fpath)`)
	}
	p := part{u.PathAndSearch(), l.urlPath(), urlkit.ComponentPath}
	if i := fpathScan(u.Extended(), p); i >= 0 {
		return reservedErr(l, p, i, "RFC 1738 5: fsegment = *[ uchar | \"?\" | \":\" | \"@\" | \"&\" | \"=\" ]")
	}
	return nil
}

// URL returns the URL the view was made from.
func (v *File) URL() urlkit.URL { return v.u }

// FilePlan is the local file name a file URL stands for on this machine.
type FilePlan struct {
	Path string
}

// Scheme returns "file".
func (p *FilePlan) Scheme() string { return "file" }

// Steps returns the one step: open the local file.
func (p *FilePlan) Steps() []Step { return []Step{OpenFile{Path: p.Path}} }

// OpenFile is the step of a file plan: open a local file (or list a
// directory).
type OpenFile struct {
	Path string
}

// Op returns "open".
func (OpenFile) Op() string { return "open" }

// Text names the file.
func (o OpenFile) Text() string { return "open the local file " + quoteVisible(o.Path) }

// Plan returns the local file name for the running system; see
// [File.LocalPath].
func (v *File) Plan(Config) (Plan, error) {
	path, err := v.LocalPath()
	if err != nil {
		return nil, err
	}
	return &FilePlan{Path: path}, nil
}

// LocalPath converts the URL to a file name in the conventions of the
// running system (RFC 1630, file: the client converts the URL into a local
// file name). It refuses a URL naming another host (an error wrapping
// [ErrNotLocal]), a segment that decodes to a control character or NUL,
// and a segment holding an encoded "/" (or "\" on Windows), which would
// change the hierarchy.
func (v *File) LocalPath() (string, error) { return v.localPath(runtime.GOOS) }

func (v *File) localPath(goos string) (string, error) {
	l := locOf(v.u)
	if !v.Local {
		return "", l.err(l.host(), urlkit.ComponentHost, ErrNotLocal,
			"file URL names host %q, not this machine: only \"\" and \"localhost\" are local (RFC 1738 3.10)", v.Host)
	}
	seps := "/"
	if goos == "windows" {
		seps = `/\`
	}
	segs := v.segs()
	names := make([]string, len(segs))
	for i, s := range segs {
		d, err := s.wire(l, "file name")
		if err != nil {
			return "", err
		}
		if k := strings.IndexAny(d, seps); k >= 0 {
			return "", l.err(s.off+rawIndexOfDecoded(s.raw, k), s.comp, ErrBadPath,
				"segment %q decodes to a path separator, which would change the directory hierarchy", s.raw)
		}
		names[i] = d
	}
	if goos == "windows" {
		// file:///C:/dir/x or the older file:///C|/dir/x.
		if len(names) > 0 && len(names[0]) == 2 && chars.Is(names[0][0], chars.Alpha) && (names[0][1] == ':' || names[0][1] == '|') {
			names[0] = names[0][:1] + ":"
			if len(names) == 1 {
				return names[0] + `\`, nil
			}
			return strings.Join(names, `\`), nil
		}
		return `\` + strings.Join(names, `\`), nil
	}
	return "/" + strings.Join(names, "/"), nil
}

// rawIndexOfDecoded maps index k of the decoded raw back to raw.
func rawIndexOfDecoded(raw string, k int) int {
	i := 0
	for n := 0; i < len(raw) && n < k; n++ {
		if raw[i] == '%' {
			i += 3
		} else {
			i++
		}
	}
	return i
}

// ErrRelativePath: FromLocalPath was given a path that is not absolute.
var ErrRelativePath = errors.New("file name is not absolute")

// FromLocalPath returns the file URL (with an empty host, meaning this
// machine) for an absolute file name of the running system, each segment
// encoded with [urlkit.EscapeSegment].
func FromLocalPath(name string) (urlkit.URL, error) { return fromLocalPath(name, runtime.GOOS) }

func fromLocalPath(name, goos string) (urlkit.URL, error) {
	var segs []string
	if goos == "windows" {
		name = strings.ReplaceAll(name, `\`, "/")
		if len(name) >= 3 && chars.Is(name[0], chars.Alpha) && name[1] == ':' && name[2] == '/' {
			segs = strings.Split(name, "/")
		} else if strings.HasPrefix(name, "/") {
			segs = strings.Split(name[1:], "/")
		}
	} else if strings.HasPrefix(name, "/") {
		segs = strings.Split(name[1:], "/")
	}
	if segs == nil {
		return urlkit.URL{}, errors.Join(ErrRelativePath, errors.New("file URLs name absolute paths: "+name))
	}
	var b strings.Builder
	b.WriteString("file://")
	for i, s := range segs {
		b.WriteByte('/')
		if goos == "windows" && i == 0 && len(s) == 2 && s[1] == ':' {
			b.WriteString(s)
			continue
		}
		b.WriteString(urlkit.EscapeSegment(s))
	}
	return urlkit.Parse(b.String())
}

func (v *File) wireParts() []wirePart {
	segs := v.segs()
	out := make([]wirePart, len(segs))
	for i, s := range segs {
		out[i] = wirePart{s, "file name"}
	}
	return out
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *File) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("host", v.Host)
	w.KBool("local", v.Local)
	w.KStrs("segments", v.Segments)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *File) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// plainJSON marks File's strings as parts of its URL as written (plainView).
func (v *File) plainJSON() {}

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *FilePlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("path", p.Path)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *FilePlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s OpenFile) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("path", s.Path)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s OpenFile) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// fileName is the last element of the local path.
func (v *File) fileName() (string, error) {
	p, err := v.LocalPath()
	if err != nil {
		return "", err
	}
	return filepath.Base(p), nil
}
