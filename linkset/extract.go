package linkset

import (
	"errors"
	"io"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/text"
)

// ExtractLines reads free text from r and calls url with each URL found in
// it, as text.Match.URL gives it (wrapper, "URL:" prefix and line-break
// white space taken out, RFC 1738 appendix; the extractor's repairs made),
// which is what `urlkit extract` prints, to be classified like a line with
// [Classify];
// it calls rejected with a Rejected record for each candidate the
// extractor gave up (a wrapper whose contents do not parse, a wrapper
// never closed, a URL cut by a non-ASCII letter). With opt.Lenient,
// non-ASCII letters are percent-encoded as text.Extractor does.
//
// Memory is bounded by text.MaxSpan whatever the length of r.
func ExtractLines(r io.Reader, opt Options, url func(string), rejected func(Record)) error {
	ex := text.Extractor{
		Lenient: opt.Lenient,
		Rejected: func(rj text.Rejection) {
			rec := Record{Input: rj.Text, Status: Rejected, Kind: extractKind(rj.Err), Reason: rj.Reason()}
			var se *urlkit.SyntaxError
			if errors.As(rj.Err, &se) {
				rec.Offset = se.Offset
			} else {
				rec.Offset = rj.Offset - rj.Start
			}
			rejected(rec)
		},
	}
	sc := ex.NewScanner(r)
	for sc.Scan() {
		url(sc.Match().URL.String())
	}
	return sc.Err()
}

// extractKinds names the extractor's own rejections, as kinds names the
// parser's.
var extractKinds = []kindName{
	{text.ErrNonASCII, "non-ascii"},
	{text.ErrUnclosed, "unclosed"},
	{text.ErrEmpty, "empty-wrapper"},
	{text.ErrTooLong, "too-long"},
}

// extractKind names a rejection of the extractor: "non-ascii",
// "unclosed", "empty-wrapper" or "too-long", or the parse error's [Kind].
func extractKind(err error) string {
	if name, ok := kindIn(extractKinds, err); ok {
		return name
	}
	return Kind(err)
}
