module github.com/urlkit/urlkit

go 1.24
