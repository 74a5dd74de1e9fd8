// Package render turns a page into minified bytes: the templates, one
// set per page kind (ParseTemplates), the kinds a renderer is given
// (KindInfo: a kind's name, its data type, its template's frame), the
// renderer with its navigation and shared parts rendered once, the
// stencils of a kind whose pages are many and alike (Stencil), the pages kept in the build cache by their inputs (EmitMemo, EmitKeyed),
// the pool that renders queued pages in parallel, and the assets.
//
// # Files
//
//	render.go: Renderer, NewRenderer, ParseTemplates, NewMinifier, StaticFiles
//	kind.go: Kind, KindInfo, KindOf, KindName
//	pool.go: Pool, NewPool, Job, Parallel
//	stencil.go: Marks, Stencil, Cut, Fill, Filler, Stencils
//
// Of the site's packages it may import: layout, outdir, paths, show.
package render
