package crawl

import (
	"strings"
	"testing"
)

func TestSiteFindsProblems(t *testing.T) {
	files := map[string][]byte{
		"index.html": []byte(`<!DOCTYPE html><html><head><link rel="stylesheet" href="assets/a.css"><script src="https://cdn.example/x.js"></script></head>
<body><p id="a">x</p><p id="a">dup</p>
<a href="runs/r/index.html#age-60-male-white">ok</a>
<a href="runs/r/index.html#nope">bad fragment</a>
<a href="missing.html">missing</a>
<a href="runs/r/">folder</a>
<a href="/abs.html">root-relative</a>
<a href="https://example.org/">external ok</a>
<a href="#a">same page</a>
<a href="runs/r/index.html#cells?a=age-60-male-white&amp;b=x">a state of the page</a>
<a href="runs/r/gone.html#cells?a=x">a state of a missing page</a>
<a href="runs/r/index.html#a=one&amp;b=two">the whole state of the page</a>
<p>&amp;lt;script&amp;gt;</p></body></html>`),
		"assets/a.css":      []byte(`body{}`),
		"runs/r/index.html": []byte(`<p id="age-60-male-white">x</p><a href="../../index.html#a">back</a>`),
	}
	got := strings.Join(Site(files), "\n")
	for _, want := range []string{
		`index.html: duplicate id "a"`,
		`has no id "nope"`,
		`no such file missing.html`,
		`no such file runs/r/gone.html`,
		`links a folder`,
		`root-relative`,
		`<script src="https://cdn.example/x.js"> reaches outside the site`,
		`double-escaped text "&amp;lt;"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing problem %q in\n%s", want, got)
		}
	}
	for _, notWant := range []string{"example.org", `"#a"`, "assets/a.css", "age-60-male-white\"", "cells?a=age-60", "a=one"} {
		if strings.Contains(got, notWant) {
			t.Errorf("false alarm about %q in\n%s", notWant, got)
		}
	}
}
