// Package a is go test's input in gotest's tests.
package a
