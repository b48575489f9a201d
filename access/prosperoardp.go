package access

// ARDP, the Asynchronous Reliable Delivery Protocol of Prospero, over UDP,
// as "The Prospero Protocol, Version 5" (Neuman and Augart, USC/ISI, 1993),
// appendix "Asynchronous Reliable Delivery Protocol", describes version 0:
//
//	octet 0      version (top 2 bits, 0) and header length (low 6 bits)
//	octets 1-2   connection id
//	octets 3-4   packet number (default 1; 0: an unsequenced control packet)
//	octets 5-6   total packets of the message (0 or absent: not known yet)
//	octets 7-8   received through: every packet up to it has arrived
//	octets 9-10  wait: seconds before the answer may come (control)
//	octet 11     flags: bit 7 "please acknowledge this packet"
//	octet 12     option: 1 from a server is "connection refused"
//
// The header "may be truncated at any point", the rest taking defaults: a
// single-packet reply has a 3-byte header. A reply longer than one packet
// comes in windows; the server asks for an acknowledgement on the window's
// last packet and sends no more until it has one (dirsrv PreAlpha.5.3
// sends 16 packets of 1250 bytes, then waits: observed on the real server,
// see prospero_test.go). The client acknowledges with an unsequenced
// packet whose received-through names the last packet it holds in order,
// and again when the message is complete. Into a silence it sends the
// request again, its received-through set the same way (see receive).
//
// Observed quirk of dirsrv PreAlpha.5.3: the packets after the first
// window carry the connection id with its two bytes swapped. The socket is
// connected to the server's address and port, so a packet with the
// swapped id is taken as the reply's.
//
// dirsrv keeps its last 20 replies (its "done queue") by connection id and
// client address and port, and answers a request whose id and address match
// one of them with that old reply again (a retransmission, as it takes it),
// without reading the new request (lib/ardp/ardp_accept.c). The requests of
// one URL share a socket, so each takes a connection id no earlier request
// on the socket took, in either byte order (ardpSocket.newCID): with a
// random odd id each, two of a file's three requests shared one about once
// in 11,000 files, and the later request got the earlier one's reply.

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ARDP bounds and timers.
const (
	ardpMaxData    = 1250    // bytes of a request per packet (the server's own packet size)
	ardpMaxPackets = 16      // a request is at most one window
	ardpWindow     = 64      // packets accepted beyond the next one expected
	ardpMaxAhead   = 1 << 20 // bytes held out of order
	ardpMaxRetry   = 8 * time.Second
	// ardpMaxSends bounds the transmissions of one request (the first
	// and its retransmissions, 0.5 s, 1 s and 2 s apart), and the
	// acknowledgements sent into one silence of a reply under way:
	// whatever the load, the deadline and the server, one request sends
	// at most ardpMaxSends times its packets (one, for every request
	// urlkit makes but the longest), then waits in silence for its end.
	ardpMaxSends = 4
	ardpFlagAck  = 0x80 // octet 11: please acknowledge this packet
	ardpFlagCtrl = 0x40 // octet 11: a sequenced control packet only
)

// ardpFirstRetry is the wait before the first retransmission (doubled for
// each next one, up to ardpMaxRetry); a variable for tests only.
var ardpFirstRetry = 500 * time.Millisecond

// ardpSocket is a connected UDP socket to a server, carrying one request
// after another; cids are the connection ids its requests have taken.
type ardpSocket struct {
	net.Conn
	cids []uint16
}

// ardpRandomCID draws a connection id; a variable for tests only.
var ardpRandomCID = func() uint16 {
	var id [2]byte
	rand.Read(id[:])
	return binary.BigEndian.Uint16(id[:]) | 1
}

// newCID returns a connection id for the socket's next request: a random
// odd one (never 0, "no connection id"), moved on to the next odd one
// while it is an id an earlier request on the socket took, or one's bytes
// swapped (the form dirsrv's retransmissions carry, which receive takes as
// the reply's). Each earlier id excludes two values, so the loop ends.
func (s *ardpSocket) newCID() uint16 {
	cid := ardpRandomCID() | 1
	for slices.ContainsFunc(s.cids, func(u uint16) bool { return cid == u || cid == u<<8|u>>8 }) {
		cid += 2
	}
	s.cids = append(s.cids, cid)
	return cid
}

