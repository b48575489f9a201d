package main

import (
	"encoding/json"
	"testing"

	"github.com/urlkit/urlkit/scheme"
)

// Every registered scheme's view has its JSON form here: a scheme added
// to package scheme without one fails this test.
func TestViewJSONEveryScheme(t *testing.T) {
	samples := map[string]string{
		"afs":        "afs://h.dom/x",
		"cid":        "cid:foo4%25foo1@bar.net",
		"file":       "file://vms.host.edu/disk$user/my/notes/note12345.txt",
		"ftp":        "ftp://myname@host.dom/%2Fetc/motd;type=a",
		"gopher":     "gopher://h.dom/7/srch%09gopher%20url",
		"http":       "http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html?a",
		"https":      "https://h.dom:8443/",
		"mailserver": "mailserver:x@h.dom",
		"mailto":     "mailto:timbl@info.cern.ch",
		"mid":        "mid:960830.1639@XIson.com",
		"news":       "news:comp.infosystems.www",
		"nfs":        "nfs://h.dom/x",
		"nntp":       "nntp://news.dom/comp.infosystems.www/12",
		"prospero":   "prospero://h.dom/a/b;version=1;size=2",
		"rlogin":     "rlogin://u@h.dom",
		"telnet":     "telnet://u:p@h.dom:2323/",
		"tn3270":     "tn3270://h.dom",
		"urn":        "urn:x:y",
		"wais":       "wais://h.dom:210/db?query",
		"z39.50":     "z39.50://h.dom/x",
	}
	for _, name := range scheme.Names() {
		s, ok := samples[name]
		if !ok {
			t.Errorf("scheme %q: no sample URL in this test", name)
			continue
		}
		v, err := scheme.Parse(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		var w jw
		if !w.viewJSON(v) {
			t.Errorf("%s: view %T has no JSON form in views.go", s, v)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(w.b, &m); err != nil {
			t.Errorf("%s: invalid JSON %s: %v", s, w.b, err)
		}
	}
}
