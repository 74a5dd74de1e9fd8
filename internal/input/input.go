// Package input holds the limits on the generator's input files and the
// one way they are opened: regular files only (a named pipe would block
// the build, a device never ends), a size cap enforced while reading and
// never taken from the file's own word, and valid UTF-8.
//
// Symbolic links are followed only inside the input folder: the build
// opens its folders with os.OpenRoot (see Dir), which refuses links that
// lead outside, and absolute links, with "path escapes from parent"; the
// errors here say so in words.
package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// The limits, stated in CONTRIBUTING.md ("Limits and what the build
// refuses"). A real run (9,450 rows) is far below each of them: its scored file is about 10 MB with transcripts, 3 MB without.
const (
	// MaxScoredBytes is the decompressed size of one scored file.
	MaxScoredBytes = 1 << 30
	// MaxLineBytes is the length of one line of a scored file.
	MaxLineBytes = 8 << 20
	// MaxRows is the number of rows of one run (Discrim-Eval has 9,450
	// per variant).
	MaxRows = 100_000
	// MaxManifestBytes is the size of one manifest.yaml.
	MaxManifestBytes = 1 << 20
	// MaxTextBytes is the size of every other input: site.yaml, the
	// benchmark page, Markdown pages, METHODOLOGY.md and a previous
	// release's leaderboard.json.
	MaxTextBytes = 16 << 20
	// MaxLabelRunes is the length of a name or label the site shows on
	// many pages (a model's name, id and provider, an intervention, a
	// page or site title, a release label): each is repeated on every
	// page that lists it, so its length multiplies into the site's size.
	MaxLabelRunes = 200
	// MaxRuns is the number of runs one site builds. 2,000 tiny runs
	// (270 rows each) build in 105 s and 473 MB on two cores into a
	// 678 MB site; time grows faster than the runs (2.6 times per
	// doubling: creating the files of ever larger folders, and the pages
	// that span runs), and the site nears GitHub Pages' 1 GB.
	MaxRuns = 2000
	// MaxDescriptionRunes is the length of the site's description, in
	// every page's head.
	MaxDescriptionRunes = 1000
)

// Label checks a shown name's length: an error message (without the
// file) when s is longer than max characters.
func Label(field, s string, max int) error {
	if n := utf8.RuneCountInString(s); n > max {
		return fmt.Errorf("%s is %d characters long, over the limit of %d: it is repeated on every page that shows it, so its length multiplies into the site's size; shorten it (longer text belongs in notes or a page)", field, n, max)
	}
	return nil
}

// Size formats a byte limit for messages ("1 GiB", "8 MiB").
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Dir opens a folder so that symbolic links inside it are followed only
// when they stay inside it. close releases the folder.
func Dir(dir string) (fsys fs.FS, close func() error, err error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a folder (run from the repository root, or pass -content and -runs)", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", dir, err)
	}
	return root.FS(), root.Close, nil
}

// Stat describes name in fsys, with errors that name label (the path as the
// user knows it) and say what to do.
func Stat(fsys fs.FS, name, label string) (fs.FileInfo, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, Explain(label, err)
	}
	return st, nil
}

// Explain turns an error of opening label into a message that names it and
// says what to do; an error that already names a file is returned as is.
func Explain(label string, err error) error {
	if _, _, ok := fileerr.Position(err); ok {
		return err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileerr.New(label, 0, "%w", missing{})
	case strings.Contains(err.Error(), "path escapes from parent"):
		return fileerr.New(label, 0, "a symbolic link that leads outside the input folder (or an absolute link): links are followed only inside the folder; copy the file in instead")
	case errors.Is(err, fs.ErrInvalid):
		return fileerr.New(label, 0, "not a plain path inside the input folder")
	case errors.Is(err, fs.ErrPermission):
		return fileerr.New(label, 0, "permission denied: make it readable")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fileerr.New(label, 0, "%v", err)
}

// missing is "no such file", which errors.Is finds as fs.ErrNotExist.
type missing struct{}

func (missing) Error() string        { return "no such file" }
func (missing) Is(target error) bool { return target == fs.ErrNotExist }

// Regular checks that name is a regular file (after following links
// inside the folder) and returns its description.
func Regular(fsys fs.FS, name, label string) (fs.FileInfo, error) {
	st, err := Stat(fsys, name, label)
	if err != nil {
		return nil, err
	}
	if err := CheckMode(label, st.Mode()); err != nil {
		return nil, err
	}
	return st, nil
}

// CheckMode returns an error naming label unless m is a regular file's
// mode.
func CheckMode(label string, m fs.FileMode) error {
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fileerr.New(label, 0, "is a folder where a file is expected")
	case m&fs.ModeNamedPipe != 0:
		return fileerr.New(label, 0, "is a named pipe (FIFO), not a regular file: inputs must be plain files")
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return fileerr.New(label, 0, "is a device, not a regular file: inputs must be plain files")
	case m&fs.ModeSocket != 0:
		return fileerr.New(label, 0, "is a socket, not a regular file: inputs must be plain files")
	}
	return fileerr.New(label, 0, "is not a regular file (%v): inputs must be plain files", m.Type())
}

