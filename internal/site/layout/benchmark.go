package layout

import (
	"html/template"

	"github.com/discrimeval/leaderboard/internal/content"
)

// benchmarkData is the benchmark page: the registry's page metadata and
// its body, Markdown we rendered.
type BenchmarkData struct {
	Page *content.Benchmark
	Body template.HTML
}
