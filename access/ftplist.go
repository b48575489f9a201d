package access

import (
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// ListFormat says how the lines of an FTP directory listing are written:
// which command produced them.
type ListFormat string

// The listing commands, by what their lines hold.
const (
	// ListNames is NLST's: one name a line (RFC 959 4.1.3), nothing else.
	// RFC 1738 3.2.2 lists a directory with NLST.
	ListNames ListFormat = "nlst"
	// ListFacts is MLSD's: "fact=value;...; name" (RFC 3659 7.2, 7.5), a
	// format every server writes the same way.
	ListFacts ListFormat = "mlsd"
	// ListLong is LIST's: the server's own format (RFC 959 4.1.3 leaves it
	// open). ParseListLine reads Unix "ls -l", MS-DOS/IIS and EPLF lines.
	ListLong ListFormat = "list"
)

// EntryKind is what a directory entry is.
type EntryKind uint8

// The kinds of directory entries.
const (
	KindUnknown EntryKind = iota // the listing does not say (NLST)
	KindFile
	KindDir
	KindLink  // a symbolic link (its target may be a file or a directory)
	KindOther // a device, socket, pipe or another thing that is not retrieved
)

// String names the kind for a person.
func (k EntryKind) String() string {
	switch k {
	case KindFile:
		return "file"
	case KindDir:
		return "directory"
	case KindLink:
		return "link"
	case KindOther:
		return "other"
	}
	return "unknown"
}

// TimePrecision says how much of an entry's time the listing gave.
type TimePrecision uint8

// The precisions of a listing's times.
const (
	TimeNone   TimePrecision = iota // no time given
	TimeDay                         // a date (ls -l for an old file: "Nov 24  2019")
	TimeMinute                      // a date and hour:minute (ls -l, MS-DOS)
	TimeSecond                      // to the second (MLSD, EPLF)
)

// DirEntry is one line of a directory listing, read.
type DirEntry struct {
	Name string
	Kind EntryKind
	// Size is the size in bytes, or -1 when the listing does not give it.
	Size int64
	// Time is the last modification as the listing gives it, with
	// Precision saying how much of it is known. MLSD and EPLF times are
	// UTC (RFC 3659 2.3; EPLF's m fact counts seconds since 1970 UTC);
	// ls -l and MS-DOS times are the server's local time, taken as they
	// are (in UTC, so that they print as written). A listed time equal
	// to the zero time (midnight, January 1 of year 1) counts as none.
	Time      time.Time
	Precision TimePrecision
	// Link is a symbolic link's target, when the listing gives it.
	Link string
	// Raw is the line as the server sent it, without its line end.
	Raw string
	// Parsed is false when the line is in no format ParseListLine knows:
	// only Raw is set then, and the line is shown as text.
	Parsed bool
}

// ParseListLine reads one line of a listing in format f. now is the time
// against which an ls -l date without a year is placed (the last twelve
// months, as ls prints it). skip is true for a line that names no entry
// and is left out of a page: an empty line, ls's "total N", the entries
// "." and "..", and MLSD's cdir and pdir entries (RFC 3659 7.5.1). A line
// in no known format comes back with Parsed false and Raw set, never as an
// error: the caller shows it as text.
func ParseListLine(f ListFormat, line string, now time.Time) (e DirEntry, skip bool) {
	line = strings.TrimRight(line, "\r\n")
	e = DirEntry{Raw: line, Size: -1}
	if strings.TrimSpace(line) == "" {
		return e, true
	}
	ok := false
	switch f {
	case ListNames:
		// NLST may answer with paths (some servers prefix the argument).
		name := line
		if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
			name = name[i+1:]
		}
		e.Name, ok = name, true
	case ListFacts:
		ok = parseFacts(&e, line)
		if ok && (e.Name == "." || e.Name == "..") {
			return e, true
		}
	default:
		switch c := line[0]; {
		case c == '+':
			ok = parseEPLF(&e, line)
		case c >= '0' && c <= '9':
			ok = parseDOS(&e, line)
		default:
			if strings.HasPrefix(line, "total ") && isDigits(strings.TrimSpace(line[len("total "):])) {
				return e, true
			}
			ok = parseUnix(&e, line, now)
		}
	}
	if !ok {
		return DirEntry{Raw: line, Size: -1}, false
	}
	if e.Name == "." || e.Name == ".." {
		return e, true
	}
	if e.Time.IsZero() {
		// January 1 of year 1 at midnight UTC ("Jan  1  0001" in ls -l,
		// 00010101000000 in MLSD) is Go's zero time, which says "no
		// time": no file has it, so the listing is read as giving none.
		e.Precision = TimeNone
	}
	e.Parsed = true
	return e, false
}

