package access

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// referenceMenu reads a whole menu in memory as MenuReader's first
// version did, with strings.Split: lines end at "\n" (CR and LF trimmed
// from the end), empty lines are skipped, a "." line ends the menu, and a
// line with fewer than four TAB-separated fields after its type byte is an
// info item holding the whole line.
func referenceMenu(in string) []MenuItem {
	var items []MenuItem
	for _, l := range strings.SplitAfter(in, "\n") {
		l = strings.TrimRight(l, "\r\n")
		if l == "." {
			break
		}
		if l == "" {
			continue
		}
		f := strings.SplitN(l[1:], "\t", 6)
		if len(f) < 4 {
			items = append(items, MenuItem{Type: 'i', Display: l})
			continue
		}
		it := MenuItem{Type: l[0], Display: f[0], Selector: f[1], Host: f[2], Port: strings.TrimSpace(f[3])}
		if len(f) > 4 {
			it.Plus = f[4]
		}
		items = append(items, it)
	}
	return items
}

// menuCorpus is many menu lines: LongMenu's, the field tests', and those
// with bytes put in and fields cut at random, rich in TABs, spaces of
// every kind (the port is trimmed as strings.TrimSpace trims), line ends,
// dots and bytes that are not UTF-8, at every offset of an eight-byte
// word.
func menuCorpus() []string {
	lines := strings.SplitAfter(string(fakeservers.LongMenu(40)), "\n")
	lines = append(lines, "0Doc\t/doc\th.example\t70\r\n", "1Menu\t/m\th\t70\t+\n", "1Six\ta\tb\tc\td\te\r\n", "iinfo only\n",
		"0two\tfields\n", "0three\ta\tb\n", "0trailing\ta\tb\t 70 \t\n", "3\t\t\t\n", "h\tURL:x\th\t70\t?\textra\n",
		"0port\t/p\th\t\u00a070\u3000\n", "0p\t/p\th\t\xc2\x8570\xe2\x80\x85\t\n", "0bad\t/p\th\t\xff70 \xc2\n", "..\n", ".x\n", "\r\n")
	r := rand.New(rand.NewPCG(7, 22))
	pieces := []string{"\t", "\t", "\t", " ", "\r", "\n", "\r\n", ".", "\u00a0", "\u0085", "\u3000", "\u2028", "\xc2", "\xff", "é", "x", "70", "\t\t\t\t", "\b", "\t\b"}
	return corpus.Mutate(r, lines, pieces, 20000)
}

