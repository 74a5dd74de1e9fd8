package crawl

import (
	"strings"
	"testing"
)

// TestExternalFindsEveryLoadingElement: each loading element and CSS url()
// pointing elsewhere is reported, and links a reader follows are not.
func TestExternalFindsEveryLoadingElement(t *testing.T) {
	loaders := []string{
		`<img src="https://evil.example/a.png">`,
		`<img srcset="ok.png 1x, //evil.example/b.png 2x">`,
		`<script src="http://evil.example/x.js"></script>`,
		`<link rel="stylesheet" href="//evil.example/x.css">`,
		`<iframe src="https://evil.example/"></iframe>`,
		`<video src="https://evil.example/v.mp4" poster="https://evil.example/p.png"></video>`,
		`<audio src="https://evil.example/a.mp3"></audio>`,
		`<video><source src="https://evil.example/s.mp4"></video>`,
		`<object data="https://evil.example/o.swf"></object>`,
		`<embed src="https://evil.example/e.swf">`,
		`<svg><image href="https://evil.example/i.png"/></svg>`,
		`<div style="background: url('https://evil.example/bg.png')"></div>`,
		`<style>@import "https://evil.example/i.css"; p { background: url(//evil.example/u.png) }</style>`,
		`<img src="/root-relative.png">`,
		`<img src="data:image/png;base64,AAAA">`,
	}
	want := []string{"a.png", "b.png", "x.js", "x.css", "evil.example/\"", "v.mp4", "p.png", "a.mp3", "s.mp4", "o.swf", "e.swf", "i.png", "bg.png", "i.css", "u.png", "root-relative", "data:image"}
	files := map[string][]byte{
		"page.html": []byte("<!doctype html><title>t</title>" + strings.Join(loaders, "\n") +
			`<a href="https://example.org/">a link is followed, not loaded</a><form action="https://example.org/"></form><img src="ok.png">`),
		"assets/site.css": []byte(`body { background: url("https://evil.example/css.png") } .ok { background: url(ok.png) }`),
	}
	got := strings.Join(External(files), "\n")
	for _, w := range append(want, "css.png") {
		if !strings.Contains(got, w) {
			t.Errorf("External missed %s:\n%s", w, got)
		}
	}
	for _, no := range []string{"example.org", "ok.png"} {
		if strings.Contains(got, no) {
			t.Errorf("External reports %s, which loads nothing from elsewhere:\n%s", no, got)
		}
	}
}
