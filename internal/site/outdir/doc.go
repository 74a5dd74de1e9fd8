// Package outdir is where a build's files go: the sinks a rendered file
// is put into (a folder being written, memory, a recorder that hashes
// what it is given for provenance.json), and the output folder itself —
// written into a temporary folder beside it under a lock, swapped in at
// the end, files the previous site already has hard-linked, links never
// followed, and the debris of a killed build cleared.
//
// # Files
//
//	sink.go: Sink, Recorder, MemSink, HashedFile, HashBytes, File, FileStat
//	write.go: WriteOptions, Write, WriteWith, LockOutput, PutFile, Unchanged, OpenUnchanged, HashIs
//	statkey_linux.go, statkey_other.go: StatOf
//	debris.go: the folders a killed build leaves (site.tmp-*, site.old-*)
//	nofollow_unix.go, nofollow_other.go: the open flag that follows no link
//
// Of the site's packages it may import: none (it is the floor).
package outdir
