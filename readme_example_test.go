package urlkit_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
	"github.com/urlkit/urlkit/scheme"
)

// Example_readme is README's library example ("The library, coming from
// net/url") compiled and run, each line as README writes it (comments
// aside): TestReadmeExample holds README to these lines.
func Example_readme() {
	a := urlkit.MustParse("http://info.cern.ch/albert/bertram/marie-claude")
	b := urlkit.MustParse("http://info.cern.ch/albert/bertram/marie%2Dclaude")

	u, err := urlkit.Parse("ftp://foo:@host.com/pub/file;type=i")
	pass, ok := u.Password()
	v, err := scheme.ViewOf(u)
	ftp := v.(*scheme.FTP)
	fmt.Printf("%q %v %q %q %c %v\n", pass, ok, ftp.CWD, ftp.Name, ftp.Type, err)

	w := urlkit.MustParse("http://h.example/docs/?q=old&page=2")
	w, err = edit.SetSearchValue(w, "q", "new words")
	w, err = edit.JoinPath(w, "my notes.txt")
	fmt.Println(w, err)
	same := urlkit.Equal(a, b)
	nu, err := w.NetURL()
	fmt.Println(same, nu, err)
	// Output:
	// "" true ["pub"] "file" i <nil>
	// http://h.example/docs/my%20notes.txt?q=new+words&page=2 <nil>
	// true http://h.example/docs/my%20notes.txt?q=new+words&page=2 <nil>
}

// TestReadmeExample requires every line of README's Go example to be a
// line of Example_readme (its code, without the comment after it), so that
// the example a newcomer copies compiles and does what its comments say.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(src), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	_, block, ok := strings.Cut(string(readme), "\n```go\n")
	if !ok {
		t.Fatal("README.md has no ```go block")
	}
	block, _, _ = strings.Cut(block, "\n```")
	n := 0
	for _, l := range strings.Split(block, "\n") {
		code, _, _ := strings.Cut(l, " //") // a comment, not the "//" of a URL
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		n++
		if !have[code] {
			t.Errorf("README's Go example has %q, which Example_readme does not run", code)
		}
	}
	if n < 5 {
		t.Errorf("README's Go example: %d lines of code found", n)
	}
}
