package gateway

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// Issue 22: an ftp directory page shows each entry's name (a directory
// with "/", linked with it), size in a person's units with the exact count
// on hover, date and kind, from MLSD where FEAT offers it (RFC 3659) and
// from LIST otherwise (an IIS and an EPLF line here); a line in no known
// format is kept as text, escaped.
func TestFTPDirectoryPage(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *hostile.FTP
		want []string
	}{
		{"MLSD", &hostile.FTP{Features: []string{"MLST type*;size*;modify*;"},
			MLSD: "type=cdir;modify=20261124215700; .\r\n" +
				"type=file;size=52428800;modify=20261124215700; big.bin\r\n" +
				"type=dir;modify=20261124215700; docs\r\n" +
				"type=file;size=3;modify=20261124215700; a <b>.txt\r\n"},
			[]string{
				`<a href="./big.bin">big.bin</a></td><td class="size" title="52,428,800 bytes">50.0 MiB</td><td>2026-11-24 21:57</td><td class="kind">file</td>`,
				`<a href="./docs/">docs/</a></td><td class="size"></td><td>2026-11-24 21:57</td><td class="kind">directory</td>`,
				`<a href="./a%20%3Cb%3E.txt">a &lt;b&gt;.txt</a></td><td class="size" title="3 bytes">3 B</td>`,
			}},
		{"LIST", &hostile.FTP{LIST: "11-24-26  09:57PM       <DIR>          docs\r\n" +
			"+i8388621.44468,m839956783,r,s10376,\tRFCEPLF\r\n" +
			"<script>alert(1)</script> not a listing line\r\n"},
			[]string{
				`<a href="./docs/">docs/</a></td><td class="size"></td><td>2026-11-24 21:57</td>`,
				`<a href="./RFCEPLF">RFCEPLF</a></td><td class="size" title="10,376 bytes">10.1 KiB</td><td>1996-08-13 17:19</td>`,
				`<td colspan="4" class="info">&lt;script&gt;alert(1)&lt;/script&gt; not a listing line</td>`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := hostile.Serve(t, tc.f.Serve)
			base := serve(t, New(allow(s.Addr)))
			resp, body := raw(t, base, "GET", "/ftp://"+s.Addr+"/pub/")
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %s:\n%s", w, body)
				}
			}
			if strings.Contains(body, "<script>") || strings.Contains(body, `href="./."`) {
				t.Errorf("page:\n%s", body)
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 51200: "50.0 KiB", 52428800: "50.0 MiB", 1 << 62: "4.0 EiB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := groupDigits(1234567); got != "1,234,567" {
		t.Errorf("groupDigits: %q", got)
	}
}
