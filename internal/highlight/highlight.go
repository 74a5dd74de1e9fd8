// Package highlight colours YAML and JSON for the rubric and provenance
// pages with chroma, using CSS classes and a generated stylesheet (no
// inline styles), light and dark.
package highlight

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"reflect"
	"sync"
	"unsafe"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/discrimeval/leaderboard/internal/input"
)

var formatter = html.New(html.WithClasses(true), html.TabWidth(2))

// Highlight returns src as highlighted HTML in a <pre class="chroma">.
// The lexer's tokens keep every byte of src, and the formatter escapes
// them, so untrusted text (a manifest's notes, say) stays text. A bidi
// control (input.IsBidiControl), which would reorder the rest of its
// line and is invisible, is shown instead as its code point, "[U+202E]":
// a file shown as stored says what it holds.
func Highlight(lang string, src []byte) (template.HTML, error) {
	if bytes.ContainsFunc(src, input.IsBidiControl) {
		var buf bytes.Buffer
		for _, r := range string(src) {
			if input.IsBidiControl(r) {
				fmt.Fprintf(&buf, "[U+%04X]", r)
			} else {
				buf.WriteRune(r)
			}
		}
		src = buf.Bytes()
	}
	lexer := lexers.Get(lang)
	if lexer == nil {
		return "", fmt.Errorf("highlight: no lexer for %q", lang)
	}
	if err := untimed(lexer); err != nil {
		return "", fmt.Errorf("highlight %s: %w", lang, err)
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, string(src))
	if err != nil {
		return "", fmt.Errorf("highlight %s: %w", lang, err)
	}
	var buf bytes.Buffer
	if err := formatter.Format(&buf, styles.Get("github"), it); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

// CSS returns the stylesheet for Highlight's classes: the "github" style,
// and "github-dark" under prefers-color-scheme: dark.
func CSS() ([]byte, error) {
	var buf bytes.Buffer
	if err := formatter.WriteCSS(&buf, styles.Get("github")); err != nil {
		return nil, err
	}
	buf.WriteString("@media (prefers-color-scheme: dark) {\n")
	if err := formatter.WriteCSS(&buf, styles.Get("github-dark")); err != nil {
		return nil, err
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// Chroma gives every regular expression of a lexer a match timeout of 250
// ms of wall-clock time, and a match that times out is no match: the text
// is coloured as an error, a character at a time. On a busy machine (or
// under the race detector) a long JSON string took longer, and the page
// then depended on the machine's load. untimed lifts the timeout of each
// lexer's rules, once, before the lexer is first used; the texts
// highlighted are the site's own JSON and the runs' manifests, bounded by
// the input limits.
var (
	untimedMu sync.Mutex
	untimedOK = map[chroma.Lexer]error{}
)

func untimed(lexer chroma.Lexer) error {
	untimedMu.Lock()
	defer untimedMu.Unlock()
	if err, done := untimedOK[lexer]; done {
		return err
	}
	err := liftTimeouts(lexer)
	untimedOK[lexer] = err
	return err
}

func liftTimeouts(lexer chroma.Lexer) error {
	rl, ok := lexer.(*chroma.RegexLexer)
	if !ok {
		return fmt.Errorf("lexer %T is not a regular-expression lexer: cannot lift its match timeouts", lexer)
	}
	if _, err := rl.Rules(); err != nil { // compiles the rules
		return err
	}
	// The compiled rules are unexported (chroma v2.27.0's
	// RegexLexer.rules); a chroma without that field fails here, and
	// TestNoMatchTimeout with it.
	f := reflect.ValueOf(rl).Elem().FieldByName("rules")
	if !f.IsValid() || f.Type() != reflect.TypeFor[map[string][]*chroma.CompiledRule]() {
		return fmt.Errorf("chroma's RegexLexer has no field rules of compiled rules: cannot lift its match timeouts")
	}
	rules := *(*map[string][]*chroma.CompiledRule)(unsafe.Pointer(f.UnsafeAddr()))
	for _, state := range rules {
		for _, r := range state {
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = math.MaxInt64 // regexp2's "forever"
			}
		}
	}
	return nil
}

// matchTimeouts lists the match timeouts of a lexer's compiled rules (for
// the test).
func matchTimeouts(lexer chroma.Lexer) []int64 {
	f := reflect.ValueOf(lexer.(*chroma.RegexLexer)).Elem().FieldByName("rules")
	var out []int64
	for _, state := range *(*map[string][]*chroma.CompiledRule)(unsafe.Pointer(f.UnsafeAddr())) {
		for _, r := range state {
			if r.Regexp != nil {
				out = append(out, int64(r.Regexp.MatchTimeout))
			}
		}
	}
	return out
}
