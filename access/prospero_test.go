package access

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
	"github.com/urlkit/urlkit/scheme"
)

// Sources of the Prospero tests: RFC 1738 3.11 (the URL, the double slash
// of an absolute hsoname, ";field=value"); "The Prospero Protocol, Version
// 5" (Neuman and Augart, USC/ISI, draft of 12 June 1993: VERSION,
// AUTHENTICATE, DIRECTORY, LIST, GET-OBJECT-INFO, the LINK and ATTRIBUTE
// lines, quoting, the access-method attribute, and its appendix on ARDP:
// the header fields, windows and acknowledgements); and the captures of
// the Prospero server dirsrv with its clients vls and pstatus in
// ../shared/servers/prospero/transcripts.

// discardConn is a net.Conn whose writes go nowhere (for acknowledgements
// when replies are fed to an ardpConn by hand).
type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error) { return len(p), nil }
func (discardConn) Close() error                { return nil }

// replyOf feeds datagrams to a reply for connection cid, as if received.
func replyOf(cid uint16, dgs [][]byte) (*ardpConn, error) {
	x := &execution{ctx: context.Background(), opts: &Options{}}
	a := &ardpConn{x: x, conn: discardConn{}, cid: cid, step: "test", buf: make([]byte, 65536), ahead: map[uint16][]byte{}, next: 1, retry: ardpFirstRetry}
	for _, d := range dgs {
		if _, err := a.packet(d); err != nil {
			return a, err
		}
	}
	return a, nil
}

// linesOf reads every line of a reply.
func linesOf(r io.Reader) ([][]string, error) {
	lx := &prosperoLexer{r: bufio.NewReader(r), step: "test", x: &execution{ctx: context.Background(), opts: &Options{}}}
	var out [][]string
	for {
		toks, err := lx.line(DefaultMaxReplyLine)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, toks)
	}
}

// prosperoDatagrams returns a capture's datagrams: requests (to the
// server's port) and replies.
func prosperoDatagrams(t *testing.T, name string, port int) (reqs, replies [][]byte) {
	t.Helper()
	ps, err := testservers.ReadPcap(testservers.Transcript(t, "prospero/transcripts/"+name))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		switch {
		case !p.UDP:
		case p.DstPort == port:
			reqs = append(reqs, p.Data)
		case p.SrcPort == port:
			replies = append(replies, p.Data)
		}
	}
	return reqs, replies
}

