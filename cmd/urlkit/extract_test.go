package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example paragraph of RFC 1738's appendix, "Recommendations for URLs
// in Context".
const appendixExample = `      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.
`

func TestExtractStdin(t *testing.T) {
	out, errs, code := runCLI(t, appendixExample, "extract")
	want := "ftp://info.cern.ch/pub/www/doc;type=d\nftp://ds.internic.net/rfc\nhttp://ds.internic.net/instructions/overview.html#WARNING\n"
	if code != exitOK || out != want || errs != "" {
		t.Errorf("extract: status %d, stdout %q, stderr %q; want 0, %q, nothing", code, out, errs, want)
	}
}

func TestExtractFilesJSON(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("see <URL:http://x.example/draft-\n   ietf.txt> now"), 0o644)
	os.WriteFile(b, []byte("home: http://y.example/~me/."), 0o644)
	out, errs, code := runCLI(t, "", "extract", "--json", a, b)
	if code != exitOK || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines of JSON, want 2:\n%s", len(lines), out)
	}
	var r1, r2 extractResult
	if err := json.Unmarshal([]byte(lines[0]), &r1); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &r2); err != nil {
		t.Fatal(err)
	}
	// RFC 1738 appendix: after a line break right after a hyphen, "the
	// hyphen may or may not actually be part of the URL".
	want1 := extractResult{File: a, URL: "http://x.example/draft-ietf.txt", Start: 4, End: 45, Wrapped: true, Prefixed: true,
		Ambiguous: true, Alternatives: []string{"http://x.example/draft-ietf.txt", "http://x.example/draftietf.txt"}}
	if r1.File != want1.File || r1.URL != want1.URL || r1.Start != want1.Start || r1.End != want1.End ||
		!r1.Wrapped || !r1.Prefixed || !r1.Ambiguous || strings.Join(r1.Alternatives, " ") != strings.Join(want1.Alternatives, " ") {
		t.Errorf("first result %+v, want %+v", r1, want1)
	}
	// RFC 1738 2.2: "~" is unsafe; the URL is given repaired, with the
	// repair and the text as written.
	if r2.File != b || r2.URL != "http://y.example/%7Eme/" || r2.Text != "http://y.example/~me/" || r2.Start != 6 || r2.End != 27 ||
		r2.Wrapped || r2.Ambiguous || len(r2.Warnings) != 1 || r2.Warnings[0].Offset != 23 {
		t.Errorf("second result %+v", r2)
	}
	if !strings.Contains(lines[0], `"start":4`) || !strings.Contains(lines[0], `"alternatives":[`) {
		t.Errorf("JSON field names: %s", lines[0])
	}
}

func TestExtractMissingFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.txt")
	os.WriteFile(ok, []byte("mailto:a@b.example"), 0o644)
	out, errs, code := runCLI(t, "", "extract", filepath.Join(dir, "missing.txt"), ok)
	if code != exitInvalid || out != "mailto:a@b.example\n" || !strings.Contains(errs, "missing.txt") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1, the URL of the other file, and the missing file named", code, out, errs)
	}
}

func TestExtractUsage(t *testing.T) {
	_, errs, code := runCLI(t, "", "extract", "--bogus")
	if code != exitUsage || !strings.Contains(errs, "usage: urlkit extract") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
}
