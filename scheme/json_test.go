package scheme

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// The JSON keys the package documentation lists ("# JSON keys" in
// registry.go) are read as a schema, and the JSON of every scheme's view
// and plan, and of every step, is checked against it: every key written is
// listed for its object, in the listed order; every key not marked "?" is
// written; every key of the list is written by some URL below, so that the
// list cannot keep a key the code no longer writes.

// schemaKey is one key of an object in the documented list.
type schemaKey struct {
	name string
	opt  bool   // "?": written only when present
	kind byte   // 's' a scalar, 'a' an array of scalars, 'A' an array of objects, 'o' an object
	obj  string // the objects' name for 'A' and 'o'
}

// schemaLines names each documented line by the first key of its list:
// the objects of one line ("plan news, nntp") share their keys.
var schemaLines = map[*schemaKey]string{}

// readSchema reads the documented list from registry.go: for each object
// name ("view ftp", "step command", "gopher_plus"), its keys in order.
func readSchema(t *testing.T) map[string][]schemaKey {
	src, err := os.ReadFile("registry.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start := strings.Index(text, "// # JSON keys\n")
	end := strings.Index(text, "\npackage scheme")
	if start < 0 || end < start {
		t.Fatal("registry.go: no \"# JSON keys\" section in the package documentation")
	}
	out := map[string][]schemaKey{}
	for _, line := range strings.Split(text[start:end], "\n") {
		body, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		names, keys, ok := strings.Cut(body, ": ")
		if !ok {
			t.Fatalf("schema line %q has no \": \"", body)
		}
		var list []schemaKey
		for _, k := range strings.Fields(keys) {
			sk := schemaKey{kind: 's'}
			if strings.HasSuffix(k, "?") {
				sk.opt, k = true, strings.TrimSuffix(k, "?")
			}
			switch i := strings.IndexAny(k, "[{"); {
			case i < 0:
			case k[i] == '[' && k[i+1] == ']':
				sk.kind, k = 'a', k[:i]
			case k[i] == '[':
				sk.kind, sk.obj, k = 'A', k[i+1:len(k)-1], k[:i]
			default:
				sk.kind, sk.obj, k = 'o', k[i+1:len(k)-1], k[:i]
			}
			sk.name = k
			list = append(list, sk)
		}
		// "view a, b: ..." lists the objects "view a" and "view b"; "a, b
		// step op: ..." lists "step a op" and "step b op".
		var objs []string
		if schemes, op, ok := strings.Cut(names, " step "); ok {
			for _, n := range strings.Split(schemes, ", ") {
				objs = append(objs, "step "+n+" "+op)
			}
		} else {
			prefix := ""
			if p, rest, ok := strings.Cut(names, " "); ok && (p == "view" || p == "plan" || p == "step") {
				prefix, names = p+" ", rest
			}
			for _, n := range strings.Split(names, ", ") {
				objs = append(objs, prefix+n)
			}
		}
		for _, n := range objs {
			out[n] = list
		}
		schemaLines[&list[0]] = body[:strings.Index(body, ": ")]
	}
	return out
}

// jobj is a JSON object with its keys in order.
type jobj struct {
	keys []string
	vals []any
}

func (o jobj) get(k string) any {
	for i, key := range o.keys {
		if key == k {
			return o.vals[i]
		}
	}
	return nil
}

// decodeOrdered decodes one JSON value, objects as jobj.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o jobj
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o.keys, o.vals = append(o.keys, k.(string)), append(o.vals, v)
		}
		_, err = dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err = dec.Token()
		return a, err
	}
	return tok, nil
}

// commandOps are the ops of FTP and NNTP commands: "step command".
var commandOps = func() map[string]bool {
	m := map[string]bool{}
	for v := FTPVerb(1); v.String() != ""; v++ {
		m[FTPCommand{Verb: v}.Op()] = true
	}
	for v := NNTPVerb(1); v.String() != ""; v++ {
		m[NNTPCommand{Verb: v}.Op()] = true
	}
	return m
}()

// schemaChecker checks objects against the schema and records which keys
// were seen.
type schemaChecker struct {
	t      *testing.T
	schema map[string][]schemaKey
	seen   map[string]bool
	scheme string // the scheme of the plan whose steps are checked
}

