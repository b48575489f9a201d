package text_test

import (
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/text"
)

// The example paragraph of RFC 1738's appendix: wrapped URLs, two of them
// broken across lines.
func ExampleExtract() {
	doc := `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
type=d> but you can probably pick it up from <URL:ftp://ds.in
ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
net/instructions/overview.html#WARNING>.`
	for _, m := range text.Extract(doc) {
		fmt.Println(m.Start, m.End, m.URL)
	}
	// Output:
	// 27 71 ftp://info.cern.ch/pub/www/doc;type=d
	// 109 141 ftp://ds.internic.net/rfc
	// 164 228 http://ds.internic.net/instructions/overview.html#WARNING
}

// Bare URLs lose the punctuation of the sentence around them.
func ExampleExtract_bare() {
	doc := `Mail mailto:info@example.com (or see http://example.com/faq), "news:comp.www".`
	for _, m := range text.Extract(doc) {
		fmt.Println(m.URL)
	}
	// Output:
	// mailto:info@example.com
	// http://example.com/faq
	// news:comp.www
}

// A line break right after a hyphen: the hyphen may or may not belong to
// the URL (RFC 1738 appendix), so both readings are given.
func ExampleMatch_ambiguous() {
	m := text.Extract("<URL:ftp://ds.internic.net/internet-\n  drafts/>")[0]
	fmt.Println(m.Ambiguous)
	for _, u := range m.Alternatives {
		fmt.Println(u)
	}
	// Output:
	// true
	// ftp://ds.internic.net/internet-drafts/
	// ftp://ds.internic.net/internetdrafts/
}

// A URL with a character that must be encoded is repaired, and the repair
// is reported with its offset in the text.
func ExampleMatch_repaired() {
	m := text.Extract("Home page: http://example.com/~fred/")[0]
	fmt.Println(m.Text)
	fmt.Println(m.URL)
	fmt.Println(m.Warnings[0])
	// Output:
	// http://example.com/~fred/
	// http://example.com/%7Efred/
	// offset 30 in path: unsafe character 0x7E encoded as %7E
}

// A Scanner reads any amount of text in bounded memory.
func ExampleScanner() {
	r := strings.NewReader("First <URL:http://a.example/x>, then\nftp://b.example/pub/.\n")
	sc := text.NewScanner(r)
	for sc.Scan() {
		m := sc.Match()
		fmt.Printf("%d-%d wrapped=%v %s\n", m.Start, m.End, m.Wrapped, m.URL)
	}
	if err := sc.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 6-30 wrapped=true http://a.example/x
	// 37-57 wrapped=false ftp://b.example/pub/
}

// A non-ASCII letter never cuts a URL short. By default such a candidate
// is given up; Lenient percent-encodes it byte by byte (RFC 1738 2.2), and
// maps an international host name to its A-labels by IDNA (UTS #46).
func ExampleExtractor_lenient() {
	doc := "See http://www.w3.org/People/Dürst/ or https://bücher.example/."
	fmt.Println(len(text.Extract(doc)))
	for _, m := range (text.Extractor{Lenient: true}).Extract(doc) {
		fmt.Println(m.URL)
	}
	// Output:
	// 0
	// http://www.w3.org/People/D%C3%BCrst/
	// https://xn--bcher-kva.example/
}

// Rejected hears of each candidate given up: here a wrapper from the 1993
// URL draft, whose host ends with a dot.
func ExampleExtractor_rejected() {
	doc := "HTTP spec:\nURL=<ftp://info.cern.ch./pub/www/doc/http-spec.txt>\n"
	x := text.Extractor{Rejected: func(r text.Rejection) {
		fmt.Printf("line %d: %s\n%s\n", r.Line, r.Text, r.Reason())
	}}
	fmt.Println(len(x.Extract(doc)), "URLs")
	// Output:
	// line 2: ftp://info.cern.ch./pub/www/doc/http-spec.txt
	// host: a host name must not end with "." (RFC 1738 5: hostname ends with a toplabel)
	// 0 URLs
}

// White space of any kind inside a wrapper is ignored, the no-break space
// (U+00A0) of a word processor included.
func ExampleExtract_unicodeSpace() {
	m := text.Extract("<URL:http://a.example/long\u00a0path/>")[0]
	fmt.Println(m.URL, m.Line)
	// Output:
	// http://a.example/longpath/ 1
}