// NextLine and Next, whose one-pass split (eight bytes at a time) and
// trim of the port replaced strings.Split and strings.TrimSpace, give the
// reference's items on the menu corpus, line by line and read as one menu.
func TestMenuLinesAgree(t *testing.T) {
	lines := menuCorpus()
	check := func(in string) {
		want := referenceMenu(in)
		a, b := NewMenuReader(strings.NewReader(in), 1<<20), NewMenuReader(strings.NewReader(in), 1<<20)
		for i := 0; ; i++ {
			it, err := a.Next()
			var l MenuLine
			lerr := b.NextLine(&l)
			if (err == nil) != (lerr == nil) {
				t.Fatalf("%q: item %d: Next %v, NextLine %v", in, i, err, lerr)
			}
			if err == io.EOF {
				if i != len(want) || len(in) > 100000 && i < 15000 {
					t.Fatalf("%q: %d items, want %d", in, i, len(want))
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			if i >= len(want) || it != want[i] {
				t.Fatalf("%q: item %d: %+v, want %+v", in, i, it, want[min(i, len(want)-1)])
			}
			got := MenuItem{Type: l.Type, Display: string(l.Display()), Selector: string(l.Selector()), Host: string(l.Host()), Port: string(l.Port()), Plus: string(l.Plus())}
			if got != it {
				t.Fatalf("%q: item %d: NextLine %+v, Next %+v", in, i, got, it)
			}
			if item := l.Item(); item != it {
				t.Fatalf("%q: item %d: Item %+v, Next %+v", in, i, item, it)
			}
		}
	}
	for _, l := range lines {
		check(l)
	}
	// As one menu, without the lines that would end it.
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.Join(lines, ""), "\n") {
		if strings.TrimRight(l, "\r\n") != "." {
			b.WriteString(l)
		}
	}
	check(b.String())
}

// dotFramedMenu is a menu's Resource as access gives it from a gopher
// server (Execute): the reply read through a dotReader, here with a
// 16-byte buffer and one byte a read, so that long lines come in pieces;
// a MenuReader reads its lines from the dotReader itself (the line path).
func dotFramedMenu(in []byte) *Resource {
	d := &dotReader{r: bufio.NewReaderSize(oneByte{bytes.NewReader(in)}, 16), start: true}
	return &Resource{ReadCloser: &body{r: d, lines: d}, Kind: "menu"}
}

// checkDotFramed fails t unless NextLine, reading the menu in from its
// Resource through the line path, gives the items of the reference's
// reading of the menu text the dotReader reference makes of in.
func checkDotFramed(t *testing.T, in []byte) {
	t.Helper()
	want := referenceMenu(string(referenceDots(in)))
	mr := NewMenuReader(dotFramedMenu(in), 1<<20)
	if mr.lines == nil {
		t.Fatal("the menu reader does not read the Resource's lines itself")
	}
	for i := 0; ; i++ {
		var l MenuLine
		err := mr.NextLine(&l)
		if err == io.EOF && i == len(want) {
			return
		}
		if err != nil || i >= len(want) {
			t.Fatalf("%q: item %d of %d: %v", in, i, len(want), err)
		}
		got := MenuItem{Type: l.Type, Display: string(l.Display()), Selector: string(l.Selector()), Host: string(l.Host()), Port: string(l.Port()), Plus: string(l.Plus())}
		if got != want[i] {
			t.Fatalf("%q: item %d: %+v, want %+v", in, i, got, want[i])
		}
	}
}

// A menu read from its Resource (the dot-framed line path the gateway's
// pages read) gives the reference's items: every line of the menu corpus
// alone, and all of them as one menu, stuffed dots and terminator
// included.
func TestMenuLinesDotFramed(t *testing.T) {
	lines := menuCorpus()
	for _, l := range lines {
		checkDotFramed(t, []byte(l))
	}
	checkDotFramed(t, []byte(strings.Join(lines, "")))
}

// FuzzMenuReader: Next and NextLine give the reference's items for any
// menu text, and never panic; read from a dot-framed Resource
// (checkDotFramed), so do they.
func FuzzMenuReader(f *testing.F) {
	for _, s := range []string{"0a\tb\tc\t70\r\n", "1Six\ta\tb\tc\td\te\r\n.\r\n", "0p\t/p\th\t\xc2\x8570\xe2\x80\x85\t\n", "x\n\n\t\t\t\t\t\t\t\t\t\n", "iinfo\ttab\n..\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkDotFramed(t, in)
		want := referenceMenu(string(in))
		a, b := NewMenuReader(bytes.NewReader(in), 1<<20), NewMenuReader(bytes.NewReader(in), 1<<20)
		for i := 0; ; i++ {
			it, err := a.Next()
			var l MenuLine
			lerr := b.NextLine(&l)
			if err == io.EOF && lerr == io.EOF && i == len(want) {
				return
			}
			if err != nil || lerr != nil || i >= len(want) {
				t.Fatalf("item %d of %d: %v, %v", i, len(want), err, lerr)
			}
			got := MenuItem{Type: l.Type, Display: string(l.Display()), Selector: string(l.Selector()), Host: string(l.Host()), Port: string(l.Port()), Plus: string(l.Plus())}
			if it != want[i] || got != want[i] {
				t.Fatalf("item %d: Next %+v, NextLine %+v, want %+v", i, it, got, want[i])
			}
		}
	})
}
