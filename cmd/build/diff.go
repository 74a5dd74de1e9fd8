package main

// -diff: this build against another site, as the Changes page compares a
// release with the previous one (internal/changes), plus the file-level
// differences of -verify (internal/verify). A pull request's check posts
// its Markdown as the job summary.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/discrimeval/leaderboard/internal/changes"
	"github.com/discrimeval/leaderboard/internal/gitrepo"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/site"
	"github.com/discrimeval/leaderboard/internal/verify"
)

// diffReport compares the site cfg builds with other: a built site's
// folder, or a git commit whose inputs (the same paths as this build's)
// are built with this generator into a temporary folder. label names the
// other side in the report ("" for other itself).
func diffReport(cfg site.Config, in inputs, other, label string) (*changes.Report, error) {
	// A wrong argument fails before any build.
	dir := other
	var c *commit
	if st, err := os.Stat(other); err != nil || !st.IsDir() {
		if c, err = resolve(other, in); err != nil {
			return nil, err
		}
	}
	files, err := site.Generate(cfg)
	if err != nil {
		return nil, err
	}
	if c != nil {
		tmp, err := os.MkdirTemp("", "build-diff-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if dir, err = c.build(tmp); err != nil {
			return nil, err
		}
	}
	rebuilt := make(map[string][]byte, len(files))
	for _, f := range files {
		rebuilt[f.Path] = f.Data
	}
	// The other site is read as every input is: links only inside it,
	// regular files only, within their limits (internal/input).
	otherFS, closeOther, err := input.Dir(dir)
	if err != nil {
		return nil, otherSiteError{fmt.Errorf("-diff %s: %w", other, err)}
	}
	defer closeOther()
	fr, err := verify.Compare(rebuilt, otherFS, dir)
	if err != nil {
		return nil, otherSiteError{fmt.Errorf("-diff %s: %w", other, err)}
	}
	old, err := changes.ReadFS(otherFS, dir)
	if err != nil {
		return nil, otherSiteError{fmt.Errorf("-diff %s: %w", other, err)}
	}
	now, err := changes.ReadFiles(rebuilt)
	if err != nil {
		return nil, err
	}
	r := changes.Compare(old, now)
	r.Files = fr
	// The sides' release labels, when they tell them apart (a pull request
	// usually leaves the release as it is).
	r.NewName, r.OldName = "this build", or(label, other)
	if a, b := old.Release.Label, now.Release.Label; a != b {
		r.OldName += " (release " + a + ")"
		r.NewName += " (release " + b + ")"
	}
	return r, nil
}

// writeReport prints r in format.
func writeReport(w io.Writer, r *changes.Report, format string) error {
	if format == "markdown" {
		return r.WriteMarkdown(w)
	}
	return r.WriteText(w)
}

// otherSiteError is a failure to read the site -diff compares with,
// after this build succeeded.
type otherSiteError struct{ err error }

func (e otherSiteError) Error() string { return e.err.Error() }
func (e otherSiteError) Unwrap() error { return e.err }

// writeFailure says in a report that this build failed, or that the other
// site could not be read, so a pull request's summary shows why instead
// of nothing.
func writeFailure(w io.Writer, err error, format string) {
	if errors.As(err, new(otherSiteError)) {
		if format != "markdown" {
			fmt.Fprintf(w, "this build succeeded, but the other site cannot be read: %v\n", err)
			return
		}
		fmt.Fprintf(w, "## Leaderboard changes\n\n❌ **This build succeeded, but the other site cannot be read**, so there is nothing to compare:\n\n```\n%s\n```\n",
			strings.ReplaceAll(err.Error(), "```", "'''"))
		return
	}
	if format != "markdown" {
		fmt.Fprintf(w, "the site does not build: %v\n", err)
		return
	}
	fmt.Fprintf(w, "## Leaderboard changes\n\n❌ **The site does not build**, so there is nothing to compare:\n\n```\n%s\n```\n",
		strings.ReplaceAll(err.Error(), "```", "'''"))
}

// commit is a git commit whose inputs -diff builds: the same paths as
// this build's, relative to the repository.
type commit struct {
	rev, top, id string
	rel          inputs // slash-separated, in the repository
}

// resolve finds rev in the repository around the working folder, and this
// build's inputs in it.
func resolve(rev string, in inputs) (*commit, error) {
	top, err := gitrepo.Top("")
	if err != nil {
		return nil, fmt.Errorf("-diff %s: not a folder, and no git repository here to find a commit in (%v)", rev, err)
	}
	c := &commit{rev: rev, top: top}
	id, err := gitrepo.Commit(c.top, rev)
	if err != nil {
		return nil, fmt.Errorf("-diff %s: neither a folder nor a commit of %s", rev, c.top)
	}
	c.id = id
	for _, x := range []struct {
		p   string
		out *string
	}{{in.content, &c.rel.content}, {in.runs, &c.rel.runs}, {in.methodology, &c.rel.methodology}} {
		abs, err := filepath.Abs(x.p)
		if err != nil {
			return nil, err
		}
		// git names the repository by its real path.
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		r, err := filepath.Rel(c.top, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("-diff %s: %s is outside the repository %s", rev, x.p, c.top)
		}
		*x.out = filepath.ToSlash(r)
	}
	return c, nil
}

// build builds the commit's inputs with this generator into tmp/site and
// returns that folder.
func (c *commit) build(tmp string) (string, error) {
	src := filepath.Join(tmp, "src")
	if err := gitrepo.Extract(c.top, c.id, []string{c.rel.content, c.rel.runs, c.rel.methodology}, src); err != nil {
		return "", fmt.Errorf("-diff %s: %w", c.rev, err)
	}
	local := func(p string) string { return filepath.Join(src, filepath.FromSlash(p)) }
	short := c.id[:min(12, len(c.id))]
	cfg, closeInputs, err := config(inputs{local(c.rel.content), local(c.rel.runs), local(c.rel.methodology)},
		inputs{short + ":" + c.rel.content, short + ":" + c.rel.runs, short + ":" + c.rel.methodology})
	if err != nil {
		return "", fmt.Errorf("-diff %s: building commit %s: %w", c.rev, short, err)
	}
	defer closeInputs()
	files, err := site.Generate(cfg)
	if err != nil {
		return "", fmt.Errorf("-diff %s: building commit %s: %w", c.rev, short, err)
	}
	out := filepath.Join(tmp, "site")
	if err := site.Write(out, files); err != nil {
		return "", err
	}
	return out, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
