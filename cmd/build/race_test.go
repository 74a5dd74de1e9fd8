//go:build race

package main

// raceDetector is set when the tests run under the race detector (make
// race).
const raceDetector = true
