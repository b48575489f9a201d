package hostile

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// UDP servers for the Prospero client: ARDP (version 0 headers, as "The
// Prospero Protocol, Version 5", appendix ARDP, describes them) carrying
// Prospero replies, some well formed (a scripted directory server that
// drops packets, for the retransmission tests) and most not.

// UDPServer is a loopback UDP server: each datagram is handed to handle
// with the address it came from.
type UDPServer struct {
	loop
	pc       net.PacketConn
	Requests atomic.Int64 // datagrams received
	mu       sync.Mutex
	recv     []string
}

// StartUDP listens on 127.0.0.1 (port 0: any free port) and calls handle
// for each datagram, one at a time.
func StartUDP(port int, handle func(s *UDPServer, from net.Addr, d []byte)) (*UDPServer, error) {
	pc, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, err
	}
	s := &UDPServer{pc: pc}
	s.run(pc.LocalAddr().String(), pc, func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			s.Requests.Add(1)
			d := append([]byte(nil), buf[:n]...)
			s.mu.Lock()
			s.recv = append(s.recv, string(d))
			s.mu.Unlock()
			handle(s, from, d)
		}
	})
	return s, nil
}

// ServeUDP starts a UDP server for the test and stops it at the end.
func ServeUDP(t testing.TB, handle func(s *UDPServer, from net.Addr, d []byte)) *UDPServer {
	t.Helper()
	s, err := StartUDP(0, handle)
	return forTest(t, s, err)
}

// Received returns every datagram received so far.
func (s *UDPServer) Received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.recv...)
}

// Send sends d to a client.
func (s *UDPServer) Send(to net.Addr, d []byte) error {
	_, err := s.pc.WriteTo(d, to)
	return err
}

// Stopped reports whether Close has been called.
func (s *UDPServer) Stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// ARDPHeader is the fields of an ARDP version 0 header.
type ARDPHeader struct {
	Len                       int // header length, 3 to 13
	CID, Seq, Total, RcvdThru uint16
	Wait                      uint16
	Flags, Option             byte
}

// ParseARDP reads a datagram's header; ok is false when it has none.
func ParseARDP(d []byte) (h ARDPHeader, payload []byte, ok bool) {
	if len(d) < 3 {
		return h, nil, false
	}
	h.Len = int(d[0] & 0x3f)
	if h.Len < 3 || h.Len > len(d) {
		return h, nil, false
	}
	h.CID = binary.BigEndian.Uint16(d[1:])
	h.Seq = 1
	if h.Len >= 5 {
		h.Seq = binary.BigEndian.Uint16(d[3:])
	}
	if h.Len >= 7 {
		h.Total = binary.BigEndian.Uint16(d[5:])
	}
	if h.Len >= 9 {
		h.RcvdThru = binary.BigEndian.Uint16(d[7:])
	}
	return h, d[h.Len:], true
}

// ARDPPacket builds a datagram with a header of h.Len bytes (3, 7, 9, 11,
// 12 or 13) and the payload.
func ARDPPacket(h ARDPHeader, payload []byte) []byte {
	b := make([]byte, 13)
	b[0] = byte(h.Len)
	binary.BigEndian.PutUint16(b[1:], h.CID)
	binary.BigEndian.PutUint16(b[3:], h.Seq)
	binary.BigEndian.PutUint16(b[5:], h.Total)
	binary.BigEndian.PutUint16(b[7:], h.RcvdThru)
	binary.BigEndian.PutUint16(b[9:], h.Wait)
	b[11], b[12] = h.Flags, h.Option
	return append(b[:h.Len], payload...)
}

// ProsperoDirectory is a scripted, well-behaved directory server: it
// answers each request whose text contains a key of replies with that
// reply, split into packets of size bytes in windows of window packets,
// asking for an acknowledgement at the end of each window and waiting for
// it (as dirsrv does). drop, when set, is asked for each packet of a
// reply (seq, and whether it is a retransmission) and may drop it.
type ProsperoDirectory struct {
	Replies map[string]string
	// Answer, when set, gives the reply to a request's text instead of
	// Replies.
	Answer func(req string) string
	Size   int
	Window int
	Drop   func(seq uint16, again bool) bool
	// DropRequests drops this many requests before answering.
	DropRequests int
	// Forget, when set, is asked on each acknowledgement (its
	// received-through) and may forget the reply first, as dirsrv drops
	// a reply from the 20 it keeps: the acknowledgement then goes
	// unanswered, and the request again is answered anew. A request
	// carrying a received-through is answered from the packet after it,
	// as dirsrv does.
	Forget func(rcvdThru uint16) bool

	mu      sync.Mutex
	pending map[string]*ardpReply // by client address
	dropped int
	// Acks counts the acknowledgements received.
	Acks atomic.Int64
}

type ardpReply struct {
	cid     uint16
	packets [][]byte
	sent    map[uint16]bool
	acked   uint16
}

