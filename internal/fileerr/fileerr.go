// Package fileerr is the error every loader and importer returns for bad
// input: it names the file and, where there is one, the line, so the
// README's "path:line: message" promise holds everywhere and tests can ask
// for the position instead of matching text.
package fileerr

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Error is a problem with one input file. Line is 1-based; 0 means the
// problem is with the file as a whole (a wrong hash, an empty file).
type Error struct {
	Path string
	Line int
	Err  error
}

// Error formats as "path:line: message", or "path: message" without a line.
func (e *Error) Error() string {
	if e.Line > 0 {
		return e.Path + ":" + strconv.Itoa(e.Line) + ": " + e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// New returns an error at path:line with a formatted message (%w wraps).
func New(path string, line int, format string, args ...any) error {
	return &Error{Path: path, Line: line, Err: fmt.Errorf(format, args...)}
}

// Wrap places err at path:line. An err that already names a file is
// returned unchanged, so a position is never given twice.
func Wrap(path string, line int, err error) error {
	if err == nil {
		return nil
	}
	var fe *Error
	if errors.As(err, &fe) {
		return err
	}
	return &Error{Path: path, Line: line, Err: err}
}

// Position reports the file and line an error names, if any.
func Position(err error) (path string, line int, ok bool) {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Path, fe.Line, true
	}
	return "", 0, false
}

// Annotation formats err as a GitHub Actions workflow command,
// "::error file=P,line=L::message", which a pull request shows on the line
// of its diff. The message is the "path:line: message" the build prints.
// An error that names no file is annotated without one; a path outside
// the working folder (absolute, or climbing out) cannot be placed in the
// repository and is given in the message only.
func Annotation(err error) string {
	var fe *Error
	msg := err.Error()
	props := "title=" + escapeProperty("Build failed")
	if errors.As(err, &fe) {
		msg = fe.Error()
		if p := filepath.ToSlash(filepath.Clean(fe.Path)); !filepath.IsAbs(fe.Path) && p != ".." && !strings.HasPrefix(p, "../") {
			props = "file=" + escapeProperty(p)
			if fe.Line > 0 {
				props += ",line=" + strconv.Itoa(fe.Line)
			}
			props += ",title=" + escapeProperty("Build failed")
		}
	}
	return "::error " + props + "::" + escapeData(msg)
}

// escapeData and escapeProperty escape as GitHub's actions/toolkit does
// (core's command.ts), so a message cannot end its command early or start
// another one on a new line.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
