// Package stage is what the build's phases hand each other: the Config
// with its defaults (the one place for them), what the load phase read
// (Loaded) and what the runs and boards phases produced (Scored), with
// the types of the pairs they compare (Pair, VariantLink, VariantDiff).
//
// # Files
//
//	stage.go: Config, MoreRuns, Loaded, Scored, KeptCells, Pair, PairKey, VariantLink, VariantDiff, VariantDiffKey
//
// Of the site's packages it may import: grid, layout, render.
package stage
