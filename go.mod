module github.com/urlkit/urlkit

go 1.26.0

require (
	github.com/nlnwa/gowarc/v3 v3.1.0
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/net v0.59.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.18.0 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
)
