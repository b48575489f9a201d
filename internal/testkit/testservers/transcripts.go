package testservers

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// ServersDir is ../shared/servers beside the repository (the real servers'
// sources, scripts and wire transcripts), or $URLKIT_SHARED_SERVERS.
func ServersDir() string { return corpus.Shared("URLKIT_SHARED_SERVERS", "servers") }

// Transcript returns the path of a file under ServersDir. When it is
// absent the test is skipped with one line, or fails when
// URLKIT_REQUIRE_CORPORA=1 (as CI sets it: ../shared is there).
func Transcript(tb testing.TB, rel string) string {
	tb.Helper()
	return corpus.Need(tb, filepath.Join(ServersDir(), rel), "transcript", "../shared/servers beside the repository, or set URLKIT_SHARED_SERVERS")
}

// Payload is the data of one TCP segment or UDP datagram of a capture.
type Payload struct {
	UDP              bool
	SrcPort, DstPort int
	Data             []byte
}

// ReadPcap returns the TCP and UDP payloads of an IPv4 capture (classic
// pcap format; Ethernet or Linux cooked link layers), in capture order.
func ReadPcap(path string) ([]Payload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 24 {
		return nil, errors.New("not a pcap file")
	}
	var bo binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(data) {
	case 0xa1b2c3d4, 0xa1b23c4d:
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	default:
		return nil, errors.New("not a pcap file")
	}
	link := bo.Uint32(data[20:])
	skip := map[uint32]int{1: 14, 113: 16, 276: 20}[link]
	var out []Payload
	for off := 24; off+16 <= len(data); {
		incl := int(bo.Uint32(data[off+8:]))
		if off+16+incl > len(data) {
			break
		}
		pkt := data[off+16 : off+16+incl]
		off += 16 + incl
		if len(pkt) < skip+20 {
			continue
		}
		ip := pkt[skip:]
		if ip[0]>>4 != 4 {
			continue
		}
		ihl := int(ip[0]&15) * 4
		total := int(binary.BigEndian.Uint16(ip[2:]))
		if total > len(ip) || ihl+8 > total {
			continue
		}
		switch ip[9] {
		case 6: // TCP
			tcp := ip[ihl:total]
			doff := int(tcp[12]>>4) * 4
			if doff > len(tcp) || doff == len(tcp) {
				continue
			}
			out = append(out, Payload{SrcPort: int(binary.BigEndian.Uint16(tcp)), DstPort: int(binary.BigEndian.Uint16(tcp[2:])), Data: tcp[doff:]})
		case 17: // UDP
			udp := ip[ihl:total]
			out = append(out, Payload{UDP: true, SrcPort: int(binary.BigEndian.Uint16(udp)), DstPort: int(binary.BigEndian.Uint16(udp[2:])), Data: udp[8:]})
		}
	}
	return out, nil
}
