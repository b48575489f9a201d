package main

import (
	"encoding/json"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// Every registered scheme's view has its JSON form here: a scheme added
// to package scheme without one fails this test.
func TestViewJSONEveryScheme(t *testing.T) {
	// One URL of each registered scheme, found by its scheme name.
	samples := map[string]string{}
	for _, s := range []string{
		"afs://h.dom/x", "cid:foo4%25foo1@bar.net", "file://vms.host.edu/disk$user/my/notes/note12345.txt",
		"ftp://myname@host.dom/%2Fetc/motd;type=a", "gopher://h.dom/7/srch%09gopher%20url", "http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html?a",
		"https://h.dom:8443/", "mailserver:x@h.dom", "mailto:timbl@info.cern.ch",
		"mid:960830.1639@XIson.com", "news:comp.infosystems.www", "nfs://h.dom/x",
		"nntp://news.dom/comp.infosystems.www/12", "prospero://h.dom/a/b;version=1;size=2", "rlogin://u@h.dom",
		"telnet://u:p@h.dom:2323/", "tn3270://h.dom", "urn:x:y",
		"wais://h.dom:210/db?query", "z39.50://h.dom/x",
	} {
		samples[urlkit.MustParse(s).Scheme()] = s
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
