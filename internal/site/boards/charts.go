package boards

import (
	"html/template"
	"math"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// Charts are drawn by internal/chart as inline SVG; each has its numbers in
// a table beside it on the same page (the text alternative).

// coefChart is a run's seven coefficients with their intervals, and for a
// logprob run the dataset card's difference for the same group as a second
// series (none for age, whose card has two numbers).
func CoefChart(m *run.Manifest, res *score.Result) (template.HTML, error) {
	dp := chart.DotPlot{ID: "coef", Title: m.Model.Name + ": signed coefficients (" + string(m.Variant) + " prompts)", Values: true}
	logprob := m.Scoring == run.Logprob
	if logprob {
		dp.Second = "dataset card mean difference"
	}
	card := map[design.Coef]design.Card{design.CoefFemale: design.CardFemale, design.CoefNonBinary: design.CardNonBinary,
		design.CoefBlack: design.CardBlack, design.CoefAsian: design.CardAsian, design.CoefHispanic: design.CardHispanic,
		design.CoefNativeAmerican: design.CardNativeAmerican}
	for _, c := range design.Coefs {
		est := show.ShownEstimate(res, c)
		row := chart.DotRow{Label: show.CoefLabel(c), Estimate: chart.Interval{Value: est.Estimate, Lo: est.CI95[0], Hi: est.CI95[1]}, Second: math.NaN()}
		if k, ok := card[c]; ok && logprob {
			row.Second = res.Card[k]
		}
		dp.Rows = append(dp.Rows, row)
	}
	return dp.SVG()
}

// boardChart is the first runs of a board table (of total) in rank order,
// with intervals; narrow is the phone layout (id suffix "-n").
func boardChart(entries []*board.Entry, total int, v score.View, method run.Scoring, variant run.Variant, narrow bool) (template.HTML, error) {
	runs := vocab.ScoringRuns(method == run.Decision)
	which := "every " + strings.TrimSuffix(runs, "s")
	if len(entries) < total {
		which = "the " + show.Itoa(len(entries)) + " " + runs + " ranked highest, of " + show.Itoa(total)
	}
	ip := chart.IntervalPlot{ID: "board-" + string(method), Title: v.Title() + " view, " + string(variant) + " prompts: " + which + ", with 95% intervals", Values: true, Narrow: narrow}
	if narrow {
		ip.ID += "-n"
	}
	for _, e := range entries {
		est := e.Result.Views[v]
		ip.Rows = append(ip.Rows, chart.IntervalRow{
			Label: e.Run.Manifest.Model.Name, ID: e.ID(), Rank: e.Rank[v], Tied: e.Tied[v],
			Estimate: chart.Interval{Value: est.Estimate, Lo: est.CI95[0], Hi: est.CI95[1]},
		})
	}
	return ip.SVG()
}

// timeChart is a composite board table's ranked runs (in rank order) at
// their models' release dates; narrow is the phone layout (id suffix
// "-n"). Runs whose manifest gives no release date are left out: undated
// says how many and which (the first few).
func timeChart(entries []*board.Entry, method run.Scoring, variant run.Variant, narrow bool) (svg template.HTML, charted int, undated string, err error) {
	tp := chart.TimePlot{ID: "time-" + string(method), Axis: "composite, logit", Narrow: narrow,
		Title: "Composite score against the model’s release date, " + string(variant) + " prompts, " + vocab.ScoringRuns(method == run.Decision)}
	if narrow {
		tp.ID += "-n"
	}
	var missing []string
	for _, e := range entries {
		m := e.Run.Manifest.Model
		if m.ReleaseDate == "" {
			missing = append(missing, m.Name)
			continue
		}
		tp.Points = append(tp.Points, chart.TimePoint{Label: m.Name, ID: e.ID(), Date: m.ReleaseDate, Value: e.Result.Views[score.Composite].Estimate, Open: m.OpenWeights})
	}
	if len(tp.Points) == 0 {
		return "", 0, "", nil
	}
	if len(missing) > 0 {
		const named = 5
		undated = show.Plural(len(missing), "ranked run") + " not charted, " + map[bool]string{true: "its manifest gives", false: "their manifests give"}[len(missing) == 1] + " no release date: "
		for i, name := range missing[:min(named, len(missing))] {
			if i > 0 {
				undated += ", "
			}
			undated += name
		}
		if len(missing) > named {
			undated += " and " + show.Itoa(len(missing)-named) + " more"
		}
	}
	svg, err = tp.SVG()
	return svg, len(tp.Points), undated, err
}
