package access

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Session is an interactive login that a telnet, tn3270 or rlogin URL
// designates (RFC 1738 sections 3.8; RFC 1630 for rlogin and tn3270). The
// URL names the session only: this package never logs in for the user.
type Session struct {
	// Program is the client to run: "telnet", "tn3270" or "rlogin".
	Program string
	// Host and Port locate the server; an empty Port means the client's
	// default.
	Host, Port string
	// User is the login name to use, if the URL gives one.
	User string
	// Password is the URL's password. It is never shown nor passed to the
	// client program (that would expose it in the process list);
	// HasPassword marks an empty but present password.
	Password    string
	HasPassword bool
}

func (s *Session) validate() error {
	switch s.Program {
	case "telnet", "tn3270", "rlogin":
	default:
		return fmt.Errorf("%s: unknown session program (want telnet, tn3270 or rlogin)", s.Program)
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
		return &UnsafeArgumentError{Protocol: s.Program, Field: "Host", Value: s.Host}
	}
	if bad(s.User) {
		return &UnsafeArgumentError{Protocol: s.Program, Field: "User", Value: s.User}
	}
	for _, r := range s.Port {
		if r < '0' || r > '9' {
			return &UnsafeArgumentError{Protocol: s.Program, Field: "Port", Value: s.Port}
		}
	}
	return nil
}

// Describe returns advisory text about the session for a person: where it
// goes, which user to log in as, and whether the URL carries a password
// (never the password itself).
func (s *Session) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s session to host %s", s.Program, s.Host)
	if s.Port != "" {
		fmt.Fprintf(&b, ", port %s", s.Port)
	}
	if s.User != "" {
		fmt.Fprintf(&b, ", logging in as user %q", s.User)
	}
	b.WriteString(".\n")
	if s.Password != "" || s.HasPassword {
		b.WriteString("A password is given in the URL (not shown).\n")
	}
	b.WriteString("The URL only designates the session; the program does not log in for you: give the user name and password when the remote system asks.\n")
	return b.String()
}

// Command returns the system client command for the session, without
// starting it. Host and user are checked first (no leading "-", no control
// characters or spaces: they could be taken as options) and passed as
// separate argument-vector elements after "--" for telnet (inetutils and
// netkit telnet: telnet [-l user] -- host [port]) and rlogin (netkit:
// rlogin [-l user] [-p port] -- host). tn3270 (or c3270, whichever is
// installed) is given host:port as its one argument; it has no user
// option. The password is never passed.
func (s *Session) Command(ctx context.Context) (*exec.Cmd, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	var prog string
	var args []string
	switch s.Program {
	case "telnet":
		prog = "telnet"
		if s.User != "" {
			args = append(args, "-l", s.User)
		}
		args = append(args, "--", s.Host)
		if s.Port != "" {
			args = append(args, s.Port)
		}
	case "rlogin":
		prog = "rlogin"
		if s.User != "" {
			args = append(args, "-l", s.User)
		}
		if s.Port != "" {
			args = append(args, "-p", s.Port)
		}
		args = append(args, "--", s.Host)
	case "tn3270":
		prog = "tn3270"
		if _, err := exec.LookPath(prog); err != nil {
			prog = "c3270"
		}
		hp := s.Host
		if s.Port != "" {
			hp += ":" + s.Port
		}
		args = append(args, hp)
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, fmt.Errorf("%s: client program not found: %w", s.Program, err)
	}
	return exec.CommandContext(ctx, path, args...), nil
}
