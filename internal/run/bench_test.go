package run_test

import (
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// BenchmarkLoad parses one frozen 9,450-row run (cmd/synth -n's first),
// checking its hash and every row, gzipped and not.
func BenchmarkLoad(b *testing.B) {
	d := synth.ScaleRuns(1)[0]
	rows, err := d.Rows(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, gz := range []bool{true, false} {
		name := "jsonl"
		if gz {
			name = "jsonl.gz"
		}
		b.Run(name, func(b *testing.B) {
			man, scored, err := run.Freeze(d.Manifest(), rows, gz)
			if err != nil {
				b.Fatal(err)
			}
			fsys := fstest.MapFS{"r/manifest.yaml": {Data: man}, "r/scored." + name: {Data: scored}}
			b.SetBytes(int64(len(scored)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := run.Load(fsys, "runs", "r")
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Cells) != len(rows) {
					b.Fatalf("%d cells, want %d", len(r.Cells), len(rows))
				}
			}
		})
	}
}
