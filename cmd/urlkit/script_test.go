package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the testscript sessions run urlkit as a program ("exec
// urlkit ..."), with real standard streams, exit statuses and files.
// With URLKIT_TEST_MAIN=1 the test binary is urlkit itself (getsafe_test.go
// runs it so).
func TestMain(m *testing.M) {
	if os.Getenv("URLKIT_TEST_MAIN") == "1" {
		main()
		return
	}
	testscript.Main(m, map[string]func(){
		"urlkit": func() {
			e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
			os.Exit(run(e, os.Args[1:]))
		},
	})
}

// TestScripts runs the terminal sessions in testdata/script, one file per
// command plus the behaviours every command shares (lines.txtar,
// interface.txtar, json.txtar). URLKIT_UPDATE_SCRIPTS=1 rewrites the
// files that a script's cmp compares with, for review in the diff.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("URLKIT_UPDATE_SCRIPTS") == "1",
		// [pty]: the machine can open a pseudo-terminal (ttyin needs one).
		Condition: func(cond string) (bool, error) {
			if cond != "pty" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			f, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
			if err != nil {
				return false, nil
			}
			f.Close()
			return true, nil
		},
	})
}
