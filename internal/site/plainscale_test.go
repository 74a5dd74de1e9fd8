package site

import (
	"github.com/discrimeval/leaderboard/internal/site/show"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/vocab"
)

// TestPlainScaleMatchesScores: beside every score on every page, "odds
// ×F, up to N pp of P(yes)" is what the score as shown gives: F = e^score,
// N = vocab.PointsAtHalf(score), and "up to N points" is written nowhere.
func TestPlainScaleMatchesScores(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	scale := regexp.MustCompile(`(\d+\.\d\d)\s*odds ×(\d+\.\d\d)(?:, up to (\d+\.\d) pp of P\(yes\))?`)
	points := regexp.MustCompile(`\d points of P\(yes\)`)
	checked := 0
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		text := html.UnescapeString(stripTags(string(data), " "))
		if points.MatchString(text) {
			t.Errorf("%s: “points of P(yes)”: the unit is pp", name)
		}
		for _, m := range scale.FindAllStringSubmatch(text, -1) {
			g, _ := strconv.ParseFloat(m[1], 64)
			if want := show.Fixed(math.Exp(g), 2); m[2] != want {
				t.Errorf("%s: %q: odds ×%s, want ×%s", name, m[0], m[2], want)
			}
			if want := show.Fixed(vocab.PointsAtHalf(g), 1); m[3] != "" && m[3] != want {
				t.Errorf("%s: %q: up to %s pp, want %s", name, m[0], m[3], want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no score with its plain scale found")
	}
	t.Logf("%d scores checked", checked)
}
