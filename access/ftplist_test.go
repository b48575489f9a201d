package access

import (
	"strings"
	"testing"
	"time"
)

// now is the reference time of the table: ls -l dates without a year are
// placed in the twelve months before it.
var listNow = time.Date(2026, 11, 24, 23, 30, 0, 0, time.UTC)

func date(y int, m time.Month, d, h, min, s int) time.Time {
	return time.Date(y, m, d, h, min, s, 0, time.UTC)
}

func TestParseListLine(t *testing.T) {
	type want struct {
		name   string
		kind   EntryKind
		size   int64
		time   time.Time
		prec   TimePrecision
		link   string
		skip   bool
		parsed bool
	}
	for _, tc := range []struct {
		src  string // where the line comes from
		f    ListFormat
		line string
		want want
	}{
		// RFC 3659 7.7.4 (MLSD's example listing of "tmp") and 7.5.1 (type
		// facts; cdir and pdir name the listed directory and its parent).
		{"RFC 3659 7.7.4", ListFacts, "Type=cdir;Modify=19981107085215;Perm=el; tmp", want{skip: true}},
		{"RFC 3659 7.7.4", ListFacts, "Type=pdir;Modify=19990112030508;Perm=el; ..", want{skip: true}},
		{"RFC 3659 7.7.4", ListFacts, "Type=file;Size=25730;Modify=19940728095854;Perm=; capmux.tar.z",
			want{name: "capmux.tar.z", kind: KindFile, size: 25730, time: date(1994, 7, 28, 9, 58, 54), prec: TimeSecond, parsed: true}},
		{"RFC 3659 7.7.4", ListFacts, "Type=file;Size=1830;Modify=19940916055648;Perm=r; hatch.c",
			want{name: "hatch.c", kind: KindFile, size: 1830, time: date(1994, 9, 16, 5, 56, 48), prec: TimeSecond, parsed: true}},
		// RFC 3659 7.5: fact names are case-insensitive; 2.3: a fraction of
		// a second may follow; 7.2: the name after one space may hold spaces.
		{"RFC 3659 7.5, 2.3", ListFacts, "type=dir;modify=20261124215700.123;UNIX.mode=0755; my docs",
			want{name: "my docs", kind: KindDir, size: -1, time: date(2026, 11, 24, 21, 57, 0), prec: TimeSecond, parsed: true}},
		// A time at Go's zero time (midnight, January 1 of year 1) counts as
		// none, MLSD's and ls -l's alike (FuzzParseListLine found the ls
		// -l one: precision without a time).
		{"FuzzParseListLine", ListFacts, "type=file;size=3;modify=00010101000000; old",
			want{name: "old", kind: KindFile, size: 3, prec: TimeNone, parsed: true}},
		{"FuzzParseListLine", ListLong, "-rw-r--r-- 1 u g 0 Jan 1 0001 zero",
			want{name: "zero", kind: KindFile, size: 0, prec: TimeNone, parsed: true}},
		// ProFTPD's mod_facts writes a symbolic link as OS.unix=slink:target.
		{"ProFTPD mod_facts", ListFacts, "modify=20200101000000;type=OS.unix=slink:/srv/x;size=6; latest",
			want{name: "latest", kind: KindLink, size: 6, time: date(2020, 1, 1, 0, 0, 0), prec: TimeSecond, link: "/srv/x", parsed: true}},
		{"RFC 3659 7.2 (no space before the name)", ListFacts, "type=file;size=3;name", want{size: -1}},
		{"RFC 3659 7.2 (a fact without its ;)", ListFacts, "type=file;size=3 name", want{size: -1}},
		{"RFC 3659 2.3 (a bad time is ignored)", ListFacts, "type=file;modify=2026; f",
			want{name: "f", kind: KindFile, size: -1, parsed: true}},

		// vsftpd 3.0.3's LIST, recorded from the CI daemon (.ci/servers.sh).
		{"vsftpd 3.0.3", ListLong, "-rw-r--r--    1 ftp      ftp           256 Nov 24 23:08 all256.bin",
			want{name: "all256.bin", kind: KindFile, size: 256, time: date(2026, 11, 24, 23, 8, 0), prec: TimeMinute, parsed: true}},
		{"vsftpd 3.0.3", ListLong, "drwxr-xr-x    2 ftp      ftp          4096 Nov 24 23:08 dir",
			want{name: "dir", kind: KindDir, size: 4096, time: date(2026, 11, 24, 23, 8, 0), prec: TimeMinute, parsed: true}},
		// ls -l: a date more than six months old carries the year; a date
		// without a year later than now is last year's.
		{"GNU ls -l", ListLong, "-rw-r--r-- 1 djb users 51200 Nov 24  2019 big file.bin",
			want{name: "big file.bin", kind: KindFile, size: 51200, time: date(2019, 11, 24, 0, 0, 0), prec: TimeDay, parsed: true}},
		{"GNU ls -l", ListLong, "-rw-r--r-- 1 root root 10 Dec 31 23:59 old",
			want{name: "old", kind: KindFile, size: 10, time: date(2025, 12, 31, 23, 59, 0), prec: TimeMinute, parsed: true}},
		{"GNU ls -l", ListLong, "lrwxrwxrwx 1 root root 11 Jan  2 03:04 latest -> pub/v1.tar",
			want{name: "latest", kind: KindLink, size: 11, time: date(2026, 1, 2, 3, 4, 0), prec: TimeMinute, link: "pub/v1.tar", parsed: true}},
		{"GNU ls -l", ListLong, "crw-rw-rw- 1 root root 1, 3 Jan  2 03:04 null",
			want{name: "null", kind: KindOther, size: -1, time: date(2026, 1, 2, 3, 4, 0), prec: TimeMinute, parsed: true}},
		// Without a group column (some servers), and a name with leading
		// spaces after the one separating space.
		{"ls -l without group", ListLong, "-rw-r--r-- 1 owner 1234 Mar  5 10:00  spaced",
			want{name: " spaced", kind: KindFile, size: 1234, time: date(2026, 3, 5, 10, 0, 0), prec: TimeMinute, parsed: true}},
		{"GNU ls -l", ListLong, "total 12", want{skip: true}},
		{"GNU ls -l", ListLong, "drwxr-xr-x 2 root root 4096 Jan  2 03:04 .", want{skip: true}},

		// MS-DOS style, as IIS sends it.
		{"IIS (MS-DOS style)", ListLong, "11-24-26  09:57PM       <DIR>          docs",
			want{name: "docs", kind: KindDir, size: -1, time: date(2026, 11, 24, 21, 57, 0), prec: TimeMinute, parsed: true}},
		{"IIS (MS-DOS style)", ListLong, "11-24-26  09:57AM             51200 big.bin",
			want{name: "big.bin", kind: KindFile, size: 51200, time: date(2026, 11, 24, 9, 57, 0), prec: TimeMinute, parsed: true}},
		{"IIS (four-digit years)", ListLong, "02-04-1998  12:05AM  1,024 old name.txt",
			want{name: "old name.txt", kind: KindFile, size: 1024, time: date(1998, 2, 4, 0, 5, 0), prec: TimeMinute, parsed: true}},
		{"MS-DOS style, bad month", ListLong, "13-24-26  09:57PM  <DIR>  docs", want{size: -1}},

		// EPLF, D. J. Bernstein's description (cr.yp.to/ftp/list/eplf.html):
		// its two example lines.
		{"EPLF", ListLong, "+i8388621.29609,m824255902,/,\tdev",
			want{name: "dev", kind: KindDir, size: -1, time: time.Unix(824255902, 0).UTC(), prec: TimeSecond, parsed: true}},
		{"EPLF", ListLong, "+i8388621.44468,m839956783,r,s10376,\tRFCEPLF",
			want{name: "RFCEPLF", kind: KindFile, size: 10376, time: time.Unix(839956783, 0).UTC(), prec: TimeSecond, parsed: true}},
		{"EPLF (no tab)", ListLong, "+r,s10 name", want{size: -1}},

		// NLST (RFC 959 4.1.3): names only.
		{"RFC 959 4.1.3", ListNames, "hello.txt", want{name: "hello.txt", size: -1, parsed: true}},
		{"NLST with the argument's path", ListNames, "pub/hello.txt", want{name: "hello.txt", size: -1, parsed: true}},
		{"RFC 959 4.1.3", ListNames, "", want{skip: true}},

		// Lines in no known format are kept as text.
		{"unknown", ListLong, "Directory listing of /pub follows", want{size: -1}},
		{"unknown (VMS)", ListLong, "README.TXT;1     2/8   24-NOV-2026 21:57:00  [GROUP,OWNER]", want{size: -1}},
		{"ls -l without a name", ListLong, "-rw-r--r-- 1 a b 10 Jan  2 03:04", want{size: -1}},
	} {
		e, skip := ParseListLine(tc.f, tc.line, listNow)
		got := want{e.Name, e.Kind, e.Size, e.Time, e.Precision, e.Link, skip, e.Parsed}
		if skip {
			got = want{skip: true}
		}
		if got != tc.want {
			t.Errorf("%s: %s %q:\n got %+v\nwant %+v", tc.src, tc.f, tc.line, got, tc.want)
		}
		if e.Raw != strings.TrimRight(tc.line, "\r\n") {
			t.Errorf("%s: %q: Raw %q", tc.src, tc.line, e.Raw)
		}
	}
}

