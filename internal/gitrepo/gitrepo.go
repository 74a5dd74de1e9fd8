// Package gitrepo reads a git repository with the git command: its top
// folder, a commit's id, and a commit's files written into a folder
// (git archive, untarred refusing anything but regular files and folders
// inside it). build -diff builds another commit's site with it.
package gitrepo

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Top is the top folder of the repository around dir ("" for the
// working folder).
func Top(dir string) (string, error) {
	out, err := Git(dir, "rev-parse", "--show-toplevel")
	return strings.TrimSpace(out), err
}

// Commit is the id of the commit that rev names in the repository at top.
func Commit(top, rev string) (string, error) {
	out, err := Git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return strings.TrimSpace(out), err
}

// Extract writes the given paths of a commit into dir, from `git archive`.
// Only regular files and folders are written, at paths inside dir.
func Extract(repo, commit string, paths []string, dir string) error {
	cmd := exec.Command("git", append([]string{"-C", repo, "archive", "--format=tar", commit, "--"}, paths...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(out, dir)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return terr
}

// untar writes the regular files and folders of a tar stream into dir,
// refusing anything else and any path outside dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			continue // git's record of the commit id
		case tar.TypeDir, tar.TypeReg:
		default:
			return fmt.Errorf("%s: not a regular file or folder (only those are built)", h.Name)
		}
		if !fs.ValidPath(name) {
			return fmt.Errorf("%s: not a path inside the repository", h.Name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// Git runs a git command and returns its output.
func Git(dir string, args ...string) (string, error) {
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", err
	}
	return string(out), nil
}
