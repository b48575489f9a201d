package edit

import (
	"errors"
	"github.com/urlkit/urlkit"
	"reflect"
	"testing"
)

func TestParseSearch(t *testing.T) {
	pairs, err := ParseSearch("a=1&b=x+y%2B&&flag&c=&=v&d=e=f")
	if err != nil {
		t.Fatal(err)
	}
	type kv struct {
		k, v string
		ne   bool
	}
	var got []kv
	for _, p := range pairs {
		got = append(got, kv{p.Key, p.Value, p.NoEquals})
	}
	want := []kv{{"a", "1", false}, {"b", "x y+", false}, {"flag", "", true}, {"c", "", false}, {"", "v", false}, {"d", "e=f", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseSearch = %v, want %v", got, want)
	}
	// Written back unchanged, byte for byte (the empty piece is dropped).
	if s := EncodeSearch(pairs); s != "a=1&b=x+y%2B&flag&c=&=v&d=e=f" {
		t.Errorf("EncodeSearch = %q", s)
	}
	// An unchanged pair keeps its escapes as written even when another way
	// of writing them exists.
	pairs, _ = ParseSearch("k=%7e%20x&z=1")
	pairs[1].Value = "a b&c"
	if s := EncodeSearch(pairs); s != "k=%7e%20x&z=a+b%26c" {
		t.Errorf("EncodeSearch after edit = %q", s)
	}
	var se *urlkit.SyntaxError
	if _, err := ParseSearch("a=1&b=%zz"); !errors.As(err, &se) || se.Offset != 6 || se.Input != "a=1&b=%zz" {
		t.Errorf("bad escape: %v", err)
	}
	if _, err := ParseSearch("a=1&%g=2"); !errors.As(err, &se) || se.Offset != 4 {
		t.Errorf("bad escape in key: %v", err)
	}
}

func TestSearchEdits(t *testing.T) {
	u := urlkit.MustParse("http://h.com/p?b=2&a=%31#f")
	v, err := AddSearch(u, "c d", "1+1")
	if err != nil || v.String() != "http://h.com/p?b=2&a=%31&c+d=1%2B1#f" {
		t.Errorf("AddSearch = %q, %v", v, err)
	}
	if got, ok := SearchValue(v, "c d"); !ok || got != "1+1" {
		t.Errorf("SearchValue = %q, %v", got, ok)
	}
	if got, ok := SearchValue(v, "a"); !ok || got != "1" {
		t.Errorf("SearchValue(a) = %q, %v", got, ok)
	}
	if _, ok := SearchValue(v, "zz"); ok {
		t.Error("SearchValue(zz) found")
	}
	w, err := DeleteSearch(v, "b")
	if err != nil || w.String() != "http://h.com/p?a=%31&c+d=1%2B1#f" {
		t.Errorf("DeleteSearch = %q, %v", w, err)
	}
	w, err = DeleteSearch(urlkit.MustParse("http://h.com/p?b=2"), "b")
	if err != nil || w.String() != "http://h.com/p" {
		t.Errorf("DeleteSearch last = %q, %v", w, err)
	}
	x, err := AddSearchPair(urlkit.MustParse("http://h.com/"), SearchPair{Key: "flag", NoEquals: true})
	if err != nil || x.String() != "http://h.com/?flag" {
		t.Errorf("AddSearchPair = %q, %v", x, err)
	}
	x, err = AddSearch(urlkit.MustParse("http://h.com/?"), "a", "")
	if err != nil || x.String() != "http://h.com/?a=" {
		t.Errorf("AddSearch on empty = %q, %v", x, err)
	}
}