// ardpConn is one request and its reply over a connected UDP socket.
type ardpConn struct {
	x           *execution
	conn        net.Conn
	addr        string
	step        string
	cid         uint16
	req         [][]byte // the request's packets
	limit       int64    // most bytes of reply accepted (0: no limit)
	buf         []byte
	unreadBytes                   // reply bytes in order, not yet read
	ahead       map[uint16][]byte // packets beyond next
	aheadN      int
	next        uint16 // the next packet expected
	total       uint16 // packets in the reply, 0 while unknown
	got         int64  // reply bytes received in order
	heard       bool   // a packet of the reply has arrived
	wait        time.Time
	last        time.Time // the last packet of the reply (or the request)
	retry       time.Duration
	retx        time.Time // when to send again
	sends       int       // transmissions of the request (or acknowledgements in this silence)
	wakeups     int       // read timeouts handled (see ardpStats)
}

// ardpStats, when set (by tests), is told how many times each request
// was sent and how many read timeouts its receive loop woke up for, when
// the request fails.
var ardpStats func(sends, wakeups int)

// ardp sends msg as a request to addr (a connected UDP socket).
func (x *execution) ardp(conn *ardpSocket, addr, step string, msg []byte, limit int64) (*ardpConn, error) {
	if len(msg) > ardpMaxData*ardpMaxPackets {
		return nil, fmt.Errorf("prospero: %s: the request is %d bytes, more than the %d of one window (%d packets)", step, len(msg), ardpMaxData*ardpMaxPackets, ardpMaxPackets)
	}
	a := &ardpConn{x: x, conn: conn, addr: addr, step: step, cid: conn.newCID(), limit: limit,
		buf: make([]byte, 65536), ahead: map[uint16][]byte{}, next: 1, retry: ardpFirstRetry}
	n := (len(msg) + ardpMaxData - 1) / ardpMaxData
	if n == 0 {
		n = 1
	}
	for i := 0; i < n; i++ {
		piece := msg[min(i*ardpMaxData, len(msg)):min((i+1)*ardpMaxData, len(msg))]
		p := make([]byte, 9, 9+len(piece))
		p[0] = 9 // version 0, header length 9
		binary.BigEndian.PutUint16(p[1:], a.cid)
		binary.BigEndian.PutUint16(p[3:], uint16(i+1))
		binary.BigEndian.PutUint16(p[5:], uint16(n))
		a.req = append(a.req, append(p, piece...))
	}
	if err := a.sendRequest(); err != nil {
		return nil, err
	}
	a.last = time.Now() // silence is counted from the first send
	return a, nil
}

// sendRequest sends (or sends again) every packet of the request, each
// saying which packets of the reply have arrived in order (received
// through, as an acknowledgement does).
func (a *ardpConn) sendRequest() error {
	for i, p := range a.req {
		binary.BigEndian.PutUint16(p[7:], a.next-1)
		a.x.opts.tracef("> ARDP packet %d/%d, connection %#04x (%d bytes)", i+1, len(a.req), a.cid, len(p))
		if _, err := a.conn.Write(p); err != nil {
			return a.ioErr(err)
		}
		if a.x.opts.Capture != nil {
			a.x.opts.sent(a.conn, true, p)
		}
	}
	a.sends++
	a.retx = time.Now().Add(a.retry)
	return nil
}

// ack tells the server which packets have arrived in order.
func (a *ardpConn) ack() error {
	p := make([]byte, 9)
	p[0] = 9
	binary.BigEndian.PutUint16(p[1:], a.cid)
	binary.BigEndian.PutUint16(p[7:], a.next-1)
	a.x.opts.tracef("> ARDP acknowledgement: received through packet %d", a.next-1)
	if _, err := a.conn.Write(p); err != nil {
		return a.ioErr(err)
	}
	if a.x.opts.Capture != nil {
		a.x.opts.sent(a.conn, true, p)
	}
	return nil
}

// ioErr turns a socket error into the error to report.
func (a *ardpConn) ioErr(err error) error {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return &ConnectError{Protocol: "prospero", Addr: a.addr, Err: errors.New("nothing answers on this UDP port (ICMP port unreachable)")}
	}
	return a.x.fail("prospero", a.step, err)
}

// Read returns the reply's bytes in order; io.EOF once every packet of
// the message has arrived.
func (a *ardpConn) Read(p []byte) (int, error) { return a.read(p, a.receive) }

// complete reports whether the whole reply has arrived (all of it may not
// have been read yet).
func (a *ardpConn) complete() bool { return a.done }

