// Package content reads the site's own content: site settings, the
// registry's benchmark page and Markdown pages.
package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// BenchmarkFile is the registry's benchmark-page document. Unknown fields
// are tolerated: the registry adds fields over time.
type BenchmarkFile struct {
	Body string    `json:"body"`
	Page Benchmark `json:"page"`
}

// Benchmark is the page metadata the site shows.
type Benchmark struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	Summary       string        `json:"summary"`
	Measures      string        `json:"measures"`
	TaskFormat    string        `json:"task_format"`
	Category      string        `json:"category"`
	Tags          []string      `json:"tags"`
	Released      string        `json:"released"`
	LastUpdated   string        `json:"last_updated"`
	Metric        Metric        `json:"metric"`
	Dataset       Dataset       `json:"dataset"`
	Paper         Paper         `json:"paper"`
	Publisher     Publisher     `json:"publisher"`
	Harness       Harness       `json:"harness"`
	Contamination Contamination `json:"contamination"`
	Saturation    Saturation    `json:"saturation"`
	Sources       []Source      `json:"sources"`
	Freshness     Freshness     `json:"freshness"`
}

// Freshness says when the registry researched its record.
type Freshness struct {
	Researched string `json:"researched"`
}

// Direction is which way the registry's metric is better, as it writes it
// ("lower_is_better").
type Direction string

// Words is the direction as a page says it.
func (d Direction) Words() string {
	switch d {
	case "lower_is_better":
		return "lower is better"
	case "higher_is_better":
		return "higher is better"
	}
	return string(d)
}

type Metric struct {
	Name           string    `json:"name"`
	Direction      Direction `json:"direction"`
	Unit           string    `json:"unit"`
	BaselineNote   string    `json:"baseline_note"`
	RandomBaseline *float64  `json:"random_baseline"`
}

type Dataset struct {
	URL           string   `json:"url"`
	License       string   `json:"license"`
	Size          int      `json:"size"`
	SizeNote      string   `json:"size_note"`
	Splits        string   `json:"splits"`
	Languages     []string `json:"languages"`
	PublicTestSet bool     `json:"public_test_set"`
}

type Paper struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Arxiv string `json:"arxiv"`
	Year  int    `json:"year"`
}

type Publisher struct {
	Org     string   `json:"org"`
	URL     string   `json:"url"`
	Authors []string `json:"authors"`
}

// Harness maps harness names to how they implement the benchmark; empty
// strings mean "not implemented there".
type Harness map[string]string

type Contamination struct {
	Risk string `json:"risk"`
	Note string `json:"note"`
}

type Saturation struct {
	Status string `json:"status"`
	Note   string `json:"note"`
	AsOf   string `json:"as_of"`
}

type Source struct {
	Title    string `json:"title"`
	URL      string `json:"url"`
	Accessed string `json:"accessed"`
}

// ParseBenchmark decodes a benchmark page; name is used in errors, which
// carry the line of the offending value.
func ParseBenchmark(name string, data []byte) (*BenchmarkFile, error) {
	var f BenchmarkFile
	if err := input.UTF8(name, 1, data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, fileerr.New(name, jsonErrLine(data, err), "%s", jsonErrText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fileerr.New(name, lineAt(data, dec.InputOffset()), "unexpected data after the JSON object")
	}
	if err := input.DuplicateKey(name, data); err != nil {
		return nil, err
	}
	p := &f.Page
	for _, req := range []struct{ path, val string }{
		{"body", f.Body},
		{"page.id", p.ID},
		{"page.name", p.Name},
		{"page.summary", p.Summary},
		{"page.measures", p.Measures},
		{"page.metric.name", p.Metric.Name},
		{"page.metric.direction", string(p.Metric.Direction)},
		{"page.metric.unit", p.Metric.Unit},
		{"page.dataset.url", p.Dataset.URL},
		{"page.dataset.license", p.Dataset.License},
		{"page.paper.title", p.Paper.Title},
		{"page.paper.url", p.Paper.URL},
		{"page.publisher.org", p.Publisher.Org},
	} {
		if strings.TrimSpace(req.val) == "" {
			return nil, fileerr.New(name, keyLine(data, req.path), "missing required field %s", req.path)
		}
		if req.path != "body" {
			if err := input.NoBidi(req.path, req.val); err != nil {
				return nil, fileerr.New(name, keyLine(data, req.path), "%v", err)
			}
		}
	}
	if len(p.Sources) == 0 {
		return nil, fileerr.New(name, keyLine(data, "page.sources"), "missing required field page.sources")
	}
	for i, s := range p.Sources {
		if s.Title == "" || s.URL == "" {
			return nil, fileerr.New(name, keyLine(data, "page.sources"), "page.sources[%d] needs a title and a url", i)
		}
	}
	return &f, nil
}

func jsonErrText(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the JSON ends early (a truncated file)"
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %s: %s value where %s is expected", te.Field, te.Value, te.Type)
	}
	return err.Error()
}

func jsonErrLine(data []byte, err error) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return lineAt(data, se.Offset)
	case errors.As(err, &te):
		return lineAt(data, te.Offset)
	}
	return lineAt(data, int64(len(data)))
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// keyLine finds the line of the deepest key that exists along a dotted
// path (so a missing field points at its parent); line 1 when none does.
func keyLine(data []byte, path string) int {
	type frame struct {
		name      string // the key this object or array is the value of
		object    bool
		expectKey bool
		lastKey   string
	}
	want := strings.Split(path, ".")
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []*frame
	best := 1
	for {
		tok, err := dec.Token()
		if err != nil {
			return best
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				name := ""
				if top != nil && top.object {
					name = top.lastKey
				}
				stack = append(stack, &frame{name: name, object: d == '{', expectKey: d == '{'})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].expectKey = true
				}
			}
			continue
		}
		if top == nil || !top.object {
			continue
		}
		if !top.expectKey {
			top.expectKey = true // that was a value
			continue
		}
		key, _ := tok.(string)
		top.lastKey, top.expectKey = key, false
		var keyPath []string
		for _, f := range stack[1:] {
			keyPath = append(keyPath, f.name)
		}
		keyPath = append(keyPath, key)
		if len(keyPath) <= len(want) && slices.Equal(keyPath, want[:len(keyPath)]) {
			best = lineAt(data, dec.InputOffset())
		}
	}
}
