// Package stage is what the build's phases hand each other, each value
// complete when its phase returns it: the Config with its defaults
// (WithDefaults, the one place for them, given once by the build's
// entry), what the load phase read (Loaded), what the runs phase scored
// (Runs) and what the boards phase ranked and compared (Ranked), with the
// types of the pairs they compare (Pair, VariantLink, VariantDiff).
//
// # Files
//
//	stage.go: Config, MoreRuns, Loaded, Runs, Ranked, KeptCells, Pair, PairKey, VariantLink, VariantDiff, VariantDiffKey
//
// Of the site's packages it may import: grid, layout, render.
package stage
