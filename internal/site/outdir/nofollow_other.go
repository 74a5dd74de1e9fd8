//go:build !unix

package outdir

// oNoFollow is not available: linkUnchanged's Lstat check stands alone.
const ONoFollow = 0
