package site

import (
	"fmt"
	"io"
	"time"

	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// Generate builds the site in memory and returns its files sorted by path
// (for tests and tools; Build streams them to disk).
func Generate(cfg stage.Config) ([]outdir.File, error) {
	var m outdir.MemSink
	if _, err := generate(cfg.WithDefaults(), &m); err != nil {
		return nil, err
	}
	return m.Sorted(), nil
}

// Build generates the site into out, replacing the previous contents only
// when everything succeeded: the files go to a temporary folder beside
// out, under out's lock, as they are rendered, and the folder is swapped
// in at the end.
func Build(cfg stage.Config, out string, opt outdir.WriteOptions) error {
	start := time.Now()
	cfg = cfg.WithDefaults()
	// With the cache, the whole-build key: a rebuild with nothing changed
	// verifies the previous site and stops (unchanged.go).
	var gen, key string
	if cfg.Cache != nil {
		var err error
		if gen, err = generatorID(cfg); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		key = buildcache.SiteKey(cfg, gen)
	}
	o, err := outdir.LockOutput(out, opt)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		start := time.Now()
		if ok, rec := buildcache.UnchangedSite(cfg.Cache, key, o.Out); ok {
			// What killed writers left in the cache goes all the same
			// (TrimTo does it after a build that writes).
			if err := cfg.Cache.RemoveDebris(start); err != nil {
				o.Unlock()
				return fmt.Errorf("cache: %w", err)
			}
			if cfg.Warnings != nil {
				io.WriteString(cfg.Warnings, rec.Warnings)
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "build: nothing changed since the build the cache recorded: the %d files of %s verified, %d of them read, the others as the kernel described them when recorded (%.1f s)\n", len(rec.Files), out, rec.Read, time.Since(start).Seconds())
			}
			if err := o.Unlock(); err != nil {
				return fmt.Errorf("write: %w", err)
			}
			return nil
		}
	}
	if err := o.Begin(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	var tee *buildcache.TeeWarnings
	if key != "" {
		tee = &buildcache.TeeWarnings{W: cfg.Warnings}
		cfg.Warnings = tee
	}
	files, err := generate(cfg, o)
	if err != nil {
		o.Abort()
		return err
	}
	if err := o.Commit(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		if err := buildcache.RecordSite(cfg, cfg.Cache, gen, key, o.Out, files, tee.Buf.String(), o.PutFile); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	if cfg.Cache != nil {
		// The cache no larger than the site: what this build did not use
		// goes, least recently used first.
		var size int64
		for _, f := range files {
			size += f.Size
		}
		if err := cfg.Cache.TrimTo(size, start); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	return nil
}

// Stream builds the site and hands every file to put as soon as it is
// rendered, from several goroutines, in no particular order (for -verify,
// which compares each file with a published copy as it comes).
func Stream(cfg stage.Config, put func(path string, data []byte) error) error {
	_, err := generate(cfg.WithDefaults(), putFunc(put))
	return err
}

type putFunc func(path string, data []byte) error

func (f putFunc) Put(path string, data []byte) error { return f(path, data) }

// Config says where the inputs are (stage.Config, with its defaults).
type Config = stage.Config

// File is one output file.
type File = outdir.File

// WriteOptions are the output folder's options (outdir.WriteOptions).
type WriteOptions = outdir.WriteOptions

// Write replaces the folder out with files (outdir.Write).
func Write(out string, files []File) error { return outdir.Write(out, files) }