// The capture of requests sent by hand (demo-contents): this client's
// requests for the same objects carry the same tokens (the VERSION line
// aside: vls also names its software), and the server's replies read as
// the annotated dump says: the contents of hello.txt, NONE-FOUND, FAILURE
// NOT-A-DIRECTORY, the two LINKs of /pub.
func TestProsperoTranscript(t *testing.T) {
	reqs, replies := prosperoDatagrams(t, "demo-contents.pcap", 8191)
	if len(reqs) != 4 || len(replies) != 4 {
		t.Fatalf("%d requests, %d replies", len(reqs), len(replies))
	}
	root := "/tmp/urlkit-prospero-demo/root"
	plan := func(hso string) *scheme.ProsperoPlan {
		return planFor(t, "prospero://127.0.0.1:8191/"+hso, scheme.Config{Email: "root@localhost"}).(*scheme.ProsperoPlan)
	}
	tokens := func(msg []byte) [][]string {
		l, err := linesOf(bytes.NewReader(msg))
		if err != nil {
			t.Fatal(err)
		}
		return l[1:] // without VERSION
	}
	for i, c := range []struct {
		mine scheme.ProsperoRequest
	}{
		{plan(root + "/pub/hello.txt").Requests[2]},
		{plan(root + "/pub/nosuch.txt").Requests[2]},
		{plan(root + "/nosuchdir").Requests[0]},
		{plan(root + "/pub").Requests[0]},
	} {
		h, payload, ok := hostile.ParseARDP(reqs[i])
		if !ok || h.Len != 9 || h.Seq != 1 || h.Total != 1 {
			t.Fatalf("request %d header %+v", i, h)
		}
		got, want := tokens([]byte(c.mine.Message())), tokens(payload)
		// The listing asks for each entry's attributes, as vls -A does
		// (Prospero protocol v5, LIST's ATTRIBUTES option); the capture is
		// of a plain vls, whose LIST has no option.
		if l := got[len(got)-1]; l[0] == "LIST" && l[1] == "ATTRIBUTES" {
			l[1] = ""
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("request %d:\n got %q\nwant %q", i, got, want)
		}
	}
	read := func(d []byte) [][]string {
		a, err := replyOf(0x4242, [][]byte{d})
		if err != nil || !a.complete() {
			t.Fatalf("reply %x: %v", d, err)
		}
		l, err := linesOf(a)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := read(replies[0]); len(l) != 1 || len(l[0]) != 7 || l[0][6] != "Hello from the Prospero demo tree.\n" {
		t.Errorf("contents %q", l)
	}
	if l := read(replies[1]); fmt.Sprint(l) != "[[NONE-FOUND]]" {
		t.Errorf("missing file %q", l)
	}
	if l := read(replies[2]); fmt.Sprint(l) != "[[FAILURE NOT-A-DIRECTORY]]" {
		t.Errorf("missing directory %q", l)
	}
	l := read(replies[3])
	if len(l) != 2 || l[0][3] != "subdir" || l[0][7] != root+"/pub/subdir" || l[1][2] != "FILE" || l[1][5] != "127.0.0.1(8191)" {
		t.Errorf("listing %q", l)
	}
}

// ARDP headers "may be truncated at any point" (Prospero protocol v5,
// appendix ARDP): a 3-byte header is a whole one-packet message; packets
// arriving out of order are put in order; the total may come late; a
// packet beyond the total, or a total that changes, is an error.
func TestARDPReassembly(t *testing.T) {
	pkt := func(seq, total uint16, s string) []byte {
		return hostile.ARDPPacket(hostile.ARDPHeader{Len: 7, CID: 7, Seq: seq, Total: total}, []byte(s))
	}
	a, err := replyOf(7, [][]byte{pkt(2, 0, "b"), pkt(1, 0, "a"), pkt(3, 3, "c\n")})
	if b, _ := io.ReadAll(a); err != nil || string(b) != "abc\n" || !a.complete() {
		t.Errorf("out of order: %q %v", b, err)
	}
	// dirsrv's second window carries the connection id byte-swapped.
	a, err = replyOf(0x0102, [][]byte{
		hostile.ARDPPacket(hostile.ARDPHeader{Len: 7, CID: 0x0102, Seq: 1}, []byte("a")),
		hostile.ARDPPacket(hostile.ARDPHeader{Len: 7, CID: 0x0201, Seq: 2, Total: 2}, []byte("b")),
		hostile.ARDPPacket(hostile.ARDPHeader{Len: 7, CID: 0x0303, Seq: 2, Total: 2}, []byte("X")),
	})
	if b, _ := io.ReadAll(a); err != nil || string(b) != "ab" {
		t.Errorf("swapped id: %q %v", b, err)
	}
	if _, err := replyOf(7, [][]byte{pkt(1, 3, "a"), pkt(2, 5, "b")}); err == nil || !strings.Contains(err.Error(), "says the reply has 5 packets, an earlier one said 3") {
		t.Errorf("changed total: %v", err)
	}
	if _, err := replyOf(7, [][]byte{pkt(4, 3, "a")}); err == nil || !strings.Contains(err.Error(), "packet 4 of a reply of 3") {
		t.Errorf("beyond the total: %v", err)
	}
	// Garbage is ignored: short, other version, header longer than the
	// datagram, another connection.
	a, err = replyOf(7, [][]byte{{}, {0x49, 0, 7}, {0x3f, 0, 7}, {9, 0, 8, 0, 1, 0, 1, 0, 0, 'x'}, {3, 0, 7, 'o', 'k'}})
	if b, _ := io.ReadAll(a); err != nil || string(b) != "ok" {
		t.Errorf("garbage: %q %v", b, err)
	}
}

// The lexer: quotes anywhere in a token, ” for a quote, line feeds inside
// quotes, CR LF as a line end, NUL bytes as dirsrv sends them (unquoted).
func TestProsperoTokens(t *testing.T) {
	l, err := linesOf(strings.NewReader("A 35' bytes' '' 'it''s'\r\nB 'two\nlines' \x00x'\t'\n\nC"))
	if err != nil || fmt.Sprintf("%q", l) != `[["A" "35 bytes" "" "it's"] ["B" "two\nlines" "\x00x\t"] ["C"]]` {
		t.Errorf("%q %v", l, err)
	}
	if _, err := linesOf(strings.NewReader("A 'open")); err == nil || !strings.Contains(err.Error(), "ends inside a quoted token") {
		t.Errorf("unterminated: %v", err)
	}
}

// FuzzProsperoReply: datagrams (the input cut at each 0xff byte) fed to
// the ARDP reassembly and the reply's lexer, as the listing reads them:
// errors, never a panic, and no more bytes out than in.
func FuzzProsperoReply(f *testing.F) {
	f.Add([]byte("\x03\x00\x07LINK L FILE a INTERNET-D h(1) ASCII '/a b' 0\n"))
	f.Add([]byte("\x07\x00\x07\x00\x02\x00\x02b'\n\xff\x07\x00\x07\x00\x01\x00\x00LINK 'a"))
	f.Add([]byte("\x03\x00\x07ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA 'x''y\n'\n"))
	f.Add([]byte("\x0c\x00\x07\x00\x01\x00\x00\x00\x00\x00\x00\x80FAILURE NOT-A-DIRECTORY\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		dgs := bytes.Split(in, []byte{0xff})
		a, _ := replyOf(7, dgs)
		if a.got > int64(len(in)) {
			t.Fatalf("%d bytes out of %d in", a.got, len(in))
		}
		x := &execution{ctx: context.Background(), opts: &Options{MaxReplyLine: 4096}}
		lx := &prosperoLexer{r: bufio.NewReader(bytes.NewReader(a.unread)), x: x, step: "fuzz"}
		l := &prosperoListing{x: x, lx: lx, p: &scheme.ProsperoPlan{}, step: "fuzz", maxLine: 4096}
		out, _ := io.ReadAll(l)
		if len(out) > 8*len(in)+64 {
			t.Fatalf("%d bytes of listing from %d", len(out), len(in))
		}
	})
}

// ---- against dirsrv -------------------------------------------------------

// vlsEntry is an entry of `vls -v`.
type vlsEntry struct{ name, target, host, hso string }

var vlsField = regexp.MustCompile(`(?m)^ *(Name|Target|Host|Hsoname): (.*)$`)

// vls runs Prospero's own client (../shared/servers/prospero/client.sh):
// `vls -v PATH`, its virtual system rooted at the server's tree.
func vls(t *testing.T, env map[string]string, path string) []vlsEntry {
	t.Helper()
	_, port, _ := net.SplitHostPort(env["URLKIT_PROSPERO_ADDR"])
	// vls's ARDP library gives up after its own few seconds of
	// retransmissions ("Timed out (ardp)"), which a loaded machine can
	// outlast (dirsrv answers late): the oracle is asked again, up to
	// three times, before the test fails for want of it.
	var out []byte
	for try := 1; ; try++ {
		cmd := exec.Command("bash", filepath.Join(testservers.ServersDir(), "prospero", "client.sh"), env["URLKIT_PROSPERO_PREFIX"], port, "vls", "-v", path)
		cmd.Env = append(os.Environ(), "PROSPERO_ROOT="+env["URLKIT_PROSPERO_ROOT"])
		var err error
		out, err = cmd.CombinedOutput()
		if err == nil {
			break
		}
		if try == 3 || !bytes.Contains(out, []byte("Timed out (ardp)")) {
			t.Fatalf("vls -v %s (try %d): %v\n%s", path, try, err, out)
		}
		t.Logf("vls -v %s timed out (try %d); asking again", path, try)
	}
	var es []vlsEntry
	for _, m := range vlsField.FindAllStringSubmatch(string(out), -1) {
		if m[1] == "Name" {
			es = append(es, vlsEntry{name: m[2]})
			continue
		}
		if len(es) == 0 {
			t.Fatalf("vls output without a Name first:\n%s", out)
		}
		e := &es[len(es)-1]
		switch m[1] {
		case "Target":
			e.target = m[2]
		case "Host":
			e.host = m[2]
		case "Hsoname":
			e.hso = m[2]
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	return es
}

// listing reads a Prospero directory URL's listing.
func listing(t *testing.T, in string, opts *Options) []ProsperoEntry {
	t.Helper()
	b := mustGet(t, in, scheme.Config{}, opts)
	es, notes, err := ReadProsperoListing(bytes.NewReader(b))
	if err != nil || len(notes) != 0 {
		t.Fatalf("%s: %v %q\n%s", in, err, notes, b)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	return es
}

// get of a Prospero directory lists what vls lists: name, target, host
// and hsoname of each link; each entry's URL is the hsoname after a double
// slash (RFC 1738 3.11). The root of the tree, /pub, its subdirectory and
// a directory of 100 entries (a reply of 14 ARDP packets).
func TestProsperoRealListings(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	for _, dir := range []string{"", "/pub", "/pub/subdir", "/pub/several"} {
		var trace bytes.Buffer
		start := time.Now()
		got := listing(t, "prospero://"+addr+"/"+escapeSegments(root+dir), &Options{Trace: &trace})
		t.Logf("%s: %d entries in %v, %d ARDP packets", dir, len(got), time.Since(start), strings.Count(trace.String(), "< ARDP packet"))
		want := vls(t, env, dir+"/")
		if len(got) != len(want) || len(got) == 0 {
			t.Fatalf("%s: %d entries, vls lists %d", dir, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Name != w.name || g.Target != w.target || g.Host != w.host || g.HSOName != w.hso {
				t.Errorf("%s: entry %+v, vls: %+v", dir, g, w)
			}
			if g.URL != ProsperoURL(w.host, w.hso) || !strings.HasPrefix(g.URL, "prospero://"+addr+"//") {
				t.Errorf("%s: URL %s", dir, g.URL)
			}
		}
	}
}

// Each entry carries what `vls -A` shows of it (Prospero protocol v5,
// LIST's ATTRIBUTES option): SIZE, LAST-MODIFIED and the access methods,
// checked against the files on disk that dirsrv serves.
func TestProsperoRealAttributes(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	got := listing(t, "prospero://"+addr+"/"+escapeSegments(root+"/pub"), nil)
	if len(got) == 0 {
		t.Fatal("an empty listing")
	}
	for _, e := range got {
		fi, err := os.Stat(root + "/pub/" + e.Name)
		if err != nil {
			t.Fatal(err)
		}
		if e.Size != fi.Size() || e.Modified != fi.ModTime().UTC().Format("20060102150405Z") {
			t.Errorf("%s: size %d, modified %q; on disk %d, %s", e.Name, e.Size, e.Modified, fi.Size(), fi.ModTime().UTC())
		}
		if fi.Mode().IsRegular() != slices.Contains(e.Access, "PROSPERO-CONTENTS") {
			t.Errorf("%s: access methods %q", e.Name, e.Access)
		}
	}
}

// A name outside the tree dirsrv serves ("pub", "/pub", "", a prefix of
// the root) is refused (FAILURE NOT-AUTHORIZED); the error names the root
// the server reports to STATUS (as pstatus shows it) and the URL of the
// same name under it, which lists.
func TestProsperoRealRoot(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	for _, tc := range []struct{ path, want string }{
		{"pub", root + "/pub"},
		{"/pub", root + "/pub"},
		{"", root},
		{"/" + strings.Split(strings.Trim(root, "/"), "/")[0], root},
	} {
		var trace bytes.Buffer
		_, _, err := get(t, "prospero://"+addr+"/"+escapeSegments(tc.path), scheme.Config{}, &Options{Trace: &trace})
		var re *ProsperoRootError
		if !errors.As(err, &re) || re.Root != root {
			t.Fatalf("%q: %v\n%s", tc.path, err, trace.String())
		}
		want := "prospero://" + addr + "/" + escapeSegments(tc.want)
		if re.URL() != want || !strings.Contains(err.Error(), "try "+want) || !strings.Contains(trace.String(), "> STATUS\n") {
			t.Errorf("%q: %s, want %s", tc.path, err, want)
		}
		if got := listing(t, re.URL(), nil); len(got) == 0 {
			t.Errorf("%s lists nothing", re.URL())
		}
	}
}

// RFC 1738 3.11's ";field=value": OBJECT-VERSION as the object-version
// token (0: the current version), another field as a SELECT line after
// DIRECTORY; dirsrv takes both and lists the same directory.
func TestProsperoRealFields(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	base := "prospero://" + env["URLKIT_PROSPERO_ADDR"] + "/" + env["URLKIT_PROSPERO_ROOT"] + "/pub"
	var trace bytes.Buffer
	got := listing(t, base+";OBJECT-VERSION=0;DESCRIPTION=demo%20tree", &Options{Trace: &trace})
	want := listing(t, base, nil)
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
		t.Errorf("with fields %v, without %v", got, want)
	}
	for _, w := range []string{"/pub' 0\n", "> SELECT LINK FIELD DESCRIPTION SEQUENCE 'demo tree'\n"} {
		if !strings.Contains(trace.String(), w) {
			t.Errorf("trace lacks %q:\n%s", w, trace.String())
		}
	}
}

// A directory of 300 entries: a reply of some 41 packets in three windows, each
// acknowledged (dirsrv waits for it). vls itself gives up on it ("Timed
// out (ardp)": its library drops the packets after the first window,
// whose connection id dirsrv sends byte-swapped), so the oracle is the
// directory on disk: every file, with its path as hsoname.
func TestProsperoRealManyPackets(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	var trace bytes.Buffer
	start := time.Now()
	got := listing(t, "prospero://"+addr+"/"+root+"/pub/many", &Options{Trace: &trace})
	t.Logf("%d entries in %v, %d ARDP packets", len(got), time.Since(start), strings.Count(trace.String(), "< ARDP packet"))
	files, err := os.ReadDir(root + "/pub/many")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(files) || len(got) != 300 {
		t.Fatalf("%d entries, %d files", len(got), len(files))
	}
	for i, f := range files { // both sorted by name
		g := got[i]
		if g.Name != f.Name() || g.HSOName != root+"/pub/many/"+f.Name() || g.Target != "FILE" {
			t.Errorf("entry %+v, file %s", g, f.Name())
		}
	}
	// Each hsoname carries the root's path, so the number of packets
	// depends on where the run's directory is (41 under /tmp/u23/srv.XXXXXX,
	// 44 under CI's /tmp/urlkit-ci-servers.XXXXXXXX): the last one must be
	// n/n, after the acknowledgements of the first two windows of 16.
	// The packets are counted by their sequence numbers, each once: on a
	// loaded machine a retransmission or a late acknowledgement brings
	// some twice, and a count of the trace's lines would pass n. (The
	// total is "?" until a packet has said it.)
	n, seen := 0, map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^< ARDP packet (\d+)/(\d+|\?) `).FindAllStringSubmatch(trace.String(), -1) {
		seq, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		seen[seq], n = true, max(n, total)
	}
	if n <= 32 {
		t.Fatalf("%d ARDP packets, want more than two windows of 16", n)
	}
	for seq := 1; seq <= n; seq++ {
		if !seen[seq] {
			t.Errorf("trace lacks ARDP packet %d/%d", seq, n)
		}
	}
	for _, w := range []string{"> ARDP acknowledgement: received through packet 16", "> ARDP acknowledgement: received through packet 32", fmt.Sprintf("< ARDP packet %d/%d", n, n)} {
		if !strings.Contains(trace.String(), w) {
			t.Errorf("trace lacks %q", w)
		}
	}
}

// A file: its attributes, then its contents through PROSPERO-CONTENTS,
// bytes exactly: text, every byte value (dirsrv sends NUL unquoted), a
// name with a space and a quote, and 360 KB in many packets. The SIZE
// attribute is the Resource's size.
func TestProsperoRealFiles(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	for _, name := range []string{"hello.txt", "all256.bin", "it's spaced.txt", "large.txt"} {
		p := root + "/pub/" + name
		start := time.Now()
		var trace bytes.Buffer
		b, r, err := get(t, "prospero://"+addr+"/"+escapeSegments(p), scheme.Config{}, &Options{Trace: &trace})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, trace.String())
		}
		t.Logf("%s: %d bytes in %v", name, len(b), time.Since(start))
		want := readFile(t, p)
		if !bytes.Equal(b, want) || r.Size != int64(len(want)) || r.Kind != "file" {
			t.Errorf("%s: %d bytes (size %d), want %d", name, len(b), r.Size, len(want))
		}
		for _, w := range []string{"< FAILURE NOT-A-DIRECTORY", "> GET-OBJECT-INFO #ALL ASCII ", "ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS", "> GET-OBJECT-INFO CONTENTS ASCII "} {
			if !strings.Contains(trace.String(), w) {
				t.Errorf("%s: trace lacks %q", name, w)
			}
		}
	}
	// What is not there: the server's answer.
	_, _, err := get(t, "prospero://"+addr+"/"+root+"/pub/nosuch.txt", scheme.Config{}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "FAILURE NOT-FOUND: no such object") {
		t.Errorf("missing file: %v", err)
	}
	// --max-size is checked against SIZE before the contents are asked for.
	_, _, err = get(t, "prospero://"+addr+"/"+root+"/pub/large.txt", scheme.Config{}, &Options{MaxSize: 1000})
	wantLimit(t, err, "max-size", "GET-OBJECT-INFO 'CONTENTS'")
}

// udpProxy forwards datagrams between a client and a server, dropping the
// ones drop says to.
type udpProxy struct {
	addr string
	pc   net.PacketConn
	mu   sync.Mutex
	n    map[string]int // datagrams seen by direction and payload kind
}

func startUDPProxy(t *testing.T, server string, drop func(toServer bool, n int, d []byte) bool) *udpProxy {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	up, err := net.Dial("udp", server)
	if err != nil {
		t.Fatal(err)
	}
	p := &udpProxy{addr: pc.LocalAddr().String(), pc: pc, n: map[string]int{}}
	var client net.Addr
	var mu sync.Mutex
	toS, toC := 0, 0
	go func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			mu.Lock()
			client = from
			toS++
			k := toS
			mu.Unlock()
			if !drop(true, k, buf[:n]) {
				up.Write(buf[:n])
			}
		}
	}()
	go func() {
		buf := make([]byte, 65536)
		for {
			n, err := up.Read(buf)
			if err != nil {
				return
			}
			mu.Lock()
			to := client
			toC++
			k := toC
			mu.Unlock()
			if !drop(false, k, buf[:n]) {
				pc.WriteTo(buf[:n], to)
			}
		}
	}()
	t.Cleanup(func() { pc.Close(); up.Close() })
	return p
}

// Lost datagrams between this client and the real dirsrv: the first
// request is lost (sent again after the retransmission timer), and then
// two packets of a multi-packet reply (recovered by acknowledging what
// arrived): the listing is still complete.
func TestProsperoRealLoss(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	p := startUDPProxy(t, env["URLKIT_PROSPERO_ADDR"], func(toServer bool, n int, d []byte) bool {
		if toServer {
			return n == 1 // the first request
		}
		return n == 5 || n == 20 // a packet of the first window, one of the second
	})
	var trace bytes.Buffer
	got := listing(t, "prospero://"+p.addr+"/"+env["URLKIT_PROSPERO_ROOT"]+"/pub/many", &Options{Trace: &trace})
	if len(got) != 300 {
		t.Fatalf("%d entries through a lossy path\n%s", len(got), trace.String())
	}
	if !strings.Contains(trace.String(), "sending the request again") {
		t.Errorf("the lost request was not sent again:\n%.3000s", trace.String())
	}
}

// ---- hostile servers ----------------------------------------------------------

// Misbehaving UDP servers: each stopped at a bound naming it, in little
// memory, never hanging.
func TestHostileProspero(t *testing.T) {
	for _, c := range []struct {
		name   string
		handle func(*hostile.UDPServer, net.Addr, []byte)
		opts   Options
		check  func(t *testing.T, s *hostile.UDPServer, err error, el time.Duration)
		long   bool // 4096 acknowledged windows: run without the race detector only
	}{
		{"a listing without end", hostile.ProsperoEndless, Options{MaxSize: 4 << 20},
			func(t *testing.T, _ *hostile.UDPServer, err error, _ time.Duration) {
				wantLimit(t, err, "max-size", "LIST")
			}, false},
		{"a listing without end, no --max-size: 65535 packets at most", hostile.ProsperoEndlessSmall, Options{},
			func(t *testing.T, _ *hostile.UDPServer, err error, _ time.Duration) {
				wantLimit(t, err, "reply size", "LIST")
			}, true},
		{"a total that changes", hostile.ProsperoLyingTotal, Options{},
			func(t *testing.T, _ *hostile.UDPServer, err error, _ time.Duration) {
				if err == nil || !strings.Contains(err.Error(), "earlier one said 3") {
					t.Errorf("err = %v", err)
				}
			}, false},
		{"garbage datagrams, then silence", hostile.ProsperoGarbage(1), Options{ReadTimeout: 300 * time.Millisecond},
			func(t *testing.T, _ *hostile.UDPServer, err error, el time.Duration) {
				// a protocol error (a packet beyond its total) or the
				// timeout, naming the step
				if err == nil || !strings.Contains(err.Error(), `LIST "/x"`) || el > 3*time.Second {
					t.Errorf("err = %v after %v", err, el)
				}
			}, false},
		{"wait packets without end", hostile.ProsperoWaitForever, Options{ReadTimeout: 400 * time.Millisecond},
			func(t *testing.T, _ *hostile.UDPServer, err error, el time.Duration) {
				wantLimit(t, err, "timeout", "LIST")
				if el > 3*time.Second {
					t.Errorf("stopped after %v", el)
				}
			}, false},
		// The request goes at 0, 0.5 s and 1.5 s (the retransmission
		// timer doubles from ardpFirstRetry), the next would at 3.5 s:
		// the timeout of 2.5 s leaves the third send a second to spare
		// for a loaded machine's late wake-up (with 1.6 s, 100 ms, which
		// load outlasted: the client then rightly gave up first). The
		// server counts a datagram when its goroutine reads it, which may
		// be just after the client has given up.
		{"silence: the request sent again, then the timeout", hostile.ProsperoSilentUDP, Options{ReadTimeout: 2500 * time.Millisecond},
			func(t *testing.T, s *hostile.UDPServer, err error, el time.Duration) {
				wantLimit(t, err, "timeout", "LIST")
				for deadline := time.Now().Add(5 * time.Second); s.Requests.Load() < 3 && time.Now().Before(deadline); {
					time.Sleep(10 * time.Millisecond)
				}
				if n := s.Requests.Load(); n < 3 {
					t.Errorf("the request was sent %d times in %v", n, el)
				}
			}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && raceEnabled {
				t.Skip("4096 acknowledged windows take some 20 s under the race detector; this bound is tested without it")
			}
			s := hostile.ServeUDP(t, c.handle)
			var err error
			start := time.Now()
			var n int64
			peak := peakHeap(func() {
				opts := c.opts
				var r *Resource
				r, err = Execute(context.Background(), planFor(t, "prospero://"+s.Addr+"//x", scheme.Config{}), &opts)
				if err == nil {
					n, err = io.Copy(io.Discard, r)
					r.Close()
				}
			})
			el := time.Since(start)
			c.check(t, s, err, el)
			t.Logf("%v in %v after %d bytes; peak heap %d KiB", err, el.Round(time.Millisecond), n, peak>>10)
			if peak > memBudget {
				t.Errorf("peak heap %d bytes", peak)
			}
		})
	}
}

// Replies of bad shape from a well-behaved transport: a line longer than
// --max-line, contents whose quote never closes, contents shorter than the
// SIZE announced, a LINK line of too few tokens; each an error naming the
// step.
func TestHostileProsperoReplies(t *testing.T) {
	const info = "ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE '10 bytes'\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n"
	for _, c := range []struct {
		name    string
		replies map[string]string
		url     string
		says    string
	}{
		{"a line of 1 MB", map[string]string{"LIST": "LINK L FILE " + strings.Repeat("x", 1<<20) + "\n"}, "//d", "reply line limit of 16384 bytes"},
		{"a quote that never closes", map[string]string{"LIST": "FAILURE NOT-A-DIRECTORY\n", "#ALL": info, "CONTENTS": "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA 'abc"}, "//f", "ends inside a quoted token"},
		{"fewer bytes than SIZE", map[string]string{"LIST": "FAILURE NOT-A-DIRECTORY\n", "#ALL": info, "CONTENTS": "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA 'abc'\n"}, "//f", "announced SIZE 10 bytes and sent 3"},
		{"a short LINK line", map[string]string{"LIST": "LINK L FILE x\n"}, "//d", "a LINK line of 4 tokens"},
		{"an ERROR", map[string]string{"LIST": "ERROR DIRECTORY: bad request\n"}, "//d", "ERROR DIRECTORY: bad request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &hostile.ProsperoDirectory{Replies: c.replies, Size: 1250, Window: 16}
			s := hostile.ServeUDP(t, d.Handle)
			_, _, err := get(t, "prospero://"+s.Addr+"/"+c.url, scheme.Config{}, &Options{ReadTimeout: 2 * time.Second})
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("err = %v, want %q", err, c.says)
			}
		})
	}
}

// The access methods: AFTP is followed through the ftp client (the same
// options: get -v shows the ftp plan), GOPHER through the gopher client;
// with only methods urlkit cannot follow, the error lists each one and why.
func TestProsperoAccessMethods(t *testing.T) {
	ftp, err := fakeservers.FTP(map[string][]byte{"/pub/readme.txt": []byte("hello over ftp\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer ftp.Close()
	// The gopher item type is the selector's first character (Prospero
	// protocol v5, access-method: '1/Fun Stuff/...').
	gopher, err := fakeservers.Gopher(map[string][]byte{"0/doc": []byte("hello over gopher\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gopher.Close()
	fh, fp, _ := net.SplitHostPort(ftp.Addr())
	gh, gp, _ := net.SplitHostPort(gopher.Addr())
	methods := map[string]string{
		"'/aftp'":   "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' ''\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D " + fh + "(" + fp + ") ASCII /pub/readme.txt BINARY\n",
		"'/gopher'": "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE GOPHER INTERNET-D " + gh + "(" + gp + ") ASCII 0/doc\n",
		"'/none'":   "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' ''\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE NFS INTERNET-D h ASCII /x /export\n",
	}
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		if strings.Contains(req, "\nDIRECTORY ") {
			return "FAILURE NOT-A-DIRECTORY\n"
		}
		for k, v := range methods {
			if strings.Contains(req, k) {
				return v
			}
		}
		return "NONE-FOUND\n"
	}}
	s := hostile.ServeUDP(t, d.Handle)
	var plans []string
	opts := &Options{OnPlan: func(p scheme.Plan) { plans = append(plans, p.Scheme()) }}
	if b := mustGet(t, "prospero://"+s.Addr+"//aftp", scheme.Config{}, opts); string(b) != "hello over ftp\n" || fmt.Sprint(plans) != "[prospero ftp]" {
		t.Errorf("AFTP: %q, plans %q", b, plans)
	}
	if b := mustGet(t, "prospero://"+s.Addr+"//gopher", scheme.Config{}, nil); string(b) != "hello over gopher\n" {
		t.Errorf("GOPHER: %q", b)
	}
	_, _, err = get(t, "prospero://"+s.Addr+"//none", scheme.Config{}, nil)
	if !errors.Is(err, ErrNoAccessMethod) || !strings.Contains(err.Error(), "LOCAL (a file on the server's own file system), NFS (an NFS mount)") {
		t.Errorf("no method: %v", err)
	}
}

// Every datagram goes through Options.Dial as "udp" (the gateway's target
// and port policy); a refused dial sends nothing.
func TestProsperoDialPolicy(t *testing.T) {
	s := hostile.ServeUDP(t, hostile.ProsperoSilentUDP)
	deny := errors.New("refused by policy")
	var networks []string
	opts := &Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		networks = append(networks, network+" "+addr)
		return nil, deny
	}}
	_, _, err := get(t, "prospero://"+s.Addr+"//x", scheme.Config{}, opts)
	if !errors.Is(err, deny) || fmt.Sprint(networks) != "[udp "+s.Addr+"]" || s.Requests.Load() != 0 {
		t.Errorf("%v, dialled %q, %d datagrams", err, networks, s.Requests.Load())
	}
	// Nothing listening: the ICMP port unreachable ends it at once.
	pc, _ := net.ListenPacket("udp", "127.0.0.1:0")
	dead := pc.LocalAddr().String()
	pc.Close()
	start := time.Now()
	_, _, err = get(t, "prospero://"+dead+"//x", scheme.Config{}, nil)
	var ce *ConnectError
	if !errors.As(err, &ce) || time.Since(start) > 2*time.Second {
		t.Errorf("nothing listening: %v after %v", err, time.Since(start))
	}
}

// Cancelling the context stops a request waiting on a silent server at
// once (the socket is closed), as it stops every other client.
func TestProsperoCancel(t *testing.T) {
	s := hostile.ServeUDP(t, hostile.ProsperoSilentUDP)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := Execute(ctx, planFor(t, "prospero://"+s.Addr+"//x", scheme.Config{}), nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("%v after %v", err, time.Since(start))
	}
}

// A refusal (FAILURE NOT-AUTHORIZED) leads to the STATUS request; a Root
// there is named in the error (*ProsperoRootError) with the URL under
// it; a status without one, or a Root that is not an absolute path, leaves
// the refusal as it was.
func TestProsperoRefusedStatus(t *testing.T) {
	for _, tc := range []struct {
		status string
		root   string // "" : no ProsperoRootError
	}{
		{"Prospero server (PreAlpha.5.3)\n   Root: /srv/tree\n", "/srv/tree"},
		{"Prospero server\nRequests since startup 1\n", ""},
		{"   Root: relative/tree\n", ""},
	} {
		d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
			if strings.HasPrefix(req, "STATUS") {
				return tc.status
			}
			return "FAILURE NOT-AUTHORIZED\n"
		}}
		s := hostile.ServeUDP(t, d.Handle)
		_, _, err := get(t, "prospero://"+s.Addr+"/pub", scheme.Config{}, nil)
		var re *ProsperoRootError
		switch {
		case err == nil || !strings.Contains(err.Error(), "FAILURE NOT-AUTHORIZED"):
			t.Errorf("%q: %v", tc.status, err)
		case tc.root == "" && errors.As(err, &re):
			t.Errorf("%q: a root %q from nowhere", tc.status, re.Root)
		case tc.root != "" && (!errors.As(err, &re) || re.Root != tc.root || re.URL() != "prospero://"+s.Addr+"//srv/tree/pub"):
			t.Errorf("%q: %v", tc.status, err)
		}
	}
}

// FORWARDED (Prospero protocol v5, standard responses): the object moved;
// the same requests go to the new host and name, as a new plan (get -v
// shows it); a loop of forwards stops after 4.
func TestProsperoForwarded(t *testing.T) {
	// The handler runs on the server's goroutine, which learns the address
	// through the network: the race detector sees no order there, so the
	// address goes through an atomic value.
	var served atomic.Value
	served.Store("")
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		addr := served.Load().(string)
		switch {
		case strings.Contains(req, "'/old'"):
			host, port, _ := net.SplitHostPort(addr)
			return "FORWARDED INTERNET-D " + host + "(" + port + ") ASCII '/new' 0\n"
		case strings.Contains(req, "'/new'"):
			return "LINK L FILE f INTERNET-D h(1) ASCII '/new/f' 0\n"
		case strings.Contains(req, "'/loop'"):
			host, port, _ := net.SplitHostPort(addr)
			return "FORWARDED INTERNET-D " + host + "(" + port + ") ASCII '/loop' 0\n"
		}
		return "NONE-FOUND\n"
	}}
	s := hostile.ServeUDP(t, d.Handle)
	addr := s.Addr
	served.Store(addr)
	var plans []string
	opts := &Options{OnPlan: func(p scheme.Plan) { plans = append(plans, p.(*scheme.ProsperoPlan).HSOName) }}
	b := mustGet(t, "prospero://"+addr+"//old", scheme.Config{}, opts)
	if !strings.Contains(string(b), "\tFILE\tf\th(1)\t/new/f\t-\t-\t-\n") || fmt.Sprint(plans) != "[/old /new]" {
		t.Errorf("forwarded: %q, plans %q", b, plans)
	}
	_, _, err := get(t, "prospero://"+addr+"//loop", scheme.Config{}, nil)
	if err == nil || !strings.Contains(err.Error(), "forwarded more than 4 times") {
		t.Errorf("loop: %v", err)
	}
}

// forceCIDs makes the connection ids drawn for the next requests the
// given ones, in turn, until the test ends.
func forceCIDs(t *testing.T, cids ...uint16) {
	t.Helper()
	saved := ardpRandomCID
	i := 0
	ardpRandomCID = func() uint16 { c := cids[i%len(cids)]; i++; return c }
	t.Cleanup(func() { ardpRandomCID = saved })
}

// The requests of one URL share a socket, and dirsrv answers a request
// whose connection id and client address match a reply it keeps (its last
// 20, lib/ardp/ardp_accept.c) with that reply again, unread: so each
// request takes an id no earlier request on the socket took. The random
// draw is forced to repeat an id (CI's flake of TestGetRecursiveReal:
// about once in 11,000 URLs two of a file's three requests drew one id,
// and the CONTENTS request got the GET-OBJECT-INFO reply), and to draw an
// earlier id with its bytes swapped, the form dirsrv's retransmissions
// carry, while a late copy of the earlier reply arrives under the earlier
// id: the file's bytes come back each time. hostile.ProsperoDirectory
// keeps replies by id and address as dirsrv does.
func TestProsperoConnectionIDs(t *testing.T) {
	const (
		info = "ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE '4 bytes'\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n"
		data = "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA 'abc\n'\n"
	)
	for _, c := range []struct {
		name  string
		cids  []uint16
		stale bool // before each reply, the one before it again, under its own id
	}{
		{"CONTENTS draws the GET-OBJECT-INFO's id", []uint16{0x1001, 0x2003, 0x2003}, false},
		{"CONTENTS draws the LIST's id", []uint16{0x1001, 0x2003, 0x1001}, false},
		{"GET-OBJECT-INFO draws the LIST's id", []uint16{0x1001, 0x1001, 0x3005}, false},
		{"every request draws one id", []uint16{0x1001}, false},
		{"an id the earlier one's bytes swapped, and a late copy of its reply", []uint16{0x1001, 0x0321, 0x2103}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			forceCIDs(t, c.cids...)
			d := &hostile.ProsperoDirectory{Replies: map[string]string{"LIST": "FAILURE NOT-A-DIRECTORY\n", "#ALL": info, "CONTENTS": data}, Size: 1250, Window: 16}
			var last []byte // the last reply's datagram
			var lastCID uint16
			s := hostile.ServeUDP(t, func(s *hostile.UDPServer, from net.Addr, dg []byte) {
				h, payload, ok := hostile.ParseARDP(dg)
				if !ok || h.Seq == 0 {
					d.Handle(s, from, dg)
					return
				}
				if c.stale && last != nil {
					s.Send(from, last)
				}
				reply := "NONE-FOUND\n"
				for k, v := range d.Replies {
					if strings.Contains(string(payload), k) {
						reply = v
					}
				}
				if h.CID != lastCID {
					last = hostile.ARDPPacket(hostile.ARDPHeader{Len: 3, CID: h.CID}, []byte(reply))
					lastCID = h.CID
				}
				d.Handle(s, from, dg)
			})
			var trace bytes.Buffer
			b, _, err := get(t, "prospero://"+s.Addr+"//f", scheme.Config{}, &Options{ReadTimeout: 2 * time.Second, Trace: &trace})
			if err != nil || string(b) != "abc\n" {
				t.Fatalf("got %q, %v\n%s", b, err, trace.String())
			}
		})
	}
}

// An answer that is not the file's contents says what it was, with the
// step, never an empty text: the end of the reply without the CONTENTS
// attribute (what a reply to another request holds), a line of empty
// quoted tokens; empty lines before the attribute are skipped, as the
// reply's other lines' are (Prospero protocol v5: lines end at an unquoted
// LF).
func TestProsperoContentsReplies(t *testing.T) {
	const info = "ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE '3 bytes'\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n"
	for _, c := range []struct {
		name, contents, says string
	}{
		{"the GET-OBJECT-INFO reply again", info, `GET-OBJECT-INFO 'CONTENTS' "/f": the reply ended without the file's CONTENTS attribute (after 2 ATTRIBUTE lines of other attributes)`},
		{"the server's VERSION only", "VERSION 5\n", `GET-OBJECT-INFO 'CONTENTS' "/f": the reply ended without the file's CONTENTS attribute (it held no ATTRIBUTE line)`},
		{"empty lines only", "\n\n  \n", `GET-OBJECT-INFO 'CONTENTS' "/f": the reply ended without the file's CONTENTS attribute (it held no ATTRIBUTE line)`},
		{"a line of an empty token", "''\n", `GET-OBJECT-INFO 'CONTENTS' "/f": a line of 1 empty token(s) ('') where the server's answer was expected`},
		{"empty lines, then the contents", "\n \nVERSION 5\n\nATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA abc\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &hostile.ProsperoDirectory{Replies: map[string]string{"LIST": "FAILURE NOT-A-DIRECTORY\n", "#ALL": info}, Size: 1250, Window: 16}
			d.Answer = func(req string) string {
				if strings.Contains(req, "GET-OBJECT-INFO CONTENTS") {
					return c.contents
				}
				for k, v := range d.Replies {
					if strings.Contains(req, k) {
						return v
					}
				}
				return "NONE-FOUND\n"
			}
			s := hostile.ServeUDP(t, d.Handle)
			b, _, err := get(t, "prospero://"+s.Addr+"//f", scheme.Config{}, &Options{ReadTimeout: 2 * time.Second})
			if c.says == "" {
				if err != nil || string(b) != "abc" {
					t.Errorf("got %q, %v", b, err)
				}
				return
			}
			if err == nil || !strings.HasSuffix(err.Error(), c.says) {
				t.Errorf("err = %v, want it to end %q", err, c.says)
			}
		})
	}
}

// A reply error's text is never empty, whatever the server sent: the step
// alone says nothing of what was wrong.
func TestReplyErrorNeverEmpty(t *testing.T) {
	for _, text := range []string{"", " ", "\t"} {
		e := &ReplyError{Protocol: "prospero", Step: "STEP", Text: text}
		if want := "prospero: STEP: an empty reply line where the server's answer was expected"; e.Error() != want {
			t.Errorf("%q: %q, want %q", text, e.Error(), want)
		}
	}
}

// Against the real dirsrv, each of a file's three requests forced to draw
// one connection id (the draw of CI's flake, where the CONTENTS request got
// the GET-OBJECT-INFO reply again from dirsrv's done queue, 440 bytes of
// ATTRIBUTE lines, and the error had an empty text): the file's bytes.
func TestProsperoRealConnectionIDs(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	p := root + "/pub/hello.txt"
	want := readFile(t, p)
	for _, cids := range [][]uint16{{0x1001, 0x2003, 0x2003}, {0x1001, 0x2003, 0x1001}, {0x1001, 0x1001, 0x3005}} {
		forceCIDs(t, cids...)
		var trace bytes.Buffer
		b, _, err := get(t, "prospero://"+addr+"/"+escapeSegments(p), scheme.Config{}, &Options{Trace: &trace})
		if err != nil || !bytes.Equal(b, want) {
			t.Errorf("ids drawn %#04x: %q, %v\n%s", cids, b, err, trace.String())
		}
	}
	// Many files at once, every draw one of two ids, so that each file's
	// three requests draw a repeated one: dirsrv keeps the replies of
	// every socket apart, and each file comes back.
	ardpRandomCID = func() uint16 { return 0x0101 + 2*uint16(mrand.IntN(2)) }
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := 1; i <= 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			p := fmt.Sprintf("%s/pub/many/entry-with-a-long-name-number-%d.txt", root, i)
			b, _, err := get(t, "prospero://"+addr+"/"+escapeSegments(p), scheme.Config{}, nil)
			if want := fmt.Sprintf("entry %d\n", i); err != nil || string(b) != want {
				t.Errorf("entry %d: %q, %v", i, b, err)
			}
		}()
	}
	wg.Wait()
}