// receive waits for the next packet, retransmitting the request (nothing
// heard yet) or acknowledging what arrived (a reply under way) when the
// server is silent, with backoff and at most ardpMaxSends times, until the
// idle timeout or the context's deadline. The deadline is read on the
// clock as well as from ctx.Err(): a read that timed out at the deadline
// ends the request even when the context's own timer has not fired yet
// (under load it fires milliseconds late), so no retransmission is ever
// sent past it and the loop never spins on a deadline already gone.
func (a *ardpConn) receive() (err error) {
	if ardpStats != nil {
		defer func() {
			if err != nil {
				ardpStats(a.sends, a.wakeups)
			}
		}()
	}
	idle := a.x.opts.readTimeout()
	ctxDeadline, hasDeadline := a.x.ctx.Deadline()
	for {
		if err := a.x.ctx.Err(); err != nil {
			return a.x.ctxErr("prospero", a.step)
		}
		now := time.Now()
		if hasDeadline && !now.Before(ctxDeadline) {
			return a.deadlineErr()
		}
		deadline := a.retx
		if a.sends >= ardpMaxSends {
			deadline = time.Time{} // nothing more to send: wait for the end
		}
		if a.wait.After(deadline) {
			deadline = a.wait
		}
		var giveUp time.Time
		if idle > 0 {
			giveUp = a.last.Add(idle)
			if deadline.IsZero() || deadline.After(giveUp) {
				deadline = giveUp
			}
		}
		if hasDeadline && (deadline.IsZero() || ctxDeadline.Before(deadline)) {
			deadline = ctxDeadline
		}
		a.conn.SetReadDeadline(deadline)
		n, err := a.conn.Read(a.buf)
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				return a.ioErr(err)
			}
			a.wakeups++
			if a.x.ctx.Err() != nil {
				return a.x.ctxErr("prospero", a.step)
			}
			now = time.Now()
			if hasDeadline && !now.Before(ctxDeadline) {
				return a.deadlineErr()
			}
			if idle > 0 && !now.Before(giveUp) {
				what := "no reply"
				if a.heard {
					what = fmt.Sprintf("the reply stopped after packet %d", a.next-1)
				}
				return &LimitError{Protocol: "prospero", Step: a.step, Limit: "timeout", Value: fmt.Sprintf("%s between packets (%s)", idle, what)}
			}
			if now.Before(a.wait) || now.Before(a.retx) || a.sends >= ardpMaxSends {
				continue
			}
			// Silence: ask again. Under a reply, the request again rather
			// than an acknowledgement: dirsrv answers either the same way
			// while it holds the reply (the packets after received-through),
			// but it holds only its last 20, and an acknowledgement of a
			// reply it has forgotten goes unanswered, while the request is
			// answered anew from received-through on.
			if a.heard {
				a.x.opts.tracef("* the reply stopped after packet %d for %s: sending the request again, received through packet %d", a.next-1, a.retry, a.next-1)
			} else {
				a.x.opts.tracef("* no reply in %s: sending the request again", a.retry)
			}
			if err := a.sendRequest(); err != nil {
				return err
			}
			if a.sends >= ardpMaxSends {
				a.x.opts.tracef("* sent %d times: waiting without sending again", a.sends)
			}
			a.retry = min(2*a.retry, ardpMaxRetry)
			a.retx = time.Now().Add(a.retry)
			continue
		}
		if a.x.opts.Capture != nil {
			a.x.opts.received(a.conn, true, a.buf[:n])
		}
		delivered, err := a.packet(a.buf[:n])
		if err != nil {
			return err
		}
		if delivered {
			return nil
		}
	}
}

// deadlineErr is the error for the context's deadline reached on the
// clock: the context's own error once its timer has fired, which is
// waited for (it is due), not polled.
func (a *ardpConn) deadlineErr() error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-a.x.ctx.Done():
		return a.x.ctxErr("prospero", a.step)
	case <-t.C:
		return &StepError{Protocol: "prospero", Step: a.step, Err: errors.New("the deadline has passed")}
	}
}

