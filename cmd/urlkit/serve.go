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
	"syscall"
	"time"

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
			fs.Bool("allow-private", false, "on a non-loopback address, still allow loopback and private-range targets")
			fs.Duration("timeout", gateway.DefaultTimeout, "deadline of each request, upstream and relay together")
			fs.Duration("connect-timeout", 0, "time allowed to connect upstream (0: access's default)")
			fs.Int64("max-size", gateway.DefaultMaxSize, "largest resource relayed, in bytes")
			fs.Int("max-upstream", gateway.DefaultMaxUpstream, "requests served upstream at once")
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
		Scheme:         scheme.ConfigFromEnv(e.getenv),
		RefusePrivate:  !gateway.IsLoopbackListen(listen) && !get("allow-private").(bool),
		Timeout:        get("timeout").(time.Duration),
		ConnectTimeout: get("connect-timeout").(time.Duration),
		MaxSize:        get("max-size").(int64),
		MaxUpstream:    get("max-upstream").(int),
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
	private := "refused"
	if !cfg.RefusePrivate {
		private = "allowed"
	}
	fmt.Fprintf(e.stderr, "urlkit serve: gateway on http://%s/ (private targets %s)\n", ln.Addr(), private)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "urlkit serve: %v\n", err)
		return exitInvalid
	}
	return exitOK
}
