// Package templates embeds the site's html/template files, so the
// generator is a single self-contained program.
package templates

import "embed"

// FS holds the templates: layout.html and partials.html are shared, every
// other file is one page type.
//
//go:embed *.html
var FS embed.FS
