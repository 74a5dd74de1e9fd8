package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
)

// loaders is Markdown with images and raw HTML that would load from
// another host, as any input may hold it.
const loaders = "![remote image](https://evil.example/md.png) ![proto](//evil.example/p.png) ![root](/r.png) ![data](data:image/png;base64,AAAA)\n\n" +
	`<img src="https://evil.example/raw.png"> <script src="https://evil.example/x.js"></script>` + "\n" +
	`<link rel="stylesheet" href="//evil.example/x.css"> <iframe src="https://evil.example/"></iframe>` + "\n" +
	`<video src="https://evil.example/v.mp4" poster="https://evil.example/p.png"><source src="https://evil.example/s.mp4"></video>` + "\n" +
	`<audio src="https://evil.example/a.mp3"></audio> <object data="https://evil.example/o"></object> <embed src="https://evil.example/e">` + "\n\n" +
	`<svg><image href="https://evil.example/i.png"/></svg>` + "\n\n" +
	`<div style="background:url(https://evil.example/bg.png)">styled</div>` + "\n\n" +
	`<style>@import "https://evil.example/i.css";</style>` + "\n\n" +
	"A [link](https://example.org/) and <https://example.org/auto> a reader may follow.\n"

// TestHostileSiteLoadsNothing builds a site whose every Markdown input (a
// content page, the benchmark body, METHODOLOGY.md and a run's notes)
// holds images and raw HTML pointing at another host, and crawls every
// page and stylesheet for a loading element or CSS url() that leaves the
// site. The images must be there as links, so the payload did reach the
// pages.
func TestHostileSiteLoadsNothing(t *testing.T) {
	// In parallel with the other tests that keep to the package's folder
	// (the others change the working directory, so run before).
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	content := filepath.Join(tmp, "content")
	if err := os.CopyFS(content, os.DirFS(filepath.Join(repo, "content"))); err != nil {
		t.Fatal(err)
	}
	write := func(p string, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(content, "pages", "hostile.md"), []byte("# Hostile\n\n"+loaders))
	bpath := filepath.Join(content, "benchmarks", "discrim_eval.json")
	braw, err := os.ReadFile(bpath)
	if err != nil {
		t.Fatal(err)
	}
	var bench map[string]any
	if err := json.Unmarshal(braw, &bench); err != nil {
		t.Fatal(err)
	}
	bench["body"] = bench["body"].(string) + "\n\n" + loaders
	braw, _ = json.Marshal(bench)
	write(bpath, braw)
	md, err := os.ReadFile(filepath.Join(repo, "METHODOLOGY.md"))
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(tmp, "METHODOLOGY.md"), append(md, "\n\n"+loaders...))
	// The run is the bad-input corpus's base run (270 rows): the payload
	// is in its notes, and no more of a run is needed to show them (a
	// committed run of 9,450 rows made the test cost five times as much:
	// 2.0 CPU-s, 11 under the race detector).
	runs := filepath.Join(tmp, "runs")
	const id = "demo"
	if err := os.CopyFS(filepath.Join(runs, id), os.DirFS(filepath.Join(badDir, "_base", "runs", id))); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(runs, id, "manifest.yaml")
	man, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	notes := "notes: |\n  " + strings.ReplaceAll(strings.TrimSpace(loaders), "\n", "\n  ") + "\n"
	man = regexp.MustCompile(`(?m)^notes: .*\n`).ReplaceAll(man, []byte(notes))
	if !bytes.Contains(man, []byte("evil.example")) {
		t.Fatal("the run's notes were not replaced")
	}
	write(mpath, man)

	out := filepath.Join(tmp, "site")
	var stdout, stderr bytes.Buffer
	err = run([]string{"-content", content, "-runs", runs, "-methodology", filepath.Join(tmp, "METHODOLOGY.md"), "-o", out}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	files := tree(t, out)
	for _, page := range []string{"pages/hostile.html", "benchmark.html", "methodology.html", "runs/" + id + "/index.html"} {
		if !strings.Contains(string(files[page]), "image: remote image") {
			t.Errorf("%s does not show the Markdown image as a link", page)
		}
	}
	for _, p := range crawl.External(files) {
		t.Error(p)
	}
	t.Logf("crawled %d files", len(files))
}