// RFC 3659 7.8 (a FEAT reply offering MLST) and vsftpd 3.0.3's, which does
// not.
func TestHasMLST(t *testing.T) {
	for _, tc := range []struct {
		feat string
		want bool
	}{
		{"Extensions supported:\n REST STREAM\n MDTM\n SIZE\n TVFS\n UTF8\n MLST Type*;Size*;Modify*;Perm*;Unique*;\nEnd", true},
		{"Features:\n EPRT\n EPSV\n MDTM\n PASV\n REST STREAM\n SIZE\n TVFS\nEnd", false},
		{"Features:\n mlst type*;\nEnd", true},
		{"Features:\n MLSTX\nEnd", false},
		{"", false},
	} {
		if got := HasMLST(tc.feat); got != tc.want {
			t.Errorf("HasMLST(%q) = %v", tc.feat, got)
		}
	}
}

// FuzzParseListLine: no line panics, and what comes back holds together:
// Raw is the line, an entry read has a name that is a part of the line, and
// a line not read has nothing but Raw.
func FuzzParseListLine(f *testing.F) {
	for _, s := range []string{
		"Type=file;Size=25730;Modify=19940728095854;Perm=; capmux.tar.z",
		"-rw-r--r--    1 ftp      ftp           256 Nov 24 23:08 all256.bin",
		"lrwxrwxrwx 1 root root 11 Jan  2 03:04 latest -> pub/v1.tar",
		"11-24-26  09:57PM       <DIR>          docs",
		"+i8388621.44468,m839956783,r,s10376,\tRFCEPLF",
		"total 12", "", "x",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
	}
	formats := []ListFormat{ListNames, ListFacts, ListLong}
	f.Fuzz(func(t *testing.T, line string, which uint8) {
		fm := formats[int(which)%len(formats)]
		e, skip := ParseListLine(fm, line, listNow)
		if e.Raw != strings.TrimRight(line, "\r\n") {
			t.Fatalf("Raw %q for %q", e.Raw, line)
		}
		if skip {
			return
		}
		if !e.Parsed {
			if e.Name != "" || e.Size != -1 || !e.Time.IsZero() || e.Kind != KindUnknown {
				t.Fatalf("an unread line carries fields: %+v", e)
			}
			return
		}
		if e.Name == "" || !strings.Contains(line, e.Name) {
			t.Fatalf("name %q is not in the line %q", e.Name, line)
		}
		if e.Size < -1 {
			t.Fatalf("size %d", e.Size)
		}
		if (e.Precision == TimeNone) != e.Time.IsZero() {
			t.Fatalf("time %v with precision %d", e.Time, e.Precision)
		}
	})
}

// MenuReader cuts a menu line's fields in place; the reference is the
// split it replaced (RFC 1436 3.8: type and display string, selector,
// host, port, then Gopher+'s fifth field).
func TestMenuReaderFields(t *testing.T) {
	for _, l := range []string{
		"0Doc\t/doc\th.example\t70", "1Menu\t/m\th\t70\t+", "1Six\ta\tb\tc\td\te", "iinfo only",
		"0two\tfields", "0three\ta\tb", "0trailing\ta\tb\t 70 \t", "3\t\t\t", "h\tURL:x\th\t70\t?\textra",
	} {
		it, err := NewMenuReader(strings.NewReader(l+"\r\n"), 0).Next()
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Split(l[1:], "\t")
		want := MenuItem{Type: 'i', Display: l}
		if len(f) >= 4 {
			want = MenuItem{Type: l[0], Display: f[0], Selector: f[1], Host: f[2], Port: strings.TrimSpace(f[3])}
			if len(f) > 4 {
				want.Plus = f[4]
			}
		}
		if it != want {
			t.Errorf("%q: %+v, want %+v", l, it, want)
		}
	}
}
