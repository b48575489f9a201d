//go:build race

package gateway

// raceEnabled says the race detector is on (it multiplies memory and time).
const raceEnabled = true