// parseFacts reads an MLSD line (RFC 3659 7.2): facts, each "name=value;",
// then one space and the name. Fact names are case-insensitive (7.5).
func parseFacts(e *DirEntry, line string) bool {
	sp := strings.IndexByte(line, ' ')
	if sp < 0 || sp == len(line)-1 {
		return false
	}
	facts, name := line[:sp], line[sp+1:]
	e.Name = name
	for facts != "" {
		f, rest, found := strings.Cut(facts, ";")
		if !found {
			return false // every fact ends with ";" (RFC 3659 7.2: fact = factname "=" value ";")
		}
		facts = rest
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return false
		}
		switch strings.ToLower(k) {
		case "type":
			switch lv := strings.ToLower(v); {
			case lv == "file":
				e.Kind = KindFile
			case lv == "dir":
				e.Kind = KindDir
			case lv == "cdir" || lv == "pdir":
				// The listed directory and its parent (RFC 3659 7.5.1).
				e.Name = "."
			case strings.HasPrefix(lv, "os.unix=slink") || strings.HasPrefix(lv, "os.unix=symlink"):
				e.Kind = KindLink
				if _, target, ok := strings.Cut(v, ":"); ok {
					e.Link = target
				}
			default:
				e.Kind = KindOther
			}
		case "size":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
		case "modify":
			// time-val = 14DIGIT [ "." 1*DIGIT ] (RFC 3659 2.3), UTC.
			if t, ok := parseFactTime(v); ok {
				e.Time, e.Precision = t, TimeSecond
			}
		}
	}
	return true
}

// parseFactTime reads RFC 3659 2.3's time-val: YYYYMMDDHHMMSS, then an
// optional fraction of a second, which is dropped.
func parseFactTime(v string) (time.Time, bool) {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if !isDigits(v[i+1:]) {
			return time.Time{}, false
		}
		v = v[:i]
	}
	if len(v) != 14 || !isDigits(v) {
		return time.Time{}, false
	}
	t, err := time.Parse("20060102150405", v)
	return t, err == nil
}

