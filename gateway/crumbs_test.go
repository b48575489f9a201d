package gateway

import (
	"html/template"
	"testing"

	"github.com/urlkit/urlkit"
)

func TestTrails(t *testing.T) {
	link := func(s string) template.URL { return template.URL("/" + s) }
	for _, tc := range []struct {
		url  string
		want trail
	}{
		{"gopher://h.example/1/", trail{Crumbs: []crumb{{Name: "h.example"}}}},
		{"gopher://h.example:7070/1/a/b%20c", trail{Up: "/gopher://h.example:7070/1/a", Crumbs: []crumb{
			{"h.example:7070", "/gopher://h.example:7070/1/"}, {"a", "/gopher://h.example:7070/1/a"}, {"b c", ""}}}},
		{"gopher://h.example/7/find%09words", trail{Up: "/gopher://h.example/1/", Crumbs: []crumb{
			{"h.example", "/gopher://h.example/1/"}, {"find", ""}}}},
		{"gopher://h.example/1a%2Fb", trail{Up: "/gopher://h.example/1/", Crumbs: []crumb{
			{"h.example", "/gopher://h.example/1/"}, {"a/b", ""}}}},
		// An IPv6 literal keeps its one pair of brackets.
		{"gopher://[2001:db8::7]:7070/1/a/b", trail{Up: "/gopher://[2001:db8::7]:7070/1/a", Crumbs: []crumb{
			{"[2001:db8::7]:7070", "/gopher://[2001:db8::7]:7070/1/"}, {"a", "/gopher://[2001:db8::7]:7070/1/a"}, {"b", ""}}}},
		{"gopher://[::1]/1/", trail{Crumbs: []crumb{{Name: "[::1]"}}}},
	} {
		u, err := readTarget(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		got := gopherTrail(u, link)
		if !equalTrail(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.url, got, tc.want)
		}
	}
	for _, tc := range []struct {
		url  string
		want trail
	}{
		{"ftp://h.example/", trail{Crumbs: []crumb{{Name: "h.example"}}}},
		{"ftp://u:p@h.example:2121/pub/dir/", trail{Up: "../", Crumbs: []crumb{
			{"h.example:2121", "./../../"}, {"pub/", "./../"}, {"dir/", ""}}}},
		{"ftp://h.example/pub;type=d", trail{}},
		{"ftp://[2001:db8::7]:2121/pub/", trail{Up: "../", Crumbs: []crumb{
			{"[2001:db8::7]:2121", "./../"}, {"pub/", ""}}}},
	} {
		u, err := readTarget(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := ftpTrail(u); !equalTrail(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.url, got, tc.want)
		}
	}
}

// WAIS (RFC 1738 3.9) and Prospero (3.11) trails stay on their scheme:
// a WAIS server has no page, its database is the search form, a search
// goes up to it; a Prospero hsoname's prefixes are directories, its
// fields left out.
func TestTrailsWAISProspero(t *testing.T) {
	link := func(s string) template.URL { return template.URL("/" + s) }
	for _, tc := range []struct {
		url  string
		f    func(u urlkit.URL, link func(string) template.URL) trail
		want trail
	}{
		{"wais://h.example:210/demo", waisTrail, trail{Crumbs: []crumb{{Name: "h.example:210"}, {Name: "demo"}}}},
		{"wais://h.example/my%20db?two%20words", waisTrail, trail{Up: "/wais://h.example/my%20db", Crumbs: []crumb{
			{Name: "h.example"}, {"my db", "/wais://h.example/my%20db"}, {Name: "two words"}}}},
		{"wais://h.example/db/TEXT/id", waisTrail, trail{Crumbs: []crumb{{Name: "h.example"}, {Name: "db"}}}},
		{"prospero://h.example:1525//r/pub;OBJECT-VERSION=0", prosperoTrail, trail{Up: "/prospero://h.example:1525//r", Crumbs: []crumb{
			{"h.example:1525", "/prospero://h.example:1525/"}, {"r", "/prospero://h.example:1525//r"}, {Name: "pub"}}}},
		{"prospero://h.example/a/b%20c", prosperoTrail, trail{Up: "/prospero://h.example/a", Crumbs: []crumb{
			{"h.example", "/prospero://h.example/"}, {"a", "/prospero://h.example/a"}, {Name: "b c"}}}},
		{"prospero://h.example/", prosperoTrail, trail{Crumbs: []crumb{{Name: "h.example"}}}},
	} {
		u, err := readTarget(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.f(u, link); !equalTrail(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.url, got, tc.want)
		}
	}
}

func equalTrail(a, b trail) bool {
	if a.Up != b.Up || len(a.Crumbs) != len(b.Crumbs) {
		return false
	}
	for i := range a.Crumbs {
		if a.Crumbs[i] != b.Crumbs[i] {
			return false
		}
	}
	return true
}
