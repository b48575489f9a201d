package scheme

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestFileName: the name -O saves a resource under is the last segment of
// what the URL names, decoded; a segment that cannot be a file name, and a
// URL that names no file, is an error wrapping ErrNoFileName.
func TestFileName(t *testing.T) {
	for _, tt := range []struct{ in, want, src string }{
		{"ftp://myname@host.dom/%2Fetc/motd", "motd", "RFC 1738 3.2.2: RETR motd"},
		{"ftp://ftp.funet.fi/pub/my%20docs/a%3Bb.txt;type=i", "a;b.txt", "RFC 1738 3.2.2: the name decoded, ;type= apart"},
		{"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles", "Los Angeles", "RFC 1738 3.4: the selector's last segment"},
		{"http://info.cern.ch/hypertext/WWW/TheProject.html?x=1#top", "TheProject.html", "RFC 1738 3.3: the path's last segment"},
		{"http://h.com/a/b%20c.html", "b c.html", "RFC 1738 3.3: decoded"},
		{"file:///etc/motd", "motd", "RFC 1738 3.10"},
		{"nntp://news.example.com/comp.infosystems.www/12", "12", "RFC 1738 3.7: the article number"},
		{"http://h.com/", "", "a directory"},
		{"ftp://h.com/pub/", "", "a directory"},
		{"http://h.com/a/%2E%2E", "", `".." decoded`},
		{"http://h.com/a%2Fb", "", `"/" decoded`},
		{"http://h.com/a%0Ab", "", "a control character decoded"},
		{"nntp://news.example.com/comp.infosystems.www", "", "a group, no article"},
		{"news:comp.infosystems.www", "", "RFC 1738 3.6: a group"},
		{"mailto:a@b.com", "", "RFC 1738 3.5: nothing is fetched"},
		{"prospero://host.dom//pros/name", "name", "RFC 1738 3.11: the hsoname's last segment"},
		{"prospero://host.dom//pros/", "", "an hsoname ending in /"},
		{"wais://h.dom/db/TEXT/%01%02ab", "", "RFC 1738 3.9: a document-id names no file"},
	} {
		got, err := FileName(urlkit.MustParse(tt.in))
		if tt.want == "" {
			if !errors.Is(err, ErrNoFileName) {
				t.Errorf("%s: FileName(%q) = %q, %v; want ErrNoFileName", tt.src, tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: FileName(%q) = %q, %v; want %q", tt.src, tt.in, got, err, tt.want)
		}
	}
}