// A reply the server forgets between two windows (dirsrv keeps its last
// 20 replies; under other clients' requests, a reply waiting for its
// acknowledgement is dropped, and the acknowledgement then goes
// unanswered, lib/ardp/ardp_accept.c): the client's silence sends the
// request again, saying which packets arrived (received-through), and the
// server answers it anew from the packet after them; the listing is whole,
// long before the idle timeout. Each window's acknowledgement is forgotten
// once, so that the request is sent again under each.
func TestProsperoForgottenReply(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "LINK L FILE entry-%d INTERNET-D 127.0.0.1 ASCII /x/entry-%d 0\n", i, i)
	}
	var mu sync.Mutex // the server's goroutine writes, the test reads
	forgotten := map[uint16]bool{}
	sent := 0 // packets the server sends
	d := &hostile.ProsperoDirectory{Replies: map[string]string{"LIST": b.String()}, Size: 100, Window: 16,
		Drop: func(uint16, bool) bool { mu.Lock(); sent++; mu.Unlock(); return false },
		Forget: func(thru uint16) bool {
			mu.Lock()
			defer mu.Unlock()
			if thru%16 != 0 || forgotten[thru] {
				return false
			}
			forgotten[thru] = true
			return true
		}}
	s := hostile.ServeUDP(t, d.Handle)
	var trace bytes.Buffer
	start := time.Now()
	got := listing(t, "prospero://"+s.Addr+"//x", &Options{ReadTimeout: 10 * time.Second, Trace: &trace})
	names := map[string]bool{}
	for _, e := range got {
		names[e.Name] = true
	}
	if len(got) != 200 || len(names) != 200 || !names["entry-0"] || !names["entry-199"] || time.Since(start) > 8*time.Second {
		t.Fatalf("%d entries (%d names) in %v\n%.3000s", len(got), len(names), time.Since(start), trace.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(forgotten) < 3 || !strings.Contains(trace.String(), "sending the request again, received through packet 16") {
		t.Errorf("forgotten at %v\n%.3000s", forgotten, trace.String())
	}
	// Answered from received-through on: no packet came twice.
	if n := (b.Len() + 99) / 100; sent != n {
		t.Errorf("the server sent %d packets for a reply of %d", sent, n)
	}
}

// The same against the real dirsrv: the listing's first acknowledgement
// is held while 25 files are fetched (75 requests, more than the 20
// replies dirsrv keeps; CI's TestRealTimings once waited out its idle
// timeout so, the reply stopped after packet 96, while
// TestGetRecursiveReal fetched files from the same dirsrv), then dropped:
// the listing is whole.
func TestProsperoRealForgottenReply(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	var held atomic.Bool
	p := startUDPProxy(t, addr, func(toServer bool, n int, d []byte) bool {
		h, _, ok := hostile.ParseARDP(d)
		if !toServer || !ok || h.Seq != 0 || h.RcvdThru != 16 || held.Swap(true) {
			return false
		}
		for range 25 {
			if _, _, err := get(t, "prospero://"+addr+"/"+escapeSegments(root+"/pub/hello.txt"), scheme.Config{}, nil); err != nil {
				t.Error(err)
			}
		}
		return true
	})
	var trace bytes.Buffer
	got := listing(t, "prospero://"+p.addr+"/"+root+"/pub/many", &Options{ReadTimeout: 8 * time.Second, Trace: &trace})
	if len(got) != 300 || !held.Load() {
		t.Fatalf("%d entries (an acknowledgement held: %v)\n%.3000s", len(got), held.Load(), trace.String())
	}
}
