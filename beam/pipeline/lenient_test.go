package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLenientAgreesWithCLI runs the pipeline with --lenient (Config.Lenient)
// on Prism and compares it with `urlkit canon --lenient --json` on the
// same lines: the ada-url userbait dataset (11,430 real phishing URLs,
// malformed input included) and testdata/idn-ipv6.txt (international host
// names, IPv6 literals with and without zones, logins in https URLs,
// browsers' host numbers, and what the lenient reading still refuses).
// Both read each line with linkset.Parse and the one lenient reading, so
// their distinct canonical URLs, rejections per kind and URLs per scheme
// must be equal.
func TestLenientAgreesWithCLI(t *testing.T) {
	dir := corpora(t)
	bin := buildCLI(t)
	userbait, err := os.ReadFile(filepath.Join(dir, "ada-url-datasets", "userbait.txt"))
	if err != nil {
		t.Fatal(err)
	}
	idn, err := os.ReadFile(filepath.Join("testdata", "idn-ipv6.txt"))
	if err != nil {
		t.Fatal(err)
	}
	all := append(append(bytes.TrimRight(userbait, "\n"), '\n'), idn...)
	distinct, kinds, schemes := cliCanon(t, bin, all, "--lenient")

	out := run(t, Config{Lenient: true}, map[string]string{"userbait.txt": string(userbait), "idn-ipv6.txt": string(idn)})
	diffLists(t, "distinct canonical URLs", out["canonical.txt"], distinct)
	diffMaps(t, "rejected, kind", section(out["counts.tsv"], SectionKind), kinds)
	diffMaps(t, "valid, scheme", section(out["counts.tsv"], SectionScheme), schemes)
	// The corpus's own lines, read leniently, reach the output: IDN
	// A-labels and IPv6 literals in RFC 5952's form.
	for _, want := range []string{"http://xn--bcher-kva.de/katalog", "http://xn--r8jz45g.xn--zckzah/", "http://[2001:db8::1:0:0:1]:8080/a", "https://user:pw@[::1]:8443/x", "http://127.0.0.1/"} {
		found := false
		for _, u := range out["canonical.txt"] {
			found = found || u == want
		}
		if !found {
			t.Errorf("%s is not among the pipeline's canonical URLs", want)
		}
	}
	t.Logf("%d lines, %d distinct canonical URLs, %d schemes, rejections %v", bytes.Count(all, []byte("\n")), len(distinct), len(schemes), kinds)
}
