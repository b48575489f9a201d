package scheme

import (
	"reflect"
	"testing"
)

func TestGopherRFC1738(t *testing.T) {
	tests := []struct {
		cite, in string
		typ      byte
		sel      string
		line     string
		plus     *GopherPlus
		reply    string
	}{
		// RFC 1738 3.4.1: empty gopher-path: the "/" is optional and the type is "1".
		{"RFC 1738 3.4.1 empty path", "gopher://h.dom", '1', "", "\r\n", nil, "menu"},
		{"RFC 1738 3.4.1 empty path with /", "gopher://h.dom/", '1', "", "\r\n", nil, "menu"},
		// RFC 1738 3.4.1: a selector may begin with a copy of the type character.
		{"RFC 1738 3.4.1 doubled type", "gopher://h.dom/00/About", '0', "0/About", "0/About\r\n", nil, "text"},
		// RFC 1738 3.4.1: no characters are reserved: "?" and ";" belong to the selector.
		{"RFC 1738 3.4.1 nothing reserved", "gopher://h.dom/1a?b;c", '1', "a?b;c", "a?b;c\r\n", nil, "menu"},
		// RFC 1738 3.4.2: selector, TAB, search.
		{"RFC 1738 3.4.2 search", "gopher://h.dom/7/srch%09gopher%20url", '7', "/srch", "/srch\tgopher url\r\n", nil, "menu"},
		// RFC 1738 3.4.4: "+" alone is the default view.
		{"RFC 1738 3.4.4 +", "gopher://h.dom/0sel%09%09+", '0', "sel", "sel\t\t+\r\n", &GopherPlus{Kind: PlusDefaultView}, "text"},
		// RFC 1738 3.4.4, 3.4.5: "?" is an item with a form.
		{"RFC 1738 3.4.5 ?", "gopher://h.dom/0sel%09%09?", '0', "sel", "sel\t\t?\r\n", &GopherPlus{Kind: PlusAsk}, "text"},
		// RFC 1738 3.4.6: "!" all attributes of the item, "$" of all items of a directory.
		{"RFC 1738 3.4.6 !", "gopher://h.dom/1sel%09%09!", '1', "sel", "sel\t\t!\r\n", &GopherPlus{Kind: PlusItemAttrs}, "menu"},
		{"RFC 1738 3.4.6 $", "gopher://h.dom/1sel%09%09$", '1', "sel", "sel\t\t$\r\n", &GopherPlus{Kind: PlusDirAttrs}, "menu"},
		// RFC 1738 3.4.7: "!+ABSTRACT" and "!+ABSTRACT%20+SMELL".
		{"RFC 1738 3.4.7 one attribute", "gopher://h.dom/0sel%09%09!+ABSTRACT", '0', "sel", "sel\t\t!+ABSTRACT\r\n",
			&GopherPlus{Kind: PlusItemAttrs, Attributes: []string{"+ABSTRACT"}}, "text"},
		{"RFC 1738 3.4.7 two attributes", "gopher://h.dom/0sel%09%09!+ABSTRACT%20+SMELL", '0', "sel", "sel\t\t!+ABSTRACT +SMELL\r\n",
			&GopherPlus{Kind: PlusItemAttrs, Attributes: []string{"+ABSTRACT", "+SMELL"}}, "text"},
		// RFC 1738 3.4.8: "+application/postscript%20Es_ES" is the Spanish postscript view.
		{"RFC 1738 3.4.8 alternate view", "gopher://h.dom/0sel%09%09+application/postscript%20Es_ES", '0', "sel",
			"sel\t\t+application/postscript Es_ES\r\n",
			&GopherPlus{Kind: PlusAlternateView, View: "application/postscript", Language: "Es_ES"}, "text"},
		// RFC 1738 3.4.9: the electronic form
		// +%091%0D%0A+-1%0D%0A<ask_item1_value>%0D%0A<ask_item2_value>%0D%0A.%0D%0A
		// is sent as "+<tab>1<cr><lf> +-1<cr><lf> value<cr><lf> value<cr><lf> .<cr><lf>".
		{"RFC 1738 3.4.9 form", "gopher://h.dom/0sel%09%09+%091%0D%0A+-1%0D%0Ared%0D%0Ablue%0D%0A.%0D%0A", '0', "sel",
			"sel\t\t+\t1\r\n+-1\r\nred\r\nblue\r\n.\r\n",
			&GopherPlus{Kind: PlusForm, Values: []string{"red", "blue"}}, "text"},
		// An escaped type character counts as one character (gtype = xchar).
		{"RFC 1738 5 gtype escape", "gopher://h.dom/%2Bmirror", '+', "mirror", "mirror\r\n", nil, "binary"},
	}
	for _, tt := range tests {
		t.Run(tt.cite, func(t *testing.T) {
			v := mustView(t, tt.in).(*Gopher)
			if v.Type != tt.typ || v.Selector != tt.sel {
				t.Errorf("type %q selector %q, want %q %q", v.Type, v.Selector, tt.typ, tt.sel)
			}
			if !reflect.DeepEqual(v.Plus, tt.plus) {
				t.Errorf("plus %+v, want %+v", v.Plus, tt.plus)
			}
			p := mustPlan(t, tt.in, Config{}).(*GopherPlan)
			if p.Line() != tt.line || p.Reply != tt.reply {
				t.Errorf("line %q reply %q, want %q %q", p.Line(), p.Reply, tt.line, tt.reply)
			}
			if p.Addr != "h.dom:70" {
				t.Errorf("RFC 1738 3.4.1: default port 70, addr %q", p.Addr)
			}
		})
	}
}

func TestGopherPlanRefusesControls(t *testing.T) {
	tests := []struct {
		in  string
		off int
	}{
		// curl test1609: an encoded CR LF in the selector is refused.
		{"gopher://h.dom/1sel%0d%0aINJECT/1609", 19},
		{"gopher://h.dom/7s%09q%0Dx", 21},
		// CR LF in a Gopher+ string that is not a form.
		{"gopher://h.dom/0s%09%09+x%0D%0AQUIT", 25},
		// A TAB in a Gopher+ string that is not a form: %09 separates
		// the fields, and is a control character within the last.
		{"gopher://h.dom/7s%09q%09+x%09y", 26},
		// A NUL inside a form value.
		{"gopher://h.dom/0s%09%09+%091%0D%0A+-1%0D%0Aa%00b%0D%0A.%0D%0A", 44},
	}
	for _, tt := range tests {
		_, err := mustView(t, tt.in).Plan(Config{})
		wantOffset(t, tt.in, err, ErrControl, tt.off)
	}
}
