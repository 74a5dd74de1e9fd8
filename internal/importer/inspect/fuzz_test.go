package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/importer"
)

// go test ./internal/importer/inspect -run '^$' -fuzz FuzzInspectSample -fuzztime 1m
//
// One sample as stored in a .eval member: decoded, gathered and turned
// into a run with a fixed header, or an error naming the member; never a
// panic, and never a run the loader would refuse (finish checks every row
// as the loader does).
func FuzzInspectSample(f *testing.F) {
	for _, name := range []string{"samples/1_epoch_1.json", "samples/135_epoch_1.json", "samples/200_epoch_1.json"} {
		f.Add(memberOf(f, evalLog, name))
	}
	f.Add(memberOf(f, "testdata/grafted/log_formats.eval", "samples/1_epoch_1.json"))
	f.Add(memberOf(f, "testdata/grafted/mmlu-summary-choices.eval", "samples/1_epoch_1.json"))
	var hdr header
	if err := decode("header.json", 1, memberOf(f, evalLog, "header.json"), &hdr); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		const where = "log.eval:samples/1_epoch_1.json"
		var s sample
		if err := decode(where, 1, b, &s); err != nil {
			if p, _, ok := fileerr.Position(err); !ok || p != where {
				t.Errorf("error without the member: %v", err)
			}
			return
		}
		bld := newBuilder("log.eval")
		if err := bld.add(importer.Position{Path: where, Line: 1, Label: s.label()}, &s); err != nil {
			if p, _, ok := fileerr.Position(err); !ok || p != where {
				t.Errorf("error without the member: %v", err)
			}
			return
		}
		h := hdr
		if _, err := bld.finish(&h, "0", Options{Intervention: "default"}); err != nil {
			if _, _, ok := fileerr.Position(err); !ok {
				t.Errorf("error without a file: %v", err)
			}
		}
	})
}

// go test ./internal/importer/inspect -run '^$' -fuzz FuzzInspectJSONLog -fuzztime 1m
//
// A whole .json log, streamed: an import or an error naming the file.
func FuzzInspectJSONLog(f *testing.F) {
	for _, p := range []string{"testdata/grafted/log_formats.json", "testdata/grafted/log_tool_call_error.json", "testdata/real/2025-05-12T20-28-13-04-00_no-samples.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"eval": {"task": "t", "model": "m/x", "created": "2025-01-01T00:00:00Z"}, "samples": [NaN]}`))
	path := filepath.Join(f.TempDir(), "log.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Import(path, "default")
		if err != nil {
			if p, _, ok := fileerr.Position(err); !ok || !strings.HasPrefix(p, path) {
				t.Errorf("error without the file: %v", err)
			}
			return
		}
		if len(res.Rows) == 0 {
			t.Error("a run without rows")
		}
	})
}
