package changes

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"
)

// The terminal text and Markdown of a report. The site's Changes page
// renders the same Report with html/template (templates/changes.html).
//
// Text from the inputs (model names, reasons, claimed metric names) comes
// from whoever submitted a run: control characters are replaced before it
// reaches a terminal or a CI log, and Markdown's own characters are
// escaped so it shows as written and makes no link, image or table cell.

// Legend explains the columns of the moves, in every output.
const Legend = "Scores as the boards show them (two decimals); a change is the difference of the displayed values. " +
	"“Beyond” marks a new score outside the run’s previous 95% interval: a change larger than the uncertainty of the old number. " +
	"“Only runs added or removed” marks a rank that moved although no run ranked in both builds changed places with it."

// maxFiles is how many paths of each file list a report prints.
const maxFiles = 20

// Title names the two builds compared.
func (r *Report) Title() string { return r.NewName + " against " + r.OldName }

// Symbol and Word show a status.
func (s Status) Symbol() string { return [...]string{"✓", "✗", "–"}[s] }
func (s Status) Word() string   { return [...]string{"ok", "FAIL", "note"}[s] }
func (s Status) emoji() string  { return [...]string{"✅", "❌", "ℹ️"}[s] }

// Class is the page's CSS class for a status.
func (s Status) Class() string { return [...]string{"better", "worse", "same"}[s] }

// FileSummary is the one-line count of the file-level differences: added
// and removed are files of the new build that the old one lacks, and the
// other way round.
func (r *Report) FileSummary() string {
	f := r.Files
	if f == nil {
		return ""
	}
	if f.Identical() {
		return fmt.Sprintf("%s files, all identical", count(f.Same))
	}
	return fmt.Sprintf("%s identical, %s changed, %s added, %s removed", count(f.Same), count(len(f.Changed)), count(len(f.Added)), count(len(f.Removed)))
}

type fileList struct {
	Title string
	Paths []string
	More  int
}

func (r *Report) fileLists() []fileList {
	if r.Files == nil {
		return nil
	}
	var out []fileList
	for _, l := range []struct {
		title string
		list  []string
	}{{"changed", r.Files.Changed}, {"added", r.Files.Added}, {"removed", r.Files.Removed}} {
		if len(l.list) == 0 {
			continue
		}
		fl := fileList{Title: l.title, Paths: l.list}
		if len(fl.Paths) > maxFiles {
			fl.Paths, fl.More = fl.Paths[:maxFiles], len(l.list)-maxFiles
		}
		out = append(out, fl)
	}
	return out
}

// RedefinedNote says why no scores are compared.
func (r *Report) RedefinedNote() string {
	return fmt.Sprintf("The views were redefined (definition %d; %s used definition %d), so scores and ranks are not comparable and no moves are listed.",
		r.NewViews, r.OldName, r.OldViews)
}

type runList struct {
	title string
	runs  []Run
}

func (r *Report) runLists() []runList {
	return []runList{{"Runs added", r.Added}, {"Runs removed", r.Removed}, {"Runs changed", r.Changed}}
}

