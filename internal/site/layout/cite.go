package layout

import (
	"strings"
)

// citation is how to cite a release of the leaderboard: the release's
// label and date, the generator's version and the source repository, as
// BibTeX and as plain text, the site's title (Title, shown isolated from
// the words after it) then the rest (Plain). The date is the release's
// (site.yaml), never the clock's.
type citation struct{ BibTeX, Title, Plain string }

func Cite(title string, rel ReleaseInfo, version, repo string) citation {
	year := rel.Date
	if len(year) >= 4 {
		year = year[:4]
	}
	key := "discrimeval-leaderboard-" + strings.NewReplacer(".", "-", " ", "-").Replace(rel.Label)
	if version == "" {
		version = "unknown"
	}
	note := "Release " + rel.Label + ", generator " + version + "; every score recomputed from per-prompt data. Dataset: Tamkin et al., Evaluating and Mitigating Discrimination in Language Model Decisions (Anthropic, 2023), CC BY 4.0"
	var b strings.Builder
	b.WriteString("@misc{" + key + ",\n")
	b.WriteString("  title        = {{" + bibEscape(title) + "}},\n")
	b.WriteString("  year         = {" + year + "},\n")
	b.WriteString("  date         = {" + rel.Date + "},\n")
	b.WriteString("  version      = {" + bibEscape(rel.Label) + "},\n")
	if repo != "" {
		b.WriteString("  howpublished = {\\url{" + repo + "}},\n")
	}
	b.WriteString("  note         = {" + bibEscape(note) + "}\n}")
	plain := ", release " + rel.Label + " (" + rel.Date + "), generator " + version + "."
	if repo != "" {
		plain += " " + repo + "."
	}
	return citation{BibTeX: b.String(), Title: title, Plain: plain}
}

// bibEscape escapes the characters BibTeX treats specially.
func bibEscape(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`, "%", `\%`, "&", `\&`, "#", `\#`, "_", `\_`, "$", `\$`).Replace(s)
}
