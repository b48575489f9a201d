module github.com/urlkit/urlkit

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/net v0.59.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
)
