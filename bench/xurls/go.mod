module github.com/urlkit/urlkit/bench/xurls

go 1.26.0

replace github.com/urlkit/urlkit => ../..

require github.com/urlkit/urlkit v0.0.0-00010101000000-000000000000

require mvdan.cc/xurls/v2 v2.6.0

require (
	golang.org/x/net v0.59.0 // indirect
	golang.org/x/text v0.42.0 // indirect
)
