package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
)

// WPTPercent compares urlkit.Escape with the search part's set
// (EscapeSearch) against the utf-8 column of WPT's percent-encoding.json:
// each input, UTF-8 encoded, percent-encoded for a URL's query.
func WPTPercent(dir string) (*Suite, error) {
	const rel = "wpt-url/percent-encoding.json"
	s := &Suite{
		Name:   "WHATWG percent-encoding (WPT percent-encoding.json)",
		Source: "`" + rel + "` (web-platform-tests, as kept by ada-url/ada), its `utf-8` column; the other side is the WHATWG URL Standard's query percent-encoding.",
		Notes:  "Each input's UTF-8 bytes go to `urlkit.Escape(input, urlkit.ComponentSearch)` and the result is compared with WPT's text; the other encodings' columns do not apply (RFC 1738 2.2 encodes octets, and a URL's octets here are UTF-8).",
	}
	raw, err := readJSONArray(dir, rel)
	if err != nil {
		return nil, err
	}
	for _, r := range raw {
		var c struct {
			Input  *string           `json:"input"`
			Output map[string]string `json:"output"`
		}
		if json.Unmarshal(r, &c) != nil || c.Input == nil {
			continue // a comment string
		}
		s.Total++
		want, ok := c.Output["utf-8"]
		if !ok {
			s.skip("no utf-8 column", "the case gives only other document encodings, which RFC 1738 has no notion of", *c.Input)
			continue
		}
		comparePercent(s, *c.Input, want)
	}
	return s, nil
}

func comparePercent(s *Suite, in, want string) {
	got := urlkit.Escape(in, urlkit.ComponentSearch)
	if got == want {
		s.agree(in, nil)
		return
	}
	// Deliberate: WHATWG's query set leaves some characters RFC 1738 2.2
	// calls unsafe as they are; urlkit's output must be WPT's with exactly
	// those characters encoded.
	var b strings.Builder
	for i := 0; i < len(want); i++ {
		if c := want[i]; strings.IndexByte(" <>\"{}|\\^~[]`", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	if got == b.String() {
		s.different("unsafe character encoded", "RFC 1738 2.2: the unsafe characters (\"\\\\\", \"|\", \"^\", \"~\", ...) must always be encoded; WHATWG's query percent-encode set leaves them as written", in)
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %q, WHATWG %q", got, want))
}
