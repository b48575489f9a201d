//go:build !race

package main

// raceEnabled says the race detector is on (it multiplies memory and time).
const raceEnabled = false
