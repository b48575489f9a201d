// Command hostile runs one of the misbehaving servers of internal/testkit/hostile
// on a loopback port, for measuring urlkit by hand (peak memory with
// /usr/bin/time -v, the time to stop after Ctrl-C):
//
//	go run ./internal/testkit/hostile/cmd/hostile -port 7999 gopher-menu &
//	/usr/bin/time -v urlkit get -o /dev/null gopher://127.0.0.1:7999/1
//
// Run it without arguments for the list of servers.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sort"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

var servers = map[string]func(net.Conn){
	"ftp-huge-reply":    hostile.HugeMultilineReply("220"),
	"ftp-endless-line":  hostile.EndlessLine("220"),
	"nntp-endless-line": hostile.EndlessLine("200"),
	"nntp-huge-reply":   hostile.HugeReplyAfter([]string{"200 hi", "200 reader"}, "211"),
	"nntp-article":      hostile.NNTPEndlessArticle,
	"smtp-huge-reply":   hostile.HugeReplyAfter([]string{"220 hi"}, "250"),
	"gopher-menu":       hostile.GopherEndlessMenu(0),
	"gopher-drip":       hostile.Drip("", time.Second),
	"http-header":       hostile.HTTPEndlessHeader,
	"http-gzip-bomb":    nil, // built on demand: compressing 1 GiB takes seconds
	"silent":            hostile.Silent,
	// WAIS (wais://127.0.0.1:PORT/db?x; the endless document:
	// wais://127.0.0.1:PORT/db/TEXT/id)
	"wais-huge-header":      hostile.WAISHugeHeader,
	"wais-short-body":       hostile.WAISShortBody,
	"wais-lying-element":    hostile.WAISLyingElement(),
	"wais-garbage":          hostile.WAISGarbage(1),
	"wais-endless-document": hostile.WAISEndlessDocument(),
	"wais-drip":             hostile.WAISDrip(time.Second),
}

// udpServers are the Prospero servers (UDP; prospero://127.0.0.1:PORT//x).
var udpServers = map[string]func(*hostile.UDPServer, net.Addr, []byte){
	"prospero-endless":     hostile.ProsperoEndless,
	"prospero-lying-total": hostile.ProsperoLyingTotal,
	"prospero-garbage":     hostile.ProsperoGarbage(1),
	"prospero-wait":        hostile.ProsperoWaitForever,
	"prospero-silent":      hostile.ProsperoSilentUDP,
}

func main() {
	port := flag.Int("port", 0, "loopback port to listen on (0: any)")
	flag.Parse()
	h, ok := servers[flag.Arg(0)]
	u, udp := udpServers[flag.Arg(0)]
	if flag.NArg() != 1 || !ok && !udp {
		names := make([]string, 0, len(servers)+len(udpServers))
		for n := range servers {
			names = append(names, n)
		}
		for n := range udpServers {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: hostile [-port N] SERVER\nservers: %v\n", names)
		os.Exit(2)
	}
	var (
		addr  string
		close func()
		err   error
	)
	if udp {
		var s *hostile.UDPServer
		if s, err = hostile.StartUDP(*port, u); err == nil {
			addr, close = s.Addr, s.Close
		}
	} else {
		if h == nil {
			h = hostile.HTTPResponse(hostile.GzipBomb(1 << 30))
		}
		var s *hostile.Server
		if s, err = hostile.Start(*port, h); err == nil {
			addr, close = s.Addr, s.Close
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(addr)
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	<-c
	close()
}
