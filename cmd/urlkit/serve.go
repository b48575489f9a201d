package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "run the HTTP gateway: gopher, ftp and news for browsers (path form) and proxy clients (RFC 1630)",
		usage:   "[flags] [--replay WARC_OR_DIR...]",
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
			fs.String("record", "", "write what the gateway fetches for its users into WARC files in `DIR` (rotated by --record-size; each file complete, records whole)")
			fs.Int64("record-size", archive.DefaultRecordFileSize, "size in bytes past which a --record file is closed and a new one begun")
			fs.Bool("replay", false, "serve the WARC files (and directories of them) given as arguments instead of fetching: the same pages from the captures, /TIMESTAMP/URL for the capture nearest a time; nothing is dialled (an argument ending .cdxj: their index, from urlkit index -o)")
			fs.String("log", "", "append the Common Log Format lines to `FILE` instead of standard error (reopened on SIGHUP, for log rotation)")
			fs.String("log-json", "", "append one JSON object per request to `FILE` (reopened on SIGHUP)")
			fs.String("metrics", "", "serve Prometheus metrics at http://`HOST:PORT`/metrics (an address of its own, not the gateway's)")
			fs.Duration("drain-timeout", 30*time.Second, "on SIGTERM or SIGINT, time the requests in flight get to finish before their connections are closed")
		},
		run: runServe,
	})
}

func runServe(e *env, fs *flag.FlagSet, args []string) int {
	get := func(n string) any { return fs.Lookup(n).Value.(flag.Getter).Get() }
	replay := get("replay").(bool)
	if len(args) > 0 && !replay {
		fmt.Fprintln(e.stderr, "urlkit serve: takes no arguments (but WARC files with --replay)")
		return exitUsage
	}
	if replay && len(args) == 0 {
		fmt.Fprintln(e.stderr, "urlkit serve: --replay: name the WARC files (or directories of them) to serve")
		return exitUsage
	}
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
	var logs []*logFile
	for _, f := range []struct {
		flag string
		to   *io.Writer
	}{{"log", &cfg.Log}, {"log-json", &cfg.LogJSON}} {
		name := get(f.flag).(string)
		if name == "" {
			continue
		}
		lf, err := openLogFile(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit serve: --%s: %v\n", f.flag, err)
			return exitInvalid
		}
		defer lf.Close()
		logs = append(logs, lf)
		*f.to = lf
	}
	if cfg.Log == nil && !get("quiet").(bool) {
		cfg.Log = e.stderr
	}
	metricsAddr := get("metrics").(string)
	cfg.Metrics = metricsAddr != ""
	if err := cfg.Policy.Check(); err != nil {
		fmt.Fprintf(e.stderr, "urlkit serve: --allow: %v\n", err)
		return exitUsage
	}
	if limit := descriptorLimit(); limit > 0 {
		if note := cfg.FitDescriptors(limit); note != "" {
			fmt.Fprintf(e.stderr, "urlkit serve: %s\n", note)
		}
	}
	if replay {
		a, err := archive.OpenArchive(args, cfg.Scheme, func(err error) { fmt.Fprintf(e.stderr, "urlkit serve: --replay: %v\n", err) })
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit serve: --replay: %v\n", err)
			return exitInvalid
		}
		defer a.Close()
		cfg.Replay = a
	}
	var rec *archive.Recorder
	if dir := get("record").(string); dir != "" {
		if replay {
			fmt.Fprintln(e.stderr, "urlkit serve: --record and --replay: a replaying gateway fetches nothing to record")
			return exitUsage
		}
		// Files a crash left under their temporary names get their whole
		// records back first.
		if got, err := archive.Recover(dir); err != nil {
			fmt.Fprintf(e.stderr, "urlkit serve: --record: %v\n", err)
			return exitInvalid
		} else if len(got) > 0 {
			fmt.Fprintf(e.stderr, "urlkit serve: --record: recovered %s\n", strings.Join(got, ", "))
		}
		var err error
		rec, err = archive.NewRecorder(dir, get("record-size").(int64), [][2]string{{"software", "urlkit serve --record"}, {"format", "WARC File Format 1.1"}})
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit serve: --record: %v\n", err)
			return exitInvalid
		}
		cfg.Record = rec
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
	servers := []*http.Server{srv}
	if metricsAddr != "" {
		mln, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			ln.Close()
			fmt.Fprintf(e.stderr, "urlkit serve: --metrics: %v\n", err)
			return exitInvalid
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", gw.MetricsHandler())
		msrv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
		servers = append(servers, msrv)
		go msrv.Serve(mln)
		fmt.Fprintf(e.stderr, "urlkit serve: metrics on http://%s/metrics\n", mln.Addr())
	}
	drained := make(chan struct{})
	go serveSignals(e, servers, logs, get("drain-timeout").(time.Duration), drained)
	if rec != nil {
		// Run after the drain: the handlers have ended, so the last file
		// is closed whole and named.
		defer func() {
			if err := rec.Close(); err != nil {
				fmt.Fprintf(e.stderr, "urlkit serve: --record: %v\n", err)
			}
		}()
	}
	if replay {
		fmt.Fprintf(e.stderr, "urlkit serve: gateway on http://%s/ replaying %s (nothing is fetched)\n", ln.Addr(), strings.Join(args, ", "))
	} else {
		fmt.Fprintf(e.stderr, "urlkit serve: gateway on http://%s/ (%s)\n", ln.Addr(), describeTargets(cfg))
	}
	if err := srv.Serve(gw.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "urlkit serve: %v\n", err)
		return exitInvalid
	}
	<-drained
	return exitOK
}

// serveSignals handles the signals of a running gateway: SIGHUP reopens
// the log files (after logrotate has moved them); SIGTERM or SIGINT stops
// accepting connections and lets the requests in flight finish, up to
// drain, then closes what is left, and closes drained.
func serveSignals(e *env, servers []*http.Server, logs []*logFile, drain time.Duration, drained chan<- struct{}) {
	defer close(drained)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(ch)
	for s := range ch {
		if s == syscall.SIGHUP {
			for _, lf := range logs {
				if err := lf.Reopen(); err != nil {
					fmt.Fprintf(e.stderr, "urlkit serve: SIGHUP: reopening %s: %v (logging on to the file open before)\n", lf.name, err)
				}
			}
			continue
		}
		fmt.Fprintf(e.stderr, "urlkit serve: %v: draining the requests in flight (up to %v)\n", s, drain)
		ctx, cancel := context.WithTimeout(context.Background(), drain)
		for _, srv := range servers {
			if err := srv.Shutdown(ctx); err != nil {
				// The deadline passed: end what is still open.
				fmt.Fprintf(e.stderr, "urlkit serve: requests still in flight after %v: closing them\n", drain)
				srv.Close()
			}
		}
		cancel()
		return
	}
}

// logFile is a log file opened for appending that SIGHUP reopens by name
// (log rotation: the old file, renamed, gets no more lines; a new one is
// created). Each Write is one line, written whole.
type logFile struct {
	name string
	mu   sync.Mutex
	f    *os.File
}

func openLogFile(name string) (*logFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, err
	}
	return &logFile{name: name, f: f}, nil
}

func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(p)
}

// Reopen opens the file by its name again; on failure the file open
// before stays in use.
func (l *logFile) Reopen() error {
	f, err := os.OpenFile(l.name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	l.mu.Lock()
	old := l.f
	l.f = f
	l.mu.Unlock()
	return old.Close()
}

func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
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
