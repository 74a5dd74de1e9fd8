package site

import (
	"fmt"
	"io"
	"time"
)

// Generate builds the site in memory and returns its files sorted by path
// (for tests and tools; Build streams them to disk).
func Generate(cfg Config) ([]File, error) {
	var m memSink
	if _, err := generate(cfg, &m); err != nil {
		return nil, err
	}
	return m.sorted(), nil
}

// Build generates the site into out, replacing the previous contents only
// when everything succeeded: the files go to a temporary folder beside
// out, under out's lock, as they are rendered, and the folder is swapped
// in at the end.
func Build(cfg Config, out string, opt WriteOptions) error {
	start := time.Now()
	// With the cache, the whole-build key: a rebuild with nothing changed
	// verifies the previous site and stops (unchanged.go).
	var gen, key string
	if cfg.Cache != nil {
		var err error
		if gen, err = generatorID(cfg.withDefaults()); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		key = siteKey(cfg.withDefaults(), gen)
	}
	o, err := lockOutput(out, opt)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		start := time.Now()
		if ok, rec := unchangedSite(cfg.Cache, key, o.out); ok {
			// What killed writers left in the cache goes all the same
			// (TrimTo does it after a build that writes).
			if err := cfg.Cache.RemoveDebris(start); err != nil {
				o.unlock()
				return fmt.Errorf("cache: %w", err)
			}
			if cfg.Warnings != nil {
				io.WriteString(cfg.Warnings, rec.Warnings)
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "build: nothing changed since the build the cache recorded: the %d files of %s verified, %d of them read, the others as the kernel described them when recorded (%.1f s)\n", len(rec.Files), out, rec.read, time.Since(start).Seconds())
			}
			if err := o.unlock(); err != nil {
				return fmt.Errorf("write: %w", err)
			}
			return nil
		}
	}
	if err := o.begin(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	var tee *teeWarnings
	if key != "" {
		tee = &teeWarnings{w: cfg.Warnings}
		cfg.Warnings = tee
	}
	files, err := generate(cfg, o)
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		if err := recordSite(cfg.withDefaults(), cfg.Cache, gen, key, o.out, files, tee.buf.String()); err != nil {
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
func Stream(cfg Config, put func(path string, data []byte) error) error {
	_, err := generate(cfg, putFunc(put))
	return err
}

type putFunc func(path string, data []byte) error

func (f putFunc) put(path string, data []byte) error { return f(path, data) }
