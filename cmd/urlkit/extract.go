package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/text"
)

func init() {
	register(&command{
		name:    "extract",
		summary: "find the URLs in free text: <URL:...> wrappers, URLs broken across lines, bare URLs (RFC 1738 appendix)",
		usage:   "[--json] [--lenient] [--verbose] [FILE...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per URL, with its byte range, line, form, alternatives and repairs")
			addLenientFlag(fs)
			fs.Bool("verbose", false, "report on standard error each candidate skipped (a wrapper that does not parse or is not closed, a non-ASCII URL), with its line and the reason")
		},
		run: runExtract,
	})
}

// extractResult is the JSON form of one URL found in a text.
type extractResult struct {
	File         string           `json:"file,omitempty"`
	URL          string           `json:"url"`
	Text         string           `json:"text,omitempty"` // as written, when it had to be repaired
	Start        int              `json:"start"`
	End          int              `json:"end"`
	Line         int              `json:"line"`
	Wrapped      bool             `json:"wrapped"`
	Prefixed     bool             `json:"prefixed"`
	Ambiguous    bool             `json:"ambiguous"`
	Alternatives []string         `json:"alternatives,omitempty"`
	Warnings     []urlkit.Warning `json:"-"` // written by warningsJSON
}

// writeJSON writes the result as one line of JSON.
func (r *extractResult) writeJSON(w *jw) {
	w.Open()
	w.KNonEmpty("file", r.File)
	w.KStr("url", r.URL)
	w.KNonEmpty("text", r.Text)
	w.KNum("start", r.Start)
	w.KNum("end", r.End)
	w.KNum("line", r.Line)
	w.KBool("wrapped", r.Wrapped)
	w.KBool("prefixed", r.Prefixed)
	w.KBool("ambiguous", r.Ambiguous)
	if len(r.Alternatives) > 0 {
		w.KStrs("alternatives", r.Alternatives)
	}
	w.warningsJSON(r.Warnings)
	w.Close()
	w.End()
}

// runExtract reads each FILE ("-" or none: standard input) as a stream and
// prints each URL in it as soon as its end has been read: output is
// flushed whenever the scanner is about to wait for input.
func runExtract(e *env, fs *flag.FlagSet, args []string) int {
	flagOn := func(name string) bool { return fs.Lookup(name).Value.(flag.Getter).Get().(bool) }
	asJSON, lenient, verbose := flagOn("json"), flagOn("lenient"), flagOn("verbose")
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	status := exitOK
	each := func(name string, r io.Reader) {
		x := text.Extractor{Lenient: lenient}
		if verbose {
			x.Rejected = func(rj text.Rejection) {
				out.Flush()
				fmt.Fprintf(e.stderr, "urlkit: extract: %s:%d: skipped %s: %s\n", displayName(name), rj.Line, quoteShort(rj.Text), rj.Reason())
			}
		}
		sc := x.NewScanner(flushingReader{r, out})
		for sc.Scan() {
			m := sc.Match()
			if !asJSON {
				fmt.Fprintln(out, m.URL.String())
				continue
			}
			res := extractResult{File: name, URL: m.URL.String(), Start: m.Start, End: m.End, Line: m.Line,
				Wrapped: m.Wrapped, Prefixed: m.Prefixed, Ambiguous: m.Ambiguous}
			if m.Warnings != nil {
				res.Text = m.Text
			}
			for _, a := range m.Alternatives {
				res.Alternatives = append(res.Alternatives, a.String())
			}
			res.Warnings = m.Warnings
			w := jw{}
			res.writeJSON(&w)
			out.Write(w.B)
		}
		if err := sc.Err(); err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "urlkit: extract: %s: %v\n", displayName(name), err)
			status = exitInvalid
		}
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	for _, name := range args {
		if name == "-" {
			each("", e.stdin)
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "urlkit: extract: %v\n", err)
			status = exitInvalid
			continue
		}
		each(name, f)
		f.Close()
	}
	return status
}

// flushingReader flushes w before each read, so that what has been found
// is out before the scanner waits for more input.
type flushingReader struct {
	r io.Reader
	w *bufio.Writer
}

func (f flushingReader) Read(p []byte) (int, error) {
	if err := f.w.Flush(); err != nil {
		return 0, err
	}
	return f.r.Read(p)
}

// quoteShort quotes s as Go would, escaping what a terminal must not see,
// with at most about 80 bytes of it.
func quoteShort(s string) string {
	const max = 80
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

func displayName(name string) string {
	if name == "" {
		return "standard input"
	}
	return name
}
