// Package highlight colours YAML and JSON for the rubric and provenance
// pages with chroma, using CSS classes and a generated stylesheet (no
// inline styles), light and dark.
package highlight

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

var formatter = html.New(html.WithClasses(true), html.TabWidth(2))

// Highlight returns src as highlighted HTML in a <pre class="chroma">.
// The lexer's tokens keep every byte of src, and the formatter escapes
// them, so untrusted text (a manifest's notes, say) stays text.
func Highlight(lang string, src []byte) (template.HTML, error) {
	lexer := lexers.Get(lang)
	if lexer == nil {
		return "", fmt.Errorf("highlight: no lexer for %q", lang)
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
