// Package static embeds the stylesheet and scripts copied (minified) into
// the site, and reproduce.py, copied as it is: the script that recomputes
// a built site's numbers from its own files with Python's standard
// library (assets/reproduce.py in the site; its first lines say how to
// run it).
package static

import "embed"

// FS holds the static assets.
//
//go:embed *.css *.js *.py
var FS embed.FS
