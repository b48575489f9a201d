package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/urlkit/urlkit"
)

func init() {
	register(&command{
		name:    "extract",
		summary: "find the URLs in free text: <URL:...> wrappers, URLs broken across lines, bare URLs (RFC 1738 appendix)",
		usage:   "[--json] [FILE...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per URL, with its byte range, form, alternatives and repairs")
		},
		run: runExtract,
	})
}

// extractResult is the JSON form of one URL found in a text.
type extractResult struct {
	File         string   `json:"file,omitempty"`
	URL          string   `json:"url"`
	Text         string   `json:"text,omitempty"` // as written, when it had to be repaired
	Start        int      `json:"start"`
	End          int      `json:"end"`
	Wrapped      bool     `json:"wrapped"`
	Prefixed     bool     `json:"prefixed"`
	Ambiguous    bool     `json:"ambiguous"`
	Alternatives []string `json:"alternatives,omitempty"`
	Warnings     []jsonWarning
}

// jsonWarning is one repair in extract's JSON.
type jsonWarning struct {
	Offset    int    `json:"offset"`
	Component string `json:"component"`
	Message   string `json:"message"`
}

// runExtract reads each FILE ("-" or none: standard input) as a stream and
// prints the URLs in it as they are found.
func runExtract(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	status := exitOK
	each := func(name string, r io.Reader) {
		sc := urlkit.NewScanner(r)
		for sc.Scan() {
			m := sc.Match()
			if !asJSON {
				fmt.Fprintln(out, m.URL.String())
				continue
			}
			res := extractResult{File: name, URL: m.URL.String(), Start: m.Start, End: m.End,
				Wrapped: m.Wrapped, Prefixed: m.Prefixed, Ambiguous: m.Ambiguous}
			if m.Warnings != nil {
				res.Text = m.Text
			}
			for _, a := range m.Alternatives {
				res.Alternatives = append(res.Alternatives, a.String())
			}
			for _, w := range m.Warnings {
				res.Warnings = append(res.Warnings, jsonWarning{w.Offset, w.Component.String(), w.Reason})
			}
			w := jw{}
			res.writeJSON(&w)
			out.Write(w.b)
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

func displayName(name string) string {
	if name == "" {
		return "standard input"
	}
	return name
}

// writeJSON writes the result as one line of JSON.
func (r *extractResult) writeJSON(w *jw) {
	w.open()
	w.knonempty("file", r.File)
	w.kstr("url", r.URL)
	w.knonempty("text", r.Text)
	w.knum("start", r.Start)
	w.knum("end", r.End)
	w.kbool("wrapped", r.Wrapped)
	w.kbool("prefixed", r.Prefixed)
	w.kbool("ambiguous", r.Ambiguous)
	if len(r.Alternatives) > 0 {
		w.kstrs("alternatives", r.Alternatives)
	}
	if len(r.Warnings) > 0 {
		w.key("warnings")
		w.openArray()
		for _, x := range r.Warnings {
			w.open()
			w.knum("offset", x.Offset)
			w.kstr("component", x.Component)
			w.kstr("message", x.Message)
			w.close()
		}
		w.closeArray()
	}
	w.close()
	w.end()
}
