//go:build !unix

package site

// oNoFollow is not available: linkUnchanged's Lstat check stands alone.
const oNoFollow = 0
