package changes

import (
	"fmt"
	"path"
	"strconv"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// check lists what a reviewer of a new or changed run should know, from
// its data file: the build already refused a wrong sha256 or row count, so
// those say what was verified; the rest are the ranking rules of the
// methodology (board.MinMass, MinParsed, MaxMissing), the fit, and the
// claimed numbers against the recomputed ones.
func check(d *sitedata.Run) Checks {
	c := Checks{ID: d.ID, Model: d.Model.Name}
	add := func(k Check) { c.Items = append(c.Items, k) }

	files := Check{Name: "Frozen files", Status: Pass, Literal: true,
		Detail: fmt.Sprintf("sha256 and row count (%s) as the manifest states: the build verifies both", count(d.Quality.Rows))}
	for _, f := range d.Files {
		files.Lines = append(files.Lines, fmt.Sprintf("%s: sha256 %s, %s bytes", path.Base(f.Path), f.SHA256, count(int(f.Size))))
	}
	add(files)

	switch {
	case !d.Scored:
		add(Check{Name: "Scored", Status: Fail, Detail: "not scored: " + d.Reason})
	case d.Fit != nil:
		k := Check{Name: "Fit", Status: Pass, Detail: d.Fit.Method + ", converged"}
		if !d.Fit.Converged {
			k.Status, k.Detail = Fail, d.Fit.Method+", did not converge"
		}
		if d.Fit.Singular {
			k.Detail += "; singular (a random effect's variance at zero)"
		}
		add(k)
	}

	missing := max(0, design.NumPrompts-d.Quality.Rows)
	prompts := Check{Name: "Prompts", Status: Pass,
		Detail: fmt.Sprintf("%s of the dataset's %s (%d questions), %s missing; ranked runs may lack at most %s",
			count(d.Quality.Rows), count(design.NumPrompts), d.Quality.Questions, count(missing), percent(board.MaxMissing))}
	if float64(missing)/float64(design.NumPrompts) > board.MaxMissing {
		prompts.Status = Fail
	}
	add(prompts)

	switch {
	case run.Scoring(d.Scoring) == run.Logprob && d.Quality.MeanMass != nil:
		k := Check{Name: "Answer mass", Status: Pass, Detail: fmt.Sprintf("mean P(yes)+P(no) %s (lowest %s); ranked runs need a mean of at least %s",
			numfmt.Fixed(float64(*d.Quality.MeanMass), 4), numfmt.Fixed(float64(*d.Quality.MinMass), 4), numfmt.Fixed(board.MinMass, 2))}
		if float64(*d.Quality.MeanMass) < board.MinMass {
			k.Status = Fail
		}
		add(k)
	case run.Scoring(d.Scoring) == run.Decision && d.Quality.Decisions > 0:
		share := 1 - float64(d.Quality.Unparsed)/float64(d.Quality.Decisions)
		k := Check{Name: "Parsed answers", Status: Pass, Detail: fmt.Sprintf("%s%% of %s sampled answers are a yes or a no (%s unparsed); ranked runs need at least %s",
			numfmt.Fixed(100*share, 1), count(d.Quality.Decisions), count(d.Quality.Unparsed), percent(board.MinParsed))}
		if share < board.MinParsed {
			k.Status = Fail
		}
		add(k)
	}

	add(claims(d.Claims))

	sum := d.Summary()
	rk := Check{Name: "Ranking", Status: Pass, Detail: standing(d.Ranking, boardOf(&sum))}
	if d.Rank == nil {
		rk.Status = Note
	}
	add(rk)
	if d.Synthetic {
		add(Check{Name: "Synthetic", Status: Note, Detail: "marked synthetic: a demonstration run no real model produced"})
	}
	return c
}

// claims sets the claimed numbers beside the recomputed ones.
func claims(cs []sitedata.Claim) Check {
	k := Check{Name: "Claimed vs recomputed", Status: Note}
	if len(cs) == 0 {
		k.Detail = "the manifest claims no numbers"
		return k
	}
	n := map[score.Verdict]int{}
	for _, c := range cs {
		n[score.Verdict(c.Verdict)]++
		line := c.Metric + ": claimed " + numfmt.Signed(float64(c.Claimed), 4)
		if c.Recomputed != nil {
			line += ", recomputed " + numfmt.Signed(float64(*c.Recomputed), 4)
		}
		line += ": " + c.Verdict
		if c.Why != "" {
			line += " (" + c.Why + ")"
		}
		k.Lines = append(k.Lines, line)
	}
	switch {
	case n[score.Disagrees] > 0:
		k.Status = Fail
	case n[score.Agrees] > 0:
		k.Status = Pass
	}
	k.Detail = fmt.Sprintf("%d agree, %d disagree (tolerance %s logits), %d not compared", n[score.Agrees], n[score.Disagrees],
		numfmt.Decimal(score.ClaimTolerance), len(cs)-n[score.Agrees]-n[score.Disagrees])
	return k
}

// count writes a whole number with thousands separators: 9,450.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func percent(f float64) string { return numfmt.Fixed(100*f, 0) + "%" }
