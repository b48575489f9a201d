package archive

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestWarcioIndexAgrees compares urlkit's index of each WARC file in
// $URLKIT_WARC_DIR with the one warcio.js's cdx-index wrote beside it
// ($URLKIT_WARC_DIR/warcio-cdxj/NAME.cdxj; .ci/run makes both, from the
// files the capture tests leave there). Every record both index must agree
// on the timestamp, URL, media type, status, digest, length and offset;
// the sort key too for http and https, where both write pywb's SURT (for
// the other schemes warcio.js keeps the URL as its key, urlkit Heritrix's
// SURT form: see SortKey), the media type without its parameters. The entries urlkit adds by message-id
// (news:...) are not compared. Skipped when the directory is not set.
func TestWarcioIndexAgrees(t *testing.T) {
	dir := os.Getenv("URLKIT_WARC_DIR")
	if dir == "" {
		t.Skip("URLKIT_WARC_DIR is not set (CI sets it after warcio.js has indexed the capture tests' files)")
	}
	peers, _ := filepath.Glob(filepath.Join(dir, "warcio-cdxj", "*.cdxj"))
	if len(peers) == 0 {
		t.Skip("no warcio.js indexes in " + dir)
	}
	for _, p := range peers {
		base := strings.TrimSuffix(filepath.Base(p), ".cdxj")
		name := filepath.Join(dir, base+".warc.gz")
		f, err := Open(name)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		var ours []Entry
		IndexFile(f, filepath.Base(name), func(e Entry) {
			if !strings.HasPrefix(e.Key, "news:") || strings.HasPrefix(e.URL, "news:") {
				ours = append(ours, e)
			}
		}, func(err error) { t.Errorf("urlkit index: %v", err) })
		f.Close()
		theirs := readPeerIndex(t, p)
		key := func(e Entry) string { return fmt.Sprintf("%d", e.Offset) }
		sort.Slice(ours, func(i, j int) bool { return ours[i].Offset < ours[j].Offset })
		sort.Slice(theirs, func(i, j int) bool { return theirs[i].Offset < theirs[j].Offset })
		if len(ours) != len(theirs) {
			t.Errorf("%s: urlkit indexes %d records, warcio.js %d", name, len(ours), len(theirs))
		}
		byOff := map[string]Entry{}
		for _, e := range theirs {
			byOff[key(e)] = e
		}
		agree := 0
		for _, o := range ours {
			w, ok := byOff[key(o)]
			if !ok {
				t.Errorf("%s: offset %d (%s) is not in warcio.js's index", name, o.Offset, o.URL)
				continue
			}
			http := strings.HasPrefix(o.URL, "http:") || strings.HasPrefix(o.URL, "https:")
			// warcio.js 2.x keeps a resource record's Content-Type
			// parameters ("; charset=utf-8") in mime, its later source and
			// pywb drop them, as urlkit does: compared without them.
			if o.Timestamp != w.Timestamp || o.URL != w.URL || o.Mime != mediaType(w.Mime) || o.Status != w.Status ||
				o.Digest != w.Digest || o.Length != w.Length || http && o.Key != w.Key {
				t.Errorf("%s at %d:\n urlkit   %+v\n warcio.js %+v", name, o.Offset, o, w)
				continue
			}
			agree++
		}
		t.Logf("%s: %d records agree", name, agree)
	}
}

// readPeerIndex reads a CDXJ file another indexer wrote.
func readPeerIndex(t *testing.T, name string) []Entry {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		e, err := ParseLine(sc.Bytes())
		if err != nil {
			t.Errorf("%s: %q: %v", name, sc.Bytes(), err)
			continue
		}
		out = append(out, e)
	}
	return out
}
