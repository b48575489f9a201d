package access

import (
	"context"
	"fmt"
	oexec "os/exec"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/scheme"
)

// checkSession refuses session values that a client program could take as
// options or that hold control characters or spaces.
func checkSession(s *scheme.Session) error {
	switch s.Program {
	case "telnet", "tn3270", "rlogin":
	default:
		return fmt.Errorf("%s: unknown session program (want telnet, tn3270 or rlogin)", EscapeText(s.Program))
	}
	bad := func(v string) bool {
		if strings.HasPrefix(v, "-") {
			return true
		}
		for _, r := range v {
			if r < 0x20 || r == 0x7f || r == ' ' {
				return true
			}
		}
		return false
	}
	if s.Host == "" || bad(s.Host) {
		return fmt.Errorf("%s: host %q could be taken as an option or holds a space or control character; refusing it", s.Program, EscapeText(s.Host))
	}
	if bad(s.User) {
		return fmt.Errorf("%s: user %q could be taken as an option or holds a space or control character; refusing it", s.Program, EscapeText(s.User))
	}
	if s.Port < 1 || s.Port > 65535 {
		return fmt.Errorf("%s: port %d is not 1 to 65535", s.Program, s.Port)
	}
	return nil
}

// DescribeSession returns advisory text about a telnet, tn3270 or rlogin
// session for a person: where it goes, which user to log in as, and
// whether the URL carries a password (never the password itself). The URL
// only designates the session (RFC 1738 3.8).
func DescribeSession(s *scheme.Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s session to host %s, port %d", s.Program, EscapeText(s.Host), s.Port)
	if s.HasUser {
		fmt.Fprintf(&b, ", logging in as user %q", EscapeText(s.User))
	}
	b.WriteString(".\n")
	if s.HasPassword {
		b.WriteString("A password is given in the URL (not shown).\n")
	}
	b.WriteString("The URL only designates the session; the program does not log in for you: give the user name and password when the remote system asks.\n")
	return b.String()
}

// SessionCommand returns the system client command for the session,
// without starting it. Host and user are checked first (no leading "-", no
// control characters or spaces: they could be taken as options) and passed
// as separate argument-vector elements after "--" for telnet (inetutils
// and netkit telnet: telnet [-l user] -- host [port]) and rlogin (netkit:
// rlogin [-l user] [-p port] -- host). tn3270 (or c3270, whichever is
// installed) is given host:port as its one argument; it has no user
// option. The password is never passed.
func SessionCommand(ctx context.Context, s *scheme.Session) (*oexec.Cmd, error) {
	if err := checkSession(s); err != nil {
		return nil, err
	}
	port := strconv.Itoa(s.Port)
	var prog string
	var args []string
	switch s.Program {
	case "telnet":
		prog = "telnet"
		if s.User != "" {
			args = append(args, "-l", s.User)
		}
		args = append(args, "--", s.Host, port)
	case "rlogin":
		prog = "rlogin"
		if s.User != "" {
			args = append(args, "-l", s.User)
		}
		args = append(args, "-p", port, "--", s.Host)
	case "tn3270":
		prog = "tn3270"
		if _, err := oexec.LookPath(prog); err != nil {
			prog = "c3270"
		}
		args = append(args, s.Host+":"+port)
	}
	path, err := oexec.LookPath(prog)
	if err != nil {
		return nil, fmt.Errorf("%s: client program not found: %w", s.Program, err)
	}
	return oexec.CommandContext(ctx, path, args...), nil
}
