// Package buildcache is what the build keeps in its cache beyond one
// run's pages: a scored run packed for the cache (CachedRun), and the
// whole-build key with the record of the site it built, so that a
// rebuild with nothing changed verifies the previous site and leaves it
// (SiteKey, UnchangedSite, RecordSite).
//
// # Files
//
//	cachepack.go: CachedRun, PackPrompts, UnpackPrompts, PackDeltas, EncodeGob, DecodeGob
//	unchanged.go: SiteRecord, SiteKey, UnchangedSite, RecordSite, DescribePut, FileStat, StatOf
//
// Of the site's packages it may import: grid, layout, outdir, render, stage.
package buildcache