func (x Run) describe() string {
	s := x.Model + " · " + x.Variant + " · " + x.Intervention + " · " + x.Scoring
	if x.Synthetic {
		s += " · synthetic"
	}
	return s
}

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	p.f("Changes: %s\n", clean(r.Title()))
	if r.Files != nil {
		p.f("Site files: %s\n", r.FileSummary())
		for _, l := range r.fileLists() {
			p.f("  %s:\n", l.Title)
			for _, f := range l.Paths {
				p.f("    %s\n", clean(f))
			}
			if l.More > 0 {
				p.f("    … and %d more\n", l.More)
			}
		}
	}
	for _, s := range r.runLists() {
		if len(s.runs) == 0 {
			p.f("\n%s: none\n", s.title)
			continue
		}
		p.f("\n%s (%d):\n", s.title, len(s.runs))
		for _, x := range s.runs {
			p.f("  %s  %s\n", x.ID, clean(x.describe()))
			p.f("      %s\n", clean(x.Standing))
			if len(x.Files) > 0 {
				p.f("      files changed: %s\n", clean(strings.Join(x.Files, ", ")))
			}
		}
	}
	p.f("\n")
	switch {
	case r.Redefined:
		p.f("%s\n", r.RedefinedNote())
	case len(r.Boards) == 0:
		p.f("Rank moves and score changes: none\n")
	default:
		p.f("Rank moves and score changes. %s\n", Legend)
	}
	for _, b := range r.Boards {
		p.f("\n%s (%s)\n", b.Title, b.ID)
		tw := tabwriter.NewWriter(p, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  view\trun\trank\tmove\tscore\tchange\tprevious interval\tbeyond\twhy the rank moved")
		for _, m := range b.Moves {
			fmt.Fprintf(tw, "  %s\t%s\t%s → %s\t%s\t%s → %s\t%s\t%s\t%s\t%s\n", m.View, m.ID, m.Then, m.Now, or(m.Move, none),
				m.Old, m.New, m.Change, m.Interval, m.BeyondWord(), or(clean(m.Cause), none))
		}
		tw.Flush()
	}
	for _, c := range r.Checks {
		p.f("\nChecks of %s (%s):\n", c.ID, clean(c.Model))
		for _, k := range c.Items {
			p.f("  %-4s  %s: %s\n", k.Status.Word(), k.Name, clean(k.Detail))
			for _, l := range k.Lines {
				p.f("          %s\n", clean(l))
			}
		}
	}
	return p.err
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a
// pull request's job summary.
func (r *Report) WriteMarkdown(w io.Writer) error {
	p := &printer{w: w}
	p.f("## Leaderboard changes: %s\n\n", md(r.Title()))
	if r.Files != nil {
		p.f("**Site files:** %s.\n\n", md(r.FileSummary()))
		if ls := r.fileLists(); len(ls) > 0 {
			p.f("<details><summary>Files that differ</summary>\n\n")
			for _, l := range ls {
				p.f("%s:\n\n", md(l.Title))
				for _, f := range l.Paths {
					p.f("- `%s`\n", code(f))
				}
				if l.More > 0 {
					p.f("- … and %d more\n", l.More)
				}
				p.f("\n")
			}
			p.f("</details>\n\n")
		}
	}
	for _, s := range r.runLists() {
		if len(s.runs) == 0 {
			p.f("### %s\n\nNone.\n\n", s.title)
			continue
		}
		p.f("### %s (%d)\n\n| Run | Model | Variant | Intervention | Scoring | Ranking |", s.title, len(s.runs))
		if s.title == "Runs changed" {
			p.f(" Files changed |")
		}
		p.f("\n|---|---|---|---|---|---|")
		if s.title == "Runs changed" {
			p.f("---|")
		}
		p.f("\n")
		for _, x := range s.runs {
			model := md(x.Model)
			if x.Synthetic {
				model += " (synthetic)"
			}
			p.f("| `%s` | %s | %s | %s | %s | %s |", code(x.ID), model, md(x.Variant), md(x.Intervention), md(x.Scoring), md(x.Standing))
			if s.title == "Runs changed" {
				p.f(" %s |", md(strings.Join(x.Files, ", ")))
			}
			p.f("\n")
		}
		p.f("\n")
	}
	p.f("### Rank moves and score changes\n\n")
	switch {
	case r.Redefined:
		p.f("%s\n\n", md(r.RedefinedNote()))
	case len(r.Boards) == 0:
		p.f("None.\n\n")
	default:
		p.f("%s\n\n", md(Legend))
	}
	for _, b := range r.Boards {
		p.f("#### %s\n\n| View | Run | Rank | Move | Score | Change | Previous 95%% interval | Beyond? | Why the rank moved |\n|---|---|---|---|---|---|---|---|---|\n", md(b.Title))
		for _, m := range b.Moves {
			beyond := m.BeyondWord()
			if m.Beyond {
				beyond = "**yes**"
			}
			p.f("| %s | %s `%s` | %s → %s | %s | %s → %s | %s | %s | %s | %s |\n", m.View, md(m.Model), code(m.ID), m.Then, m.Now, or(m.Move, none),
				m.Old, m.New, m.Change, m.Interval, beyond, or(md(m.Cause), none))
		}
		p.f("\n")
	}
	for _, c := range r.Checks {
		p.f("### Checks of `%s` (%s)\n\n| | Check | Result |\n|---|---|---|\n", code(c.ID), md(c.Model))
		for _, k := range c.Items {
			cell := md(k.Detail)
			for _, l := range k.Lines {
				if k.Literal {
					cell += "<br>`" + code(l) + "`"
				} else {
					cell += "<br>" + md(l)
				}
			}
			p.f("| %s | %s | %s |\n", k.Status.emoji(), md(k.Name), cell)
		}
		p.f("\n")
	}
	return p.err
}

// BeyondWord answers "beyond its interval?" where there is a change to
// judge.
func (m Move) BeyondWord() string {
	switch {
	case m.Beyond:
		return "yes"
	case m.Change == none || m.Interval == none:
		return none
	}
	return "no"
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// printer keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.w.Write(b)
	p.err = err
	return n, err
}

func (p *printer) f(format string, args ...any) { fmt.Fprintf(p, format, args...) }

// clean replaces control characters (a newline, an escape sequence) with
// U+FFFD, so input text stays on its line and cannot drive a terminal or
// start a workflow command in a CI log.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return '\uFFFD'
		}
		return r
	}, s)
}

// md escapes text for Markdown, so input text shows as written: the
// characters that make emphasis, code, links and images, HTML, a table
// cell's end or math are backslash-escaped or written as entities, and a
// URL is not turned into a link. The rest (parentheses, colons, full stops)
// is left as it is, so the Markdown stays readable as text.
func md(s string) string {
	var b strings.Builder
	for _, r := range clean(s) {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '@':
			b.WriteString("&#64;") // no @mention
		case '\\', '`', '*', '_', '[', ']', '|', '~', '$', '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	// GitHub links bare URLs (https://…, www.…): escaping a character of
	// them keeps them text.
	return strings.NewReplacer("://", ":\\/\\/", "www.", "www\\.").Replace(b.String())
}

// code prepares text for a Markdown code span: no backtick or bar can end
// it or the table cell.
func code(s string) string {
	return strings.NewReplacer("`", "'", "|", "¦").Replace(clean(s))
}
