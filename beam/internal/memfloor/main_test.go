package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: each measurement reports one cost a slice, and the sizes and
// modes it refuses are named.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, "8MiB", "4MiB", t.TempDir(), []string{"touch", "write", "reuse"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), out.String())
	}
	for i, mode := range []string{"touch", "write", "reuse"} {
		f := strings.Fields(lines[i])
		if f[0] != mode || len(f) < 3 || !strings.Contains(lines[i], "ns of CPU a byte") {
			t.Errorf("line %d = %q, want %s and two costs", i, lines[i], mode)
		}
	}
	for _, c := range []struct{ total, slice, mode, want string }{
		{"8MiB", "3MiB", "touch", "multiple of 2 MiB"},
		{"2MiB", "4MiB", "touch", "at least -slice"},
		{"8XiB", "4MiB", "touch", `"8XiB" is not a size`},
		{"8MiB", "4MiB", "swap", `"swap" is not touch`},
	} {
		err := run(&out, c.total, c.slice, t.TempDir(), []string{c.mode})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%s, %s, %s) = %v, want an error saying %q", c.total, c.slice, c.mode, err, c.want)
		}
	}
}

// TestReadDrop: an input file of reuse is removed once read, so that the
// disk holds -total bytes at most.
func TestReadDrop(t *testing.T) {
	name := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(name, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if err := readDrop(name, buf); err != nil {
		t.Fatal(err)
	}
	if string(buf) != "0123456789" {
		t.Errorf("read %q", buf)
	}
	if _, err := os.Stat(name); err == nil {
		t.Error("the input file is left after it was read")
	}
}