// Open opens a regular file. The mode is checked before opening, since
// opening a named pipe blocks until a writer comes, and again on the open
// file, in case it was replaced in between.
func Open(fsys fs.FS, name, label string) (fs.File, error) {
	if _, err := Regular(fsys, name, label); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, Explain(label, err)
	}
	st, err := f.Stat()
	if err == nil {
		err = CheckMode(label, st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, Explain(label, err)
	}
	return f, nil
}

// ReadFile reads a regular text file of at most max bytes that must be
// valid UTF-8. The limit is enforced while reading.
func ReadFile(fsys fs.FS, name, label string, max int64) ([]byte, error) {
	f, err := Open(fsys, name, label)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, Explain(label, err)
	}
	if int64(len(data)) > max {
		return nil, fileerr.New(label, 0, "larger than the limit of %s for this kind of file", Size(max))
	}
	if err := UTF8(label, 1, data); err != nil {
		return nil, err
	}
	return data, nil
}

// UTF8 reports the first invalid UTF-8 sequence in data, whose first line
// is line, as an error at its line and column.
func UTF8(label string, line int, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	before := data[:off]
	l := line + bytes.Count(before, []byte("\n"))
	col := off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fileerr.New(label, l, "invalid UTF-8 (byte 0x%02x at byte %d of the line): save the file as UTF-8", data[off], col)
}

// Passed reports whether name, an entry of an input folder that the build
// does not read, goes without a word: git's own files (.gitignore,
// .gitkeep, .gitattributes), and README.md, the notes GitHub shows to a
// person browsing the folder (content/releases has one). Every other file
// an input folder holds and the build does not read is named in a
// warning, a README.txt, a LICENSE or notes.md included.
func Passed(name string) bool {
	return name == ".gitignore" || name == ".gitkeep" || name == ".gitattributes" || name == "README.md"
}

// IsBidiControl reports the characters that embed, override or isolate
// the direction of the text after them (U+202A–U+202E, U+2066–U+2069):
// one in a name reorders whatever a page prints after the name, up to the
// end of its paragraph, unless the name is isolated, and nothing isolates
// it in an attribute, a page's title or the CSV. (The marks U+200E, U+200F
// and U+061C only set the direction of the characters beside them, and
// are not counted.)
func IsBidiControl(r rune) bool {
	return '\u202a' <= r && r <= '\u202e' || '\u2066' <= r && r <= '\u2069'
}

var bidiNames = map[rune]string{
	'\u202a': "LEFT-TO-RIGHT EMBEDDING", '\u202b': "RIGHT-TO-LEFT EMBEDDING", '\u202c': "POP DIRECTIONAL FORMATTING",
	'\u202d': "LEFT-TO-RIGHT OVERRIDE", '\u202e': "RIGHT-TO-LEFT OVERRIDE", '\u2066': "LEFT-TO-RIGHT ISOLATE",
	'\u2067': "RIGHT-TO-LEFT ISOLATE", '\u2068': "FIRST STRONG ISOLATE", '\u2069': "POP DIRECTIONAL ISOLATE",
}

// BidiName names a bidi control as Unicode does, after its code point
// ("U+202E RIGHT-TO-LEFT OVERRIDE").
func BidiName(r rune) string { return fmt.Sprintf("U+%04X %s", r, bidiNames[r]) }

// HasBidi reports whether s holds a bidi control (IsBidiControl), with a
// byte scan that rejects most text at once: each control is three bytes
// starting 0xE2.
func HasBidi(s string) bool {
	for i := strings.IndexByte(s, 0xe2); i >= 0; {
		if r, _ := utf8.DecodeRuneInString(s[i:]); IsBidiControl(r) {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xe2)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// StripBidi returns s without its bidi controls, and the first of them
// (0 when there is none, and s is returned as is).
func StripBidi(s string) (string, rune) {
	if !HasBidi(s) {
		return s, 0
	}
	var first rune
	out := strings.Map(func(r rune) rune {
		if IsBidiControl(r) {
			if first == 0 {
				first = r
			}
			return -1
		}
		return r
	}, s)
	return out, first
}

// NoBidi returns an error naming field when s holds a bidi control: the
// site's own settings and pages (site.yaml, a page's title, the benchmark
// page) are the publisher's, who writes them without.
func NoBidi(field, s string) error {
	for _, r := range s {
		if IsBidiControl(r) {
			return fmt.Errorf("%s holds the bidi control %s, which would reorder the site's own words after it on every page that shows it (and cannot be isolated in a page's title or an attribute): remove it (right-to-left letters need no control: pages isolate the text)", field, BidiName(r))
		}
	}
	return nil
}
