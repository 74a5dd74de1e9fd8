package importer

import (
	"path"
	"regexp"
	"strings"
)

// Local paths never reach a manifest: a path on the machine that ran the
// harness (a model's folder, a task's checkout, a data file) says nothing
// to the site's readers and may name a person's home. Harness output holds
// them where a name was wanted (lm-eval's pretrained=/data/llama, an
// Inspect task revision's origin when the checkout was cloned from a
// folder); the importers refuse them where the site needs a name (the
// model) and reduce them elsewhere (ScrubPaths).

// localPath matches a file-system path: absolute (/data/x, C:\x, \\host\x),
// in a home (~/x), relative to the working folder (./x, ../x), or a file:
// URL.
var localPath = regexp.MustCompile(`^(/[^/]|~/|\.\.?/|[A-Za-z]:[\\/]|\\\\|file:)`)

// LocalPath reports whether s is a local file-system path rather than a
// name or a URL: "/home/me/llama", "~/models/x", "./ckpt", "C:\models",
// "file:///srv/repo" are; "meta-llama/Llama-3-8B", "gpt-4o",
// "https://github.com/org/repo" and "git@github.com:org/repo" are not.
func LocalPath(s string) bool { return localPath.MatchString(strings.TrimSpace(s)) }

// pathInText matches a local path inside a text: one of LocalPath's forms
// after the start or a separator (space, quote, =, comma, bracket), up to
// the next separator. The "//" of a URL does not start one.
var pathInText = regexp.MustCompile("(^|[\\s\"'`=,:;(\\[{])((?:/|~/|\\.\\.?/|[A-Za-z]:\\\\|file:/)[^\\s\"'`,;)\\]}]*)")

// ScrubPaths reduces the local paths in a text to their last element,
// "…/NAME": "pretrained=/data/models/llama-3" becomes "pretrained=…/llama-3".
// URLs ("https://host/x": the path after "//" is the host's) are kept, and
// so is a "/" standing alone.
func ScrubPaths(s string) string {
	return pathInText.ReplaceAllStringFunc(s, func(m string) string {
		sub := pathInText.FindStringSubmatch(m)
		lead, p := sub[1], sub[2]
		if p == "/" || strings.HasPrefix(p, "//") {
			return m
		}
		base := path.Base(strings.ReplaceAll(strings.TrimRight(p, `/\`), `\`, "/"))
		return lead + "…/" + base
	})
}
