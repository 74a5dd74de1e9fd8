//go:build race

package site

// raceDetector is set when the tests run under the race detector (make
// race), where a whole-site build costs ten times what it costs otherwise.
const raceDetector = true
