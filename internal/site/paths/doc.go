// Package paths makes every URL of the site: each page's path, the
// anchors other pages link to, and the relative link from one page to
// another. No other package writes a path of the site itself.
//
// # Files
//
//	paths.go: SitePaths, BoardPath, RunPath, ScenarioPath, ComparePath, RelPath, PagedPath, RunFiles
//
// Of the site's packages it may import: none (it is the floor).
package paths
