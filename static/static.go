// Package static embeds the stylesheet and scripts copied (minified) into
// the site.
package static

import "embed"

// FS holds the static assets.
//
//go:embed *.css *.js
var FS embed.FS
