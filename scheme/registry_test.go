package scheme

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemes"
)

// TestLookupAnyCase checks that Lookup finds every built-in scheme by its
// name in any case (through the registry's table of built-in names), that
// For reads a URL whose scheme is written in capitals with its scheme, and
// that a name nobody registered is found in no case.
func TestLookupAnyCase(t *testing.T) {
	for _, info := range schemes.Builtin {
		want, ok := Lookup(info.Name)
		if !ok {
			t.Fatalf("Lookup(%q) failed", info.Name)
		}
		for _, name := range []string{strings.ToUpper(info.Name), strings.ToUpper(info.Name[:1]) + info.Name[1:]} {
			if got, ok := Lookup(name); !ok || got.Info() != want.Info() {
				t.Errorf("Lookup(%q) = %v, %v; want %v", name, got, ok, want.Info())
			}
		}
	}
	for _, name := range []string{"", "x-nobody", "X-NOBODY", "ftpx", "FT"} {
		if s, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v, want none", name, s.Info())
		}
	}
	if s := For(urlkit.MustParse("FTP://h.dom/x")); s.Info().Name != "ftp" {
		t.Errorf("For(FTP://h.dom/x) = %v", s.Info())
	}
	if v, err := Parse("GoPhEr://h.dom/0x"); err != nil {
		t.Error(err)
	} else if _, ok := v.(*Gopher); !ok {
		t.Errorf("Parse(GoPhEr://h.dom/0x) = %T", v)
	}
}