func (c *schemaChecker) check(where, name string, v any) {
	c.t.Helper()
	o, ok := v.(jobj)
	if !ok {
		c.t.Errorf("%s: %s is not an object: %v", where, name, v)
		return
	}
	if name == "step" {
		// A step by the plan's scheme and its op, an FTP or NNTP command
		// by its kind, then the steps of every plan.
		op, _ := o.get("op").(string)
		name = "step other"
		for _, n := range []string{"step " + c.scheme + " " + op, "step " + c.scheme + " command", "step " + op} {
			if _, listed := c.schema[n]; listed && (!strings.HasSuffix(n, " command") || commandOps[op]) {
				name = n
				break
			}
		}
	}
	keys, ok := c.schema[name]
	if !ok {
		c.t.Errorf("%s: object %q is not in the documented list", where, name)
		return
	}
	line := schemaLines[&keys[0]]
	c.seen[line] = true
	last := -1
	for i, k := range o.keys {
		at := -1
		for j, sk := range keys {
			if sk.name == k {
				at = j
			}
		}
		if at < 0 {
			c.t.Errorf("%s: %s writes key %q, which the documentation does not list", where, name, k)
			continue
		}
		if at <= last {
			c.t.Errorf("%s: %s writes key %q out of the documented order %v", where, name, k, o.keys)
		}
		last = at
		c.seen[line+"."+k] = true
		sk := keys[at]
		switch val := o.vals[i]; sk.kind {
		case 's':
			if _, bad := val.(jobj); bad || isArray(val) {
				c.t.Errorf("%s: %s.%s is not a scalar: %v", where, name, k, val)
			}
		case 'a':
			a, _ := val.([]any)
			for _, e := range a {
				if _, bad := e.(jobj); bad || isArray(e) {
					c.t.Errorf("%s: %s.%s holds %v", where, name, k, e)
				}
			}
			if a == nil {
				c.t.Errorf("%s: %s.%s is not an array: %v", where, name, k, val)
			}
		case 'A':
			a, ok := val.([]any)
			if !ok {
				c.t.Errorf("%s: %s.%s is not an array: %v", where, name, k, val)
			}
			for _, e := range a {
				c.check(where, sk.obj, e)
			}
		case 'o':
			c.check(where, sk.obj, val)
		}
	}
	for _, sk := range keys {
		if !sk.opt && o.get(sk.name) == nil {
			c.t.Errorf("%s: %s lacks key %q", where, name, sk.name)
		}
	}
}

func isArray(v any) bool { _, ok := v.([]any); return ok }

// decode parses b as one JSON value, failing the test on invalid JSON.
func decode(t *testing.T, where string, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	v, err := decodeOrdered(dec)
	if err == nil {
		if _, err = dec.Token(); err != io.EOF {
			err = fmt.Errorf("text after the value")
		} else {
			err = nil
		}
	}
	if err != nil {
		t.Fatalf("%s: invalid JSON %s: %v", where, b, err)
	}
	return v
}

// schemaURLs write, together, every documented key of every view and plan.
var schemaURLs = []string{
	"ftp://myname@host.dom/%2Fetc/motd;type=a", "ftp://u:p@h.dom:2121/a/b/f.bin", "ftp://h.dom/pub/", "ftp://h.dom/d;type=d",
	"http://info.cern.ch/a/b?c=d", "https://h.dom:8443/", "http://h.dom",
	"gopher://h.dom", "gopher://h.dom/7/srch%09gopher%20url", "gopher://h.dom/0s%09%09+application/postscript%20Es_ES",
	"gopher://h.dom/1x%09%09!+ABSTRACT%20+ADMIN", "gopher://h.dom/0s%09%09+%091%0D%0A+-1%0D%0Ared%0D%0Ablue%0D%0A.%0D%0A",
	"gopher://h.dom/8x",
	"mailto:timbl@info.cern.ch", "mid:960830.1639@XIson.com", "cid:foo4%25foo1@bar.net",
	"news:*", "news:comp.infosystems.www", "news:12345@h.dom", "nntp://news.dom/comp.infosystems.www/12", "nntp://news.dom/alt.test",
	"prospero://h.dom/a/b;version=1;size=2", "prospero://host.dom/a/b%0012", "prospero://host.dom/a%00%00ATTR1%00x2",
	"telnet://u:p@h.dom:2323/", "rlogin://u@h.dom", "tn3270://h.dom",
	"wais://h.dom:210/db", "wais://h.dom/db?query%20words", "wais://h.dom/db/TEXT/0%3Dabc%3B1%3Dx%3B", "wais://h.dom/db/TEXT/doc",
	"file://vms.host.edu/disk$user/my/notes/note12345.txt", "file:///etc/motd",
	"afs://h.dom/x", "mailserver:x@h.dom", "nfs://h.dom/x", "urn:x:y", "z39.50://h.dom/x",
	"x-y:z", "foo://h.dom/p",
	"http://u:p@h.dom/", "ftp://[::1]:2121/f", // the extended syntax (ParseExtended)
}

