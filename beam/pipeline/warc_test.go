package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/linkset"
	"github.com/urlkit/urlkit/scheme"
)

// capture fetches each URL as `urlkit get --warc` does, into a new WARC
// file at path (gzipped record by record when path ends in .gz).
func capture(t testing.TB, path string, urls ...string) {
	t.Helper()
	w, err := archive.Create(path, [][2]string{{"software", "urlkit test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range urls {
		u := urlkit.MustParse(s)
		p, err := scheme.PlanOf(u, scheme.Config{})
		if err != nil {
			t.Fatal(err)
		}
		opts := &access.Options{}
		f := w.Capture(u, opts)
		live, err := access.Execute(context.Background(), p, opts)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		r := f.Resource(live)
		_, err = io.Copy(io.Discard, r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// runWARC runs the pipeline over the WARC files glob matches.
func runWARC(t *testing.T, glob string) map[string][]string {
	t.Helper()
	cfg := Config{InputWARC: glob, Output: filepath.Join(t.TempDir(), "out")}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatalf("prism: %v", err)
	}
	return readOutputs(t, cfg.Output, cfg.shards())
}

// offsets lists where each record of a WARC file starts, by its type and
// target ("resource gopher://..."), as urlkit's own reader finds them.
func offsets(t testing.TB, path string) map[string]int64 {
	t.Helper()
	f, err := archive.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int64{}
	sc := f.Scan()
	for {
		rec, err := sc.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[rec.Type()+" "+rec.TargetURI()] = rec.Offset
	}
}

// The test's archive: a gopher menu (RFC 1436 3.8: information lines are
// no links; an item's URL is RFC 4266's, the type before the selector), a
// text document with URLs in it (RFC 1738 appendix: <URL:...>), and two
// ftp directories with the same listing, the second kept as a revisit
// record (WARC/1.1 6.7.2): its links are its own directory's.
func testArchive(t testing.TB, dir string) (path string, want []string) {
	t.Helper()
	menu := "iWelcome\t\terror.host\t1\r\n" +
		"0About\t/about\texample.org\t70\r\n" +
		"1Software\t/Software\tgopher.example.net\t7070\r\n" +
		"7Search\t/search\tEXAMPLE.org\t70\r\n" +
		"3Oops\t\terror.host\t1\r\n.\r\n"
	about := "See <URL:ftp://ftp.funet.fi/pub/\r\n   README> and http://info.cern.ch/hypertext/WWW/TheProject.html.\r\n.\r\n"
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte(menu), "/about": []byte(about)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gs.Close)
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/a.txt": []byte("a"), "/other/a.txt": []byte("a")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fs.Close)
	path = filepath.Join(dir, "crawl.warc.gz")
	capture(t, path, "gopher://"+gs.Addr()+"/1/m", "gopher://"+gs.Addr()+"/0/about",
		"ftp://"+fs.Addr()+"/pub/", "ftp://"+fs.Addr()+"/other/")
	host, port, _ := strings.Cut(fs.Addr(), ":")
	want = []string{
		"gopher://example.org/0/about",
		"gopher://gopher.example.net:7070/1/Software",
		"gopher://example.org/7/search",
		"ftp://ftp.funet.fi/pub/README",
		"http://info.cern.ch/hypertext/WWW/TheProject.html",
		"ftp://" + host + ":" + port + "/pub/a.txt",
		"ftp://" + host + ":" + port + "/other/a.txt",
	}
	sort.Strings(want)
	return path, want
}

// TestWARCInput: the links of the archived menu and listings and the URLs
// in the archived text document, the revisit read as its original under
// its own target; then the same file damaged in one record, which is
// reported with the file and its offset while the others are still read.
func TestWARCInput(t *testing.T) {
	dir := t.TempDir()
	path, want := testArchive(t, dir)
	var revisit bool
	for k := range offsets(t, path) {
		revisit = revisit || strings.HasPrefix(k, archive.TypeRevisit+" ftp://")
	}
	if !revisit {
		t.Fatalf("no revisit record for the second listing: %v", offsets(t, path))
	}
	out := runWARC(t, path)
	if got := out["canonical.txt"]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("canonical:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(out["rejected.tsv"]) != 0 {
		t.Errorf("rejected: %q", out["rejected.tsv"])
	}

	// The menu's record damaged inside its gzip member (ISO 28500 annex
	// D: each record its own member, so the next one is still found).
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	offs := offsets(t, path)
	var menuAt, nextAt int64 = -1, int64(len(raw))
	for k, off := range offs {
		if strings.HasPrefix(k, "resource gopher://") && strings.HasSuffix(k, "/1/m") {
			menuAt = off
		}
	}
	for _, off := range offs {
		if off > menuAt && off < nextAt {
			nextAt = off
		}
	}
	if menuAt < 0 {
		t.Fatalf("no menu record: %v", offs)
	}
	bad := append([]byte(nil), raw...)
	mid := menuAt + (nextAt-menuAt)/2
	for i := mid; i < mid+8; i++ {
		bad[i] ^= 0x55
	}
	damaged := filepath.Join(dir, "damaged.warc.gz")
	os.WriteFile(damaged, bad, 0o644)
	// A file cut in the middle of its last record, and a file that is not
	// a WARC file at all.
	// An uncompressed file (the records of one gunzipped): the first
	// note's record with a lying Content-Length, the third cut short by
	// the end of the file; the second is still read.
	cut := filepath.Join(dir, "cut.warc")
	var notes [3]string
	var targets []string
	for i := range notes {
		notes[i] = filepath.Join(dir, "note"+strconv.Itoa(i+1)+".txt")
		os.WriteFile(notes[i], []byte("see http://example.com/note"+strconv.Itoa(i+1)+"\n"), 0o644)
		targets = append(targets, "file://"+filepath.ToSlash(notes[i]))
	}
	capture(t, cut+".gz", targets...)
	zr, err := os.Open(cut + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	craw, err := io.ReadAll(gz) // every member: the records one after the other
	zr.Close()
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(cut + ".gz")
	os.WriteFile(cut, craw, 0o644)
	cutOffs := offsets(t, cut)
	lieAt, cutAt := cutOffs["resource "+targets[0]], cutOffs["resource "+targets[2]]
	i := lieAt + int64(bytes.Index(craw[lieAt:], []byte("Content-Length: "))) + int64(len("Content-Length: "))
	if craw[i] < '9' { // the same width: the offsets stay
		craw[i]++
	} else {
		craw[i]--
	}
	os.WriteFile(cut, craw[:len(craw)-10], 0o644)
	os.WriteFile(filepath.Join(dir, "notes.warc"), []byte("this is not a WARC file\n"), 0o644)
	// The revisit's gzip member alone: its original is not in its file.
	var rvAt, rvEnd int64 = -1, int64(len(raw))
	for k, off := range offs {
		if strings.HasPrefix(k, archive.TypeRevisit+" ") {
			rvAt = off
		}
	}
	for _, off := range offs {
		if off > rvAt && off < rvEnd {
			rvEnd = off
		}
	}
	orphan := filepath.Join(dir, "orphan.warc.gz")
	os.WriteFile(orphan, raw[rvAt:rvEnd], 0o644)
	os.Remove(path)

	out = runWARC(t, filepath.Join(dir, "*.warc*"))
	var wantBad []string
	for _, u := range want {
		if !strings.HasPrefix(u, "gopher://") {
			wantBad = append(wantBad, u)
		}
	}
	wantBad = append(wantBad, "http://example.com/note2")
	sort.Strings(wantBad)
	if got := out["canonical.txt"]; strings.Join(got, "\n") != strings.Join(wantBad, "\n") {
		t.Errorf("canonical with a damaged record:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantBad, "\n"))
	}
	rej := out["rejected.tsv"]
	wantRej := []string{
		cut + "\t" + KindBadRecord + "\t" + strconv.FormatInt(cutAt, 10) + "\trecord cut short",
		cut + "\t" + KindBadRecord + "\t" + strconv.FormatInt(lieAt, 10) + "\tContent-Length ",
		damaged + "\t" + KindBadRecord + "\t" + strconv.FormatInt(menuAt, 10) + "\t",
		filepath.Join(dir, "notes.warc") + "\t" + KindBadRecord + "\t0\tnot a WARC file",
		orphan + "\t" + KindBadRecord + "\t0\ta revisit record of ftp://",
	}
	if len(rej) != len(wantRej) {
		t.Fatalf("rejected:\n%s\nwant %d lines", strings.Join(rej, "\n"), len(wantRej))
	}
	for i, w := range wantRej {
		// The reason is quoted when it holds a quote (linkset.Field).
		if got := strings.Replace(rej[i], "\t\"", "\t", 1); !strings.HasPrefix(got, w) {
			t.Errorf("rejected line %d: %q, want it to start %q", i, rej[i], w)
		}
	}
	if c := strings.Join(out["counts.tsv"], "\n"); !strings.Contains(c, "kind\t"+KindBadRecord+"\t5") {
		t.Errorf("counts: %s", c)
	}
}

// TestWARCAgreesWithCLI captures the text corpus (RFCs, drafts and
// minutes of the period) as file: URLs into a WARC file and runs the
// pipeline with --input-warc over it: the URLs found are those of
// `urlkit extract --verbose FILES | urlkit canon`, as in
// TestExtractAgreesWithCLI (which reads the same files as text).
func TestWARCAgreesWithCLI(t *testing.T) {
	files := textCorpus(t, corpora(t))
	targets := make([]string, len(files))
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		targets[i] = "file://" + filepath.ToSlash(abs)
	}
	warc := filepath.Join(t.TempDir(), "corpus.warc.gz")
	capture(t, warc, targets...)
	agreesWithExtract(t, runWARC(t, warc), files)
}

// FuzzReadWARC: any bytes given as a WARC file are read to the end
// without a panic or an error for the whole file; every record that
// cannot be read is reported with the file's name and an offset inside
// the file. Seeds: the test archive (gzipped record by record, and
// gunzipped) and damaged forms of it.
func FuzzReadWARC(f *testing.F) {
	path, _ := testArchive(f, f.TempDir())
	gz, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		f.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(gz)
	f.Add(plain)
	f.Add(gz[:len(gz)-7])
	f.Add(plain[:len(plain)/2])
	f.Add(bytes.Replace(plain, []byte("Content-Length: 1"), []byte("Content-Length: 2"), 1))
	f.Add([]byte("WARC/1.1\r\nWARC-Type: revisit\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := ReadWARC("fuzz.warc", bytes.NewReader(data), int64(len(data)), linkset.Options{},
			func(string) {},
			func(r linkset.Record) {
				if r.Kind != KindBadRecord {
					return // a candidate the text extractor gave up
				}
				if n++; n > len(data)+2 {
					t.Fatalf("more than %d bad records in %d bytes", n, len(data))
				}
				if r.Input != "fuzz.warc" || r.Offset < 0 || r.Offset > len(data) || r.Reason == "" {
					t.Fatalf("bad record %+v in %d bytes", r, len(data))
				}
			})
		if err != nil {
			t.Fatalf("ReadWARC: %v", err)
		}
	})
}
