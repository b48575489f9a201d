// Package xurls benchmarks text.Extract (github.com/urlkit/urlkit/text) beside mvdan.cc/xurls/v2 over
// the texts with URLs of the shared corpora. It is a module of its own so
// that the urlkit library keeps no dependency outside the standard
// library. Run it from this directory:
//
//	go test -bench . -benchmem
package xurls