// Handle is the server's datagram handler.
func (p *ProsperoDirectory) Handle(s *UDPServer, from net.Addr, d []byte) {
	h, payload, ok := ParseARDP(d)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending == nil {
		p.pending = map[string]*ardpReply{}
	}
	key := from.String()
	if h.Seq == 0 { // an acknowledgement
		p.Acks.Add(1)
		r := p.pending[key]
		if r == nil || r.cid != h.CID {
			return
		}
		if p.Forget != nil && p.Forget(h.RcvdThru) {
			delete(p.pending, key)
			return
		}
		if h.RcvdThru > r.acked {
			r.acked = h.RcvdThru
		}
		p.sendWindow(s, from, r, true)
		return
	}
	if p.dropped < p.DropRequests {
		p.dropped++
		return
	}
	if r := p.pending[key]; r != nil && r.cid == h.CID {
		if h.RcvdThru > r.acked {
			r.acked = min(h.RcvdThru, uint16(len(r.packets)))
		}
		p.sendWindow(s, from, r, true) // the request again: resend
		return
	}
	reply := "NONE-FOUND\n"
	if p.Answer != nil {
		reply = p.Answer(string(payload))
	} else {
		for k, v := range p.Replies {
			if strings.Contains(string(payload), k) {
				reply = v
				break
			}
		}
	}
	size, window := max(p.Size, 16), max(p.Window, 1)
	r := &ardpReply{cid: h.CID, sent: map[uint16]bool{}}
	n := (len(reply) + size - 1) / size
	for i := 0; i < n; i++ {
		piece := reply[i*size : min((i+1)*size, len(reply))]
		ph := ARDPHeader{Len: 7, CID: h.CID, Seq: uint16(i + 1), Total: uint16(n)}
		if (i+1)%window == 0 && i+1 < n {
			ph.Len, ph.Flags = 12, 0x80
		}
		if n == 1 {
			ph.Len = 3
		}
		r.packets = append(r.packets, ARDPPacket(ph, []byte(piece)))
	}
	r.acked = min(h.RcvdThru, uint16(n))
	p.pending[key] = r
	p.sendWindow(s, from, r, false)
}

// sendWindow sends the packets after the acknowledged ones, up to the end
// of the window.
func (p *ProsperoDirectory) sendWindow(s *UDPServer, to net.Addr, r *ardpReply, again bool) {
	window := max(p.Window, 1)
	end := min(int(r.acked)+window, len(r.packets))
	for i := int(r.acked); i < end; i++ {
		seq := uint16(i + 1)
		if p.Drop != nil && p.Drop(seq, r.sent[seq]) {
			r.sent[seq] = true
			continue
		}
		r.sent[seq] = true
		s.Send(to, r.packets[i])
	}
}

// ProsperoEndless answers a request with a reply without end, as a
// well-behaved server sends a long one: windows of 16 packets of valid
// LINK lines (22 to a packet), the last asking for an acknowledgement and
// the next window sent when it comes, the total never given, until packet
// 65535.
func ProsperoEndless(s *UDPServer, from net.Addr, d []byte) { endlessWindows(s, from, d, endlessChunk) }

// ProsperoEndlessSmall is ProsperoEndless with one LINK line a packet.
func ProsperoEndlessSmall(s *UDPServer, from net.Addr, d []byte) {
	endlessWindows(s, from, d, endlessChunk[:len(endlessChunk)/22])
}

func endlessWindows(s *UDPServer, from net.Addr, d []byte, chunk []byte) {
	h, _, ok := ParseARDP(d)
	if !ok {
		return
	}
	first := 1 // a request: the first window
	if h.Seq == 0 {
		first = int(h.RcvdThru) + 1 // an acknowledgement: the next window
	}
	for seq := first; seq < first+16 && seq <= 0xffff; seq++ {
		ph := ARDPHeader{Len: 7, CID: h.CID, Seq: uint16(seq)}
		if seq == first+15 {
			ph.Len, ph.Flags = 12, 0x80
		}
		if s.Send(from, ARDPPacket(ph, chunk)) != nil {
			return
		}
	}
}

// endlessChunk is the payload of ProsperoEndless's packets: LINK lines.
var endlessChunk = []byte(strings.Repeat("LINK L FILE f INTERNET-D 127.0.0.1(1) ASCII '/x/f' 0\n", 22))

// ProsperoLyingTotal answers with packet 1 saying the reply has 3 packets
// and packet 2 saying it has 5.
func ProsperoLyingTotal(s *UDPServer, from net.Addr, d []byte) {
	h, _, ok := ParseARDP(d)
	if !ok || h.Seq == 0 {
		return
	}
	s.Send(from, ARDPPacket(ARDPHeader{Len: 7, CID: h.CID, Seq: 1, Total: 3}, []byte("LINK L FILE a INTERNET-D h ASCII '/a' 0\n")))
	s.Send(from, ARDPPacket(ARDPHeader{Len: 7, CID: h.CID, Seq: 2, Total: 5}, []byte("LINK L FILE b INTERNET-D h ASCII '/b' 0\n")))
}

// ProsperoGarbage answers each request with 200 random datagrams (bad
// header lengths, other connection ids, other versions, random seq), then
// nothing.
func ProsperoGarbage(seed int64) func(s *UDPServer, from net.Addr, d []byte) {
	var n atomic.Int64
	return func(s *UDPServer, from net.Addr, d []byte) {
		h, _, ok := ParseARDP(d)
		if !ok || h.Seq == 0 {
			return
		}
		r := rand.New(rand.NewSource(seed + n.Add(1)))
		for i := 0; i < 200; i++ {
			b := make([]byte, r.Intn(300))
			r.Read(b)
			if len(b) > 3 && i%2 == 0 {
				// the right connection id, a random rest
				binary.BigEndian.PutUint16(b[1:], h.CID+uint16(r.Intn(2)))
			}
			s.Send(from, b)
		}
	}
}

// ProsperoWaitForever answers a request with "wait" control packets (seq
// 0, wait 65535 s) every 50 ms and nothing else.
func ProsperoWaitForever(s *UDPServer, from net.Addr, d []byte) {
	h, _, ok := ParseARDP(d)
	if !ok || h.Seq == 0 {
		return
	}
	go func() {
		for i := 0; i < 400 && !s.Stopped(); i++ {
			if err := s.Send(from, ARDPPacket(ARDPHeader{Len: 11, CID: h.CID, Seq: 0, Wait: 0xffff}, nil)); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

// ProsperoSilentUDP receives and never answers.
func ProsperoSilentUDP(*UDPServer, net.Addr, []byte) {}
