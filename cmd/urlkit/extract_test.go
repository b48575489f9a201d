package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/testio"
)

// appendixExample is the example paragraph of RFC 1738's appendix,
// "Recommendations for URLs in Context", which the text package's tests
// read too.
func appendixExample(t *testing.T) string {
	b, err := os.ReadFile("../../text/testdata/rfc1738-appendix.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExtractStdin(t *testing.T) {
	out, errs, code := runCLI(t, appendixExample(t), "extract")
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
	type decoded struct {
		extractResult
		Warnings []struct {
			Offset    int    `json:"offset"`
			Component string `json:"component"`
			Message   string `json:"message"`
		} `json:"warnings"`
	}
	var r1, r2 decoded
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
		r2.Wrapped || r2.Ambiguous || len(r2.Warnings) != 1 || r2.Warnings[0].Offset != 23 || r2.Warnings[0].Component != "path" || r2.Warnings[0].Message == "" {
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

// TestExtractVerbose checks that --verbose names the line and the reason
// of each candidate skipped, on standard error, escaped, while the URLs
// go to standard output.
func TestExtractVerbose(t *testing.T) {
	// The 1993 URL draft's reference list writes a host with a trailing
	// dot; RFC 1738 section 5 ends a host name with a toplabel.
	in := "refs:\nURL=<ftp://info.cern.ch./pub/www/doc/http-spec.txt>\nsee https://bücher.example/ and http://a.example/\n<URL:http://x\x1b[31m.example/>\n"
	out, errs, code := runCLI(t, in, "extract", "--verbose")
	if code != exitOK || out != "http://a.example/\n" {
		t.Errorf("status %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	want := []string{
		`urlkit: extract: standard input:2: skipped "ftp://info.cern.ch./pub/www/doc/http-spec.txt": host: a host name must not end with "."`,
		`urlkit: extract: standard input:3: skipped "https://bücher.example/": non-ASCII character`,
		`urlkit: extract: standard input:4: skipped "http://x\x1b[31m.example/": host: byte 0x1B`,
	}
	if len(lines) != len(want) {
		t.Fatalf("stderr %q, want %d lines", errs, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("stderr line %d = %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	if strings.Contains(errs, "\x1b") {
		t.Errorf("an escape byte reached the terminal: %q", errs)
	}
	// Without --verbose, nothing on standard error.
	if _, errs, _ := runCLI(t, in, "extract"); errs != "" {
		t.Errorf("stderr without --verbose: %q", errs)
	}
}

// TestExtractLenient checks --lenient: non-ASCII letters in a path are
// percent-encoded byte by byte (RFC 1738 2.2), a non-ASCII host is mapped
// by IDNA (the lenient reading), and without it neither URL is cut short.
func TestExtractLenient(t *testing.T) {
	in := "https://bücher.example/ http://a.example/Dürst/"
	out, _, code := runCLI(t, in, "extract", "--lenient")
	if code != exitOK || out != "https://xn--bcher-kva.example/\nhttp://a.example/D%C3%BCrst/\n" {
		t.Errorf("--lenient: status %d, stdout %q", code, out)
	}
	out, _, code = runCLI(t, in, "extract")
	if code != exitOK || out != "" {
		t.Errorf("strict: status %d, stdout %q, want nothing (never https://b)", code, out)
	}
}

// TestExtractStreams checks that extract prints each URL as soon as its
// end has arrived on a pipe, before the input ends, as the line commands
// do.
func TestExtractStreams(t *testing.T) {
	pr, pw := io.Pipe()
	var out, errs testio.SyncBuffer
	done := make(chan int)
	go func() {
		done <- run(&env{stdin: pr, stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}, []string{"extract"})
	}()
	for _, step := range []struct{ write, want string }{
		{"first <URL:ftp://a.example/\n  pub/x> and", "ftp://a.example/pub/x\n"},
		{" then http://b.example/y", ""}, // its end has not arrived
		{".\n", "ftp://a.example/pub/x\nhttp://b.example/y\n"},
	} {
		pw.Write([]byte(step.write))
		if step.want == "" {
			continue
		}
		deadline := time.Now().Add(10 * time.Second)
		for out.String() != step.want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if got := out.String(); got != step.want {
			t.Fatalf("after writing %q and before the end of input, stdout %q, want %q", step.write, got, step.want)
		}
	}
	pw.Close()
	if code := <-done; code != exitOK || errs.String() != "" {
		t.Errorf("status %d, stderr %q", code, errs.String())
	}
}
