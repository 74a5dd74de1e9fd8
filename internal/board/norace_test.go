//go:build !race

package board

// raceDetector is set when the tests run under the race detector (make
// race).
const raceDetector = false
