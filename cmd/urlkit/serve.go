package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "run the HTTP gateway: gopher, ftp and news for browsers (path form) and proxy clients (RFC 1630)",
		usage:   "[flags]",
		flags: func(fs *flag.FlagSet) {
			fs.String("listen", "127.0.0.1:8070", "address to listen on (host:port)")
			fs.Var(&commaList{}, "allow", "a target the gateway reaches whatever its address, `HOST:PORT` (repeatable, or comma-separated): a local gopher server, an ftp server on the local network")
			fs.Bool("allow-private", false, "reach private-use targets (10/8, 172.16/12, 192.168/16, fc00::/7) on their scheme's default port")
			fs.Var(&commaList{}, "host", "a name the gateway answers to besides its address and localhost, `NAME` or NAME:PORT (repeatable): the name a DNS entry or a front proxy gives it")
			fs.Duration("timeout", gateway.DefaultTimeout, "deadline of each request, upstream and relay together")
			fs.Duration("connect-timeout", 0, "time allowed to connect upstream (0: access's default)")
			fs.Int64("max-size", gateway.DefaultMaxSize, "largest resource relayed, in bytes")
			fs.Int("max-upstream", gateway.DefaultMaxUpstream, "requests served upstream at once")
			fs.Int("max-upstream-per-client", 0, "requests of one client address served upstream at once (0: a quarter of --max-upstream)")
			fs.Int("max-upstream-per-target", 0, "requests for one upstream server served at once (0: an eighth of --max-upstream)")
			fs.Int("max-conns", gateway.DefaultMaxConns, "client connections open at once; beyond it one doing nothing (idle, or nothing sent yet) of the client holding most is closed, or the new one answered 503")
			fs.Int("max-conns-per-client", 0, "client connections from one address (0: --max-conns/16, at least 4; 16 by default), so that a few addresses cannot take every connection")
			fs.Duration("header-timeout", gateway.DefaultHeaderTimeout, "time allowed to send a request's header")
			fs.Duration("idle-timeout", gateway.DefaultIdleTimeout, "time an idle keep-alive connection is kept")
			fs.Int("ftp-idle", access.DefaultFTPIdleTotal, "logged-in ftp sessions kept between requests")
			fs.Duration("ftp-idle-timeout", access.DefaultFTPIdleTimeout, "time an idle ftp session is kept (then QUIT and closed)")
			fs.Int("max-page-items", gateway.DefaultMaxPageItems, "entries on one listing page (menu, directory, group list); a longer listing is cut with a visible line")
			fs.Int64("max-page-bytes", gateway.DefaultMaxPageBytes, "bytes of entries on one listing page; a longer listing is cut with a visible line")
			fs.String("email", "", "the anonymous ftp password (RFC 1738 3.2.1); default $EMAIL or $USER@localhost")
			fs.String("nntp-server", "", "news server host[:port] for news: URLs; default $NNTPSERVER")
			fs.Bool("quiet", false, "do not log requests on standard error")
		},
		run: runServe,
	})
}

func runServe(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(e.stderr, "urlkit serve: takes no arguments")
		return exitUsage
	}
	get := func(n string) any { return fs.Lookup(n).Value.(flag.Getter).Get() }
	listen := get("listen").(string)
	cfg := gateway.Config{
		Scheme: scheme.ConfigFromEnv(e.getenv),
		Policy: gateway.Policy{
			Allow: get("allow").([]string),
			// Loopback targets for local browsing when the gateway is
			// reachable from this machine only (and behind the origin
			// rules); never when it listens on the network.
			AllowLoopback: gateway.IsLoopbackListen(listen),
			AllowPrivate:  get("allow-private").(bool),
			Hosts:         get("host").([]string),
		},
		Timeout:              get("timeout").(time.Duration),
		ConnectTimeout:       get("connect-timeout").(time.Duration),
		MaxSize:              get("max-size").(int64),
		MaxUpstream:          get("max-upstream").(int),
		MaxUpstreamPerClient: get("max-upstream-per-client").(int),
		MaxUpstreamPerTarget: get("max-upstream-per-target").(int),
		MaxConns:             get("max-conns").(int),
		MaxConnsPerClient:    get("max-conns-per-client").(int),
		HeaderTimeout:        get("header-timeout").(time.Duration),
		IdleTimeout:          get("idle-timeout").(time.Duration),
		FTPIdle:              get("ftp-idle").(int),
		FTPIdleTimeout:       get("ftp-idle-timeout").(time.Duration),
		MaxPageItems:         get("max-page-items").(int),
		MaxPageBytes:         get("max-page-bytes").(int64),
	}
	if s := get("email").(string); s != "" {
		cfg.Scheme.Email = s
	}
	if s := get("nntp-server").(string); s != "" {
		cfg.Scheme.NewsServer = s
	}
	if !get("quiet").(bool) {
		cfg.Log = e.stderr
	}
	if err := cfg.Policy.Check(); err != nil {
		fmt.Fprintf(e.stderr, "urlkit serve: --allow: %v\n", err)
		return exitUsage
	}
	if limit := descriptorLimit(); limit > 0 {
		if note := cfg.FitDescriptors(limit); note != "" {
			fmt.Fprintf(e.stderr, "urlkit serve: %s\n", note)
		}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit serve: %v\n", err)
		return exitInvalid
	}
	gw := gateway.New(cfg)
	defer gw.Close()
	// The server's write timeout ends the relay to a client that stops
	// reading: the request's deadline bounds the upstream, not a blocked
	// write.
	srv := gw.HTTPServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	fmt.Fprintf(e.stderr, "urlkit serve: gateway on http://%s/ (%s)\n", ln.Addr(), describeTargets(cfg))
	if err := srv.Serve(gw.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "urlkit serve: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

// describeTargets says in a few words which non-public targets cfg opens.
func describeTargets(cfg gateway.Config) string {
	var open []string
	if cfg.Policy.AllowLoopback {
		open = append(open, "loopback")
	}
	if cfg.Policy.AllowPrivate {
		open = append(open, "private")
	}
	s := "public targets"
	if len(open) > 0 {
		s += ", " + strings.Join(open, " and ") + " targets on their scheme's port"
	}
	named := append([]string(nil), cfg.Policy.Allow...)
	if cfg.Scheme.NewsServer != "" {
		named = append(named, cfg.Scheme.NewsServer+" (news server)")
	}
	if len(named) > 0 {
		s += ", " + strings.Join(named, ", ")
	}
	return s
}

// commaList is a flag that may be given more than once, each value a
// comma-separated list.
type commaList []string

func (l *commaList) String() string { return strings.Join(*l, ",") }
func (l *commaList) Get() any       { return []string(*l) }
func (l *commaList) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}