// packet takes one datagram; it reports whether it delivered reply bytes
// or ended the reply.
func (a *ardpConn) packet(d []byte) (bool, error) {
	if len(d) == 0 {
		a.x.opts.tracef("* an empty datagram ignored")
		return false, nil
	}
	hl := int(d[0] & 0x3f)
	if v := d[0] >> 6; v != 0 {
		a.x.opts.tracef("* a datagram of ARDP version %d ignored (this client speaks version 0)", v)
		return false, nil
	}
	if hl < 3 || hl > len(d) {
		a.x.opts.tracef("* a datagram with a header length of %d in %d bytes ignored", hl, len(d))
		return false, nil
	}
	cid := binary.BigEndian.Uint16(d[1:3])
	if cid != a.cid && cid != a.cid<<8|a.cid>>8 {
		a.x.opts.tracef("* a datagram of connection %#04x ignored (this request is %#04x)", cid, a.cid)
		return false, nil
	}
	seq, total := uint16(1), a.total
	if hl < 5 && a.total == 0 {
		total = 1 // neither number given: a single-packet message
	}
	if hl >= 5 {
		seq = binary.BigEndian.Uint16(d[3:5])
	}
	if hl >= 7 {
		if t := binary.BigEndian.Uint16(d[5:7]); t != 0 {
			total = t
		}
	}
	var flags, option byte
	if hl >= 11 {
		if w := binary.BigEndian.Uint16(d[9:11]); w != 0 {
			wait := time.Duration(w) * time.Second
			a.x.opts.tracef("< ARDP: the server asks to wait %s for the answer", wait)
			a.wait = time.Now().Add(wait)
		}
	}
	if hl >= 12 {
		flags = d[11]
	}
	if hl >= 13 {
		option = d[12]
	}
	switch option {
	case 0, 2, 3:
	case 1:
		return false, &ReplyError{Protocol: "prospero", Step: a.step, Text: "the server refused the connection (ARDP option 1)"}
	case 4, 5:
		return false, &ReplyError{Protocol: "prospero", Step: a.step, Text: "the server redirects the request to another server (ARDP option 4/5), which this client does not follow"}
	}
	if seq == 0 || flags&ardpFlagCtrl != 0 {
		a.x.opts.tracef("< ARDP control packet (%d bytes)", len(d))
		return false, nil
	}
	if a.total != 0 && total != a.total {
		return false, &StepError{Protocol: "prospero", Step: a.step, Err: fmt.Errorf("ARDP packet %d says the reply has %d packets, an earlier one said %d", seq, total, a.total)}
	}
	a.total = total
	if a.total != 0 && seq > a.total {
		return false, &StepError{Protocol: "prospero", Step: a.step, Err: fmt.Errorf("ARDP packet %d of a reply of %d packets", seq, a.total)}
	}
	data := d[hl:]
	a.x.opts.tracef("< ARDP packet %d/%s (%d bytes)", seq, totalText(a.total), len(d))
	delivered, fresh := false, false
	switch {
	case seq < a.next:
		// a duplicate: not progress
	case seq == a.next:
		fresh = true
		if err := a.deliver(data); err != nil {
			return false, err
		}
		delivered = true
		for {
			p, ok := a.ahead[a.next]
			if !ok {
				break
			}
			delete(a.ahead, a.next)
			a.aheadN -= len(p)
			if err := a.deliver(p); err != nil {
				return false, err
			}
		}
	case seq-a.next < ardpWindow && a.aheadN+len(data) <= ardpMaxAhead:
		if _, dup := a.ahead[seq]; !dup {
			a.ahead[seq] = append([]byte(nil), data...)
			a.aheadN += len(data)
			fresh = true
		}
	default:
		a.x.opts.tracef("* ARDP packet %d is too far ahead of packet %d; dropped", seq, a.next)
	}
	if fresh {
		// Only new data is progress: control packets, waits and
		// duplicates do not hold the idle timeout off.
		now := time.Now()
		a.last = now
		a.heard = true
		a.sends = 0 // a new silence may be acknowledged into again
		a.retry = ardpFirstRetry
		a.retx = now.Add(a.retry)
	}
	if a.total != 0 && a.next > a.total {
		a.done = true
		if a.total > 1 {
			a.ack() // the whole message: the server may forget it
		}
		return true, nil
	}
	if flags&ardpFlagAck != 0 {
		if err := a.ack(); err != nil {
			return false, err
		}
	}
	return delivered, nil
}

// deliver appends the next packet's data to the reply.
func (a *ardpConn) deliver(data []byte) error {
	if a.next == 0xffff && (a.total == 0 || a.total > a.next) {
		return &LimitError{Protocol: "prospero", Step: a.step, Limit: "reply size", Value: "65535 ARDP packets"}
	}
	a.got += int64(len(data))
	if a.limit > 0 && a.got > a.limit {
		return &LimitError{Protocol: "prospero", Step: a.step, Limit: "reply size", Value: fmt.Sprintf("%d bytes", a.limit)}
	}
	a.unread = append(a.unread, data...)
	a.next++
	return nil
}

func totalText(t uint16) string {
	if t == 0 {
		return "?"
	}
	return fmt.Sprint(t)
}

// prosperoHostPort turns a Prospero host name, HOST or HOST(PORT), into
// host:port for dialling; ok is false when it is neither.
func prosperoHostPort(h string, defPort int) (host string, port int, ok bool) {
	host = h
	port = defPort
	if i := strings.IndexByte(h, '('); i >= 0 {
		if !strings.HasSuffix(h, ")") {
			return "", 0, false
		}
		host = h[:i]
		n := 0
		digits := h[i+1 : len(h)-1]
		if digits == "" || len(digits) > 5 {
			return "", 0, false
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return "", 0, false
			}
			n = n*10 + int(c-'0')
		}
		if n < 1 || n > 65535 {
			return "", 0, false
		}
		port = n
	}
	if host == "" {
		return "", 0, false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return "", 0, false
		}
	}
	return host, port, true
}