// parseEPLF reads a line of D. J. Bernstein's Easily Parsed LIST Format:
// "+", facts separated by ",", a TAB, the name. Facts: "/" (a directory),
// "r" (a file that can be retrieved), "s" and a size, "m" and a time in
// seconds since 1970 UTC, "i" and an identifier, "up" and a mode; other
// facts are ignored.
func parseEPLF(e *DirEntry, line string) bool {
	tab := strings.IndexByte(line, '\t')
	if tab < 0 || tab == len(line)-1 {
		return false
	}
	e.Name = line[tab+1:]
	kind := KindOther
	for _, f := range strings.Split(line[1:tab], ",") {
		switch {
		case f == "":
		case f == "/":
			kind = KindDir
		case f == "r":
			if kind != KindDir {
				kind = KindFile
			}
		case f[0] == 's':
			if n, err := strconv.ParseInt(f[1:], 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
		case f[0] == 'm':
			if n, err := strconv.ParseInt(f[1:], 10, 64); err == nil && n >= 0 && n < 1<<40 {
				e.Time, e.Precision = time.Unix(n, 0).UTC(), TimeSecond
			}
		}
	}
	e.Kind = kind
	return true
}

// parseDOS reads a line of the MS-DOS style that IIS and other Windows
// servers send: "MM-DD-YY  HH:MMAM  <DIR>  name" or "... size name"
// (four-digit years and 24-hour times are read too).
func parseDOS(e *DirEntry, line string) bool {
	date, rest := field(line)
	clock, rest := field(rest)
	what, rest := field(rest)
	name := strings.TrimLeft(rest, " ")
	if name == "" || what == "" {
		return false
	}
	d := strings.Split(date, "-")
	if len(d) != 3 || !isDigits(d[0]) || !isDigits(d[1]) || !isDigits(d[2]) {
		return false
	}
	mon, _ := strconv.Atoi(d[0])
	day, _ := strconv.Atoi(d[1])
	year, _ := strconv.Atoi(d[2])
	switch len(d[2]) {
	case 2: // the century as MS-DOS tools assumed it
		if year < 70 {
			year += 2000
		} else {
			year += 1900
		}
	case 4:
	default:
		return false
	}
	hour, min, ok := parseClock(clock)
	if !ok || mon < 1 || mon > 12 || day < 1 || day > 31 {
		return false
	}
	switch {
	case what == "<DIR>":
		e.Kind = KindDir
	case isDigits(strings.ReplaceAll(what, ",", "")):
		n, err := strconv.ParseInt(strings.ReplaceAll(what, ",", ""), 10, 64)
		if err != nil {
			return false
		}
		e.Kind, e.Size = KindFile, n
	default:
		return false
	}
	e.Name = name
	e.Time, e.Precision = time.Date(year, time.Month(mon), day, hour, min, 0, 0, time.UTC), TimeMinute
	return true
}

// parseClock reads "09:57PM", "09:57 PM" written without space, or "21:57".
func parseClock(s string) (hour, min int, ok bool) {
	pm, am := strings.HasSuffix(s, "PM"), strings.HasSuffix(s, "AM")
	if pm || am {
		s = s[:len(s)-2]
	}
	h, m, found := strings.Cut(s, ":")
	if !found || len(m) != 2 || !isDigits(h) || !isDigits(m) || len(h) == 0 || len(h) > 2 {
		return 0, 0, false
	}
	hour, _ = strconv.Atoi(h)
	min, _ = strconv.Atoi(m)
	if pm || am {
		if hour < 1 || hour > 12 {
			return 0, 0, false
		}
		hour %= 12
		if pm {
			hour += 12
		}
	}
	return hour, min, hour < 24 && min < 60
}

// months are ls's month abbreviations (the C locale's).
var months = map[string]time.Month{
	"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
	"Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12,
}

// parseUnix reads a Unix "ls -l" line, as vsftpd, ProFTPD, wu-ftpd and
// most servers on Unix send it: the mode, then the link count, owner and
// group (either may be missing), the size, the date as "Mon DD HH:MM" or
// "Mon DD YYYY", one space and the name, "name -> target" for a symbolic
// link.
func parseUnix(e *DirEntry, line string, now time.Time) bool {
	mode, _ := field(line)
	if len(mode) < 10 || strings.IndexByte("-dlbcpsD", mode[0]) < 0 {
		return false
	}
	for i := 1; i < 10; i++ {
		if strings.IndexByte("rwxsStTlL-", mode[i]) < 0 {
			return false
		}
	}
	// Tokens with their ends, to find the date and cut the name after it.
	type tok struct {
		s   string
		end int
	}
	var toks []tok
	for i := 0; i < len(line) && len(toks) < 12; {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if j > i {
			toks = append(toks, tok{line[i:j], j})
		}
		i = j
	}
	for m := 2; m+2 < len(toks); m++ {
		mon, ok := months[toks[m].s]
		if !ok {
			continue
		}
		day, err := strconv.Atoi(toks[m+1].s)
		if err != nil || day < 1 || day > 31 {
			continue
		}
		when := toks[m+2].s
		var t time.Time
		var prec TimePrecision
		if hour, min, ok := parseClock(when); ok && !strings.HasSuffix(when, "M") {
			// Within the last six months ls prints the time, not the
			// year: the year is the one that puts the date in the past.
			year := now.Year()
			t = time.Date(year, mon, day, hour, min, 0, 0, time.UTC)
			if t.After(now.Add(48 * time.Hour)) {
				t = time.Date(year-1, mon, day, hour, min, 0, 0, time.UTC)
			}
			prec = TimeMinute
		} else if len(when) == 4 && isDigits(when) {
			year, _ := strconv.Atoi(when)
			t, prec = time.Date(year, mon, day, 0, 0, 0, 0, time.UTC), TimeDay
		} else {
			continue
		}
		end := toks[m+2].end
		if end+1 >= len(line) {
			return false // no name
		}
		name := line[end+1:]
		switch mode[0] {
		case '-':
			e.Kind = KindFile
		case 'd':
			e.Kind = KindDir
		case 'l':
			e.Kind = KindLink
			if i := strings.Index(name, " -> "); i > 0 {
				name, e.Link = name[:i], name[i+len(" -> "):]
			}
		default:
			e.Kind = KindOther
		}
		if e.Kind == KindFile || e.Kind == KindDir || e.Kind == KindLink {
			if n, err := strconv.ParseInt(toks[m-1].s, 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
		}
		e.Name, e.Time, e.Precision = name, t, prec
		return true
	}
	return false
}

// field returns the first space-separated field of s and what follows it.
func field(s string) (string, string) {
	s = strings.TrimLeft(s, " ")
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// HasMLST reports whether a FEAT reply's text (RFC 2389 3.2: one feature a
// line, each indented by a space) offers MLST, and with it MLSD (RFC 3659
// 7.8: "the MLST feature ... indicates that both MLST and MLSD are
// supported").
func HasMLST(feat string) bool { return offers(featFeatures(feat), scheme.FTPMlst) }
