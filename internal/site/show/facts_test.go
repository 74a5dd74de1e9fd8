package show

import (
	"testing"

	"github.com/discrimeval/leaderboard/internal/run"
)

func TestFactsOf(t *testing.T) {
	for _, c := range []struct {
		m                    run.Model
		short, sentence, srt string
	}{
		{run.Model{OpenWeights: true, Parameters: "8030000000", License: "llama3.1", ReleaseDate: "2024-07-23"},
			"8.03B parameters · open weights · llama3.1 · released 2024-07-23",
			"8.03B parameters (8,030,000,000), open weights, licence llama3.1, released 2024-07-23", "8030000000"},
		{run.Model{Parameters: run.Undisclosed, License: "proprietary"},
			"parameter count undisclosed · closed weights · proprietary",
			"its maker does not disclose the parameter count, closed weights, licence proprietary, release date not stated", ""},
		{run.Model{OpenWeights: true}, "open weights",
			"parameter count not stated, open weights, licence not stated, release date not stated", ""},
	} {
		f := FactsOf(c.m)
		if Join(f.Short(), " · ") != c.short || Join(f.Sentence(), ", ") != c.sentence || f.SizeSort != c.srt {
			t.Errorf("%+v:\n short %q\n want  %q\n sentence %q\n want     %q\n sort %q, want %q", c.m, Join(f.Short(), " · "), c.short, Join(f.Sentence(), ", "), c.sentence, f.SizeSort, c.srt)
		}
	}
}