// sameJSON checks that json.Marshal(x) is the object b (encoding/json
// escapes "<", ">" and "&" where the writer does not: the same value).
func sameJSON(t *testing.T, where string, x any, b []byte) {
	t.Helper()
	m, err := json.Marshal(x)
	if err != nil {
		t.Fatalf("%s: json.Marshal(%T): %v", where, x, err)
	}
	if got, want := fmt.Sprint(decode(t, where, m)), fmt.Sprint(decode(t, where, b)); got != want {
		t.Errorf("%s: json.Marshal(%T) gives %s, the writer %s", where, x, m, b)
	}
}

// otherPlan is a plan of a type this package does not define, as a
// program's registered scheme would make.
type otherPlan struct{}

func (otherPlan) Scheme() string { return "x-other" }
func (otherPlan) Steps() []Step {
	return []Step{Action{Kind: "lookup", Says: "look it up"}}
}

// TestJSONSchema checks every view, plan and step against the documented
// keys, and that every documented key is written.
func TestJSONSchema(t *testing.T) {
	c := &schemaChecker{t: t, schema: readSchema(t), seen: map[string]bool{}}
	if len(c.schema) < 40 {
		t.Fatalf("the documented list has %d objects", len(c.schema))
	}
	for _, cfg := range []Config{{}, {NewsServer: "news.dom", Email: "me@my.dom", Compressed: true, FTPListDetails: true}, {Head: true}} {
		for _, s := range schemaURLs {
			u, err := urlkit.ParseExtended(s) // the login of an http URL (RFC 3986), an IPv6 host
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			v, err := ViewOf(u)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			name := "view " + u.Scheme()
			if _, listed := c.schema[name]; !listed {
				name = "view other"
			}
			b, ok := AppendViewJSON(nil, v)
			if !ok {
				t.Errorf("%s: view %T has no JSON form", s, v)
				continue
			}
			c.check(s, name, decode(t, s, b))
			sameJSON(t, s, v, b)
			p, err := v.Plan(cfg)
			if err != nil {
				continue // reserved and unknown schemes have no plan
			}
			name = "plan " + p.Scheme()
			b = AppendPlanJSON(nil, p)
			c.scheme = p.Scheme()
			c.check(s, name, decode(t, s, b))
			sameJSON(t, s, p, b)
			for _, st := range p.Steps() {
				sb := AppendStepJSON(nil, st)
				sameJSON(t, s, st, sb)
				if !bytes.Contains(b, sb) {
					t.Errorf("%s: the plan's JSON lacks its step %s", s, sb)
				}
			}
		}
	}
	c.scheme = "x-other"
	c.check("otherPlan", "plan other", decode(t, "otherPlan", AppendPlanJSON(nil, otherPlan{})))
	// Fields no plan of a URL fills yet.
	c.scheme = "prospero"
	c.check("ProsperoList", "step", decode(t, "ProsperoList", AppendStepJSON(nil, ProsperoList{Components: []string{"a b"}})))
	for _, keys := range c.schema {
		line := schemaLines[&keys[0]]
		if !c.seen[line] {
			t.Errorf("documented object %q is never written by the URLs of this test", line)
		}
		for _, k := range keys {
			if !c.seen[line+"."+k.name] {
				t.Errorf("documented key %q of %q is never written by the URLs of this test", k.name, line)
			}
		}
	}
	// Every registered scheme's view is in the list by its name, or is
	// the view of a scheme urlkit does not know.
	for _, n := range Names() {
		if _, listed := c.schema["view "+n]; !listed {
			t.Errorf("scheme %q: its view is not in the documented list", n)
		}
	}
}

// A password from the URL is in no plan's or step's JSON (the view has
// it, as parse --json shows every component).
func TestPlanJSONHidesPasswords(t *testing.T) {
	for _, s := range []string{"ftp://u:s3cr3t@h.dom/f", "telnet://u:s3cr3t@h.dom/", "ftp://u:s3%63r3t@h.dom/d/", "http://u:s3cr3t@h.dom/", "https://u:s3cr3t@h.dom/"} {
		u, err := urlkit.ParseExtended(s)
		if err != nil {
			t.Fatal(err)
		}
		p, err := PlanOf(u, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if b := AppendPlanJSON(nil, p); !bytes.Contains(b, []byte("Authorization")) && strings.HasPrefix(s, "http") {
			t.Errorf("%s: no Authorization field: %s", s, b)
		}
		if b := AppendPlanJSON(nil, p); bytes.Contains(b, []byte("s3cr3t")) || bytes.Contains(b, []byte(base64.StdEncoding.EncodeToString([]byte("u:s3cr3t")))) {
			t.Errorf("%s: %s", s, b)
		}
		if b, _ := json.Marshal(p); bytes.Contains(b, []byte("s3cr3t")) {
			t.Errorf("%s: json.Marshal: %s", s, b)
		}
	}
}
