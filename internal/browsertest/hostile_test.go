package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/run"
)

// pwnParts are what a hostile model output or a poisoned dataset row might hold:
// a script, an event handler, javascript: links (as HTML and as Markdown),
// closing tags of the elements that show text, and template syntax. Every
// piece sets window.__pwned or opens a dialog if it ever runs.
var pwnParts = []string{
	`<script>window.__pwned=1;alert("script")</script>` +
		`<img src=x onerror="window.__pwned=1;alert('img')">`,
	`<a href="javascript:window.__pwned=1">a javascript: link</a> [markdown link](javascript:window.__pwned=1) `,
	`</pre></textarea></code><svg onload="window.__pwned=1"></svg><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe> ` +
		`{{.Site}} {{template "main" .}}`,
}

// pwn is all of them at once, for the texts without a length limit
// (prompts, answers); a shown name is at most input.MaxLabelRunes long, so
// the names get one part each.
var pwn = strings.Join(pwnParts, "")

// hostileSite builds a site from a runs folder holding one run whose
// transcripts, prompt texts, manifest and notes are made of pwn, and
// returns the folder and the question whose transcripts are hostile.
func hostileSite(t *testing.T) (dir string, q int) {
	t.Helper()
	rows, err := run.ReadRows(filepath.Join(repo, "testdata", "complete-seed7.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	q = *rows[0].DecisionQuestionID
	for i := 0; i < 3; i++ {
		if *rows[i].DecisionQuestionID != q {
			t.Fatalf("the reference rows do not start with three rows of one question")
		}
		rows[i].Messages = []run.Message{
			{Role: "system", Content: pwn},
			{Role: "user", Content: rows[i].FilledTemplate + "\n" + pwn},
			{Role: "assistant", Content: pwn},
		}
		rows[i].Response = pwn
		rows[i].Prompt = pwn + rows[i].FilledTemplate
	}
	rows[1].FilledTemplate = pwn + "\n" + rows[1].FilledTemplate

	m := &run.Manifest{
		Model: run.Model{Name: "Hostile " + pwnParts[0], ID: "test/hostile", Provider: pwnParts[1], OpenWeights: true,
			URL: "javascript:window.__pwned=1"},
		Benchmark:        "discrim_eval",
		Variant:          run.Explicit,
		Intervention:     "default",
		InterventionText: pwn,
		Scoring:          run.Logprob,
		Choices:          run.DefaultChoices,
		PromptTemplate:   pwn + "{filled_template}",
		Harness:          run.Harness{Name: pwnParts[2], Version: "1"},
		Dataset:          run.Dataset{Name: "synthetic"},
		RunDate:          "2026-01-01",
		Notes:            "Notes: " + pwn + "\n\n<script>window.__pwned=1</script>\n\n[click](javascript:window.__pwned=1)",
		Synthetic:        true,
	}
	tmp := t.TempDir()
	runs := filepath.Join(tmp, "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := run.WriteDir(filepath.Join(runs, "hostile"), m, rows, true, false); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(tmp, "site")
	if err := BuildSite(repo, os.DirFS(runs), dir); err != nil {
		t.Fatal(err)
	}
	return dir, q
}

// TestHostileTranscriptRunsNothing opens the pages that show the hostile
// run's texts and requires that nothing ran: window.__pwned is undefined,
// no dialog opened, no element carries an event handler or a javascript:
// link, the only scripts are the site's own, and the hostile text is shown
// as text.
func TestHostileTranscriptRunsNothing(t *testing.T) {
	t.Parallel()
	browser(t) // skip before building when there is no chromium
	dir, q := hostileSite(t)
	qs := "q" + strconv.Itoa(q)
	tb := newTab(t, 1280, 900, "light")
	for _, page := range []string{
		"runs/hostile/" + qs + "-transcripts.html",
		"prompts/explicit/" + qs + ".html",
		"runs/hostile/" + qs + ".html",
		"runs/hostile/index.html",
		"compare/explicit/" + qs + ".html",
		"index.html",
		"pair.html#a=hostile",
		"search.html#q=hostile",
	} {
		file, _, _ := strings.Cut(page, "#")
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
			t.Errorf("%s was not built: %v", page, err)
			continue
		}
		tb.open(dir, page)
		// Once any onerror or onload has fired.
		got := eval[map[string]any](tb, imagesSettled+`.then(() => new Promise(r => setTimeout(() => r({
			pwned: typeof window.__pwned,
			handlers: Array.from(document.querySelectorAll("*")).flatMap(e => Array.from(e.attributes).filter(a => /^on/i.test(a.name)).map(a => e.tagName + " " + a.name)),
			jsLinks: Array.from(document.querySelectorAll("[href], [src], [action], [formaction], [srcdoc]")).filter(e => /^\s*javascript:/i.test(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action") || "") || e.hasAttribute("srcdoc")).map(e => e.outerHTML.slice(0, 80)),
			scripts: Array.from(document.scripts).map(s => s.getAttribute("src") || (s.type === "application/json" ? "json: " : "inline: ") + s.textContent.slice(0, 60)),
			frames: document.querySelectorAll("iframe, object, embed, svg[onload]").length,
			text: document.body.innerText,
		}), 0)))`)
		if got["pwned"] != "undefined" {
			t.Errorf("%s: window.__pwned is %v: a hostile text ran", page, got["pwned"])
		}
		for _, k := range []string{"handlers", "jsLinks"} {
			if l, _ := got[k].([]any); len(l) > 0 {
				t.Errorf("%s: %s: %v", page, k, l)
			}
		}
		for _, s := range got["scripts"].([]any) {
			src, _ := s.(string)
			switch {
			case strings.Contains(src, "assets/") && strings.HasSuffix(src, ".js"):
				// The site's own code.
			case strings.HasPrefix(src, "json: "):
				// Data the browser does not run (type application/json).
			case dataScript.MatchString(src):
				// A data file the site writes from the run's texts: it
				// must be assignments of JSON, one a line, nothing else.
				checkDataScript(t, filepath.Join(dir, filepath.FromSlash(path.Join(path.Dir(file), src))))
			default:
				t.Errorf("%s: a script that is not the site's: %v", page, s)
			}
		}
		if n, _ := got["frames"].(float64); n > 0 {
			t.Errorf("%s: %v embedded frames or objects", page, n)
		}
		showsText := strings.HasSuffix(page, "-transcripts.html") || strings.HasPrefix(page, "prompts/")
		text, _ := got["text"].(string)
		if showsText && (!strings.Contains(text, `<script>window.__pwned=1;alert("script")</script>`) || !strings.Contains(text, `{{.Site}}`)) {
			t.Errorf("%s does not show the hostile text as text", page)
		}
		// The search lists the model by its name, the first part.
		if strings.HasPrefix(page, "search.html") && !strings.Contains(text, "Hostile "+pwnParts[0]) {
			t.Errorf("%s does not show the hostile model's name as text", page)
		}
		tb.checkClean(page)
	}

	// Typing the hostile text into the transcript filter, and loading it
	// from a link, runs nothing either.
	page := "runs/hostile/" + qs + "-transcripts.html"
	tb.open(dir, page)
	tb.do(chromeSendKeys(`form.filters input[name="q"]`, `<img src=x onerror=window.__pwned=1>`))
	tb.open(dir, page+"#filter?q="+strings.ReplaceAll(`%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E`, " ", ""))
	if got := eval[string](tb, imagesSettled+`.then(() => new Promise(r => setTimeout(() => r(typeof window.__pwned), 0)))`); got != "undefined" {
		t.Errorf("%s: the filter ran the hostile text: window.__pwned is %s", page, got)
	}
	tb.checkClean(fmt.Sprintf("%s with a hostile filter", page))
	// And into the search, which lists the hostile model by its name, as
	// text.
	tb.open(dir, "search.html")
	tb.do(chromeSendKeys("#search-q", `Hostile <img src=x onerror=window.__pwned=1>`))
	if got := eval[map[string]any](tb, imagesSettled+`.then(() => new Promise(r => setTimeout(() => r({pwned: typeof window.__pwned,
		text: document.getElementById("search-results").textContent, html: document.getElementById("search-results").innerHTML}), 0)))`); got["pwned"] != "undefined" ||
		!strings.Contains(got["text"].(string), "Hostile <script>") || strings.Contains(got["html"].(string), "<script") {
		t.Errorf("search.html: searching a hostile query: window.__pwned %v, results %.200q", got["pwned"], got["html"])
	}
	tb.checkClean("search.html with a hostile query")

	// The control: the same text, when a page does put it in as HTML, does
	// run in this browser, so the checks above are not vacuous.
	tb.open(dir, page)
	got := eval[string](tb, `(() => {
		const pre = Array.from(document.querySelectorAll("pre")).find(p => p.textContent.includes("onerror"));
		document.body.insertAdjacentHTML("beforeend", pre.textContent);
		return `+imagesSettled+`.then(() => String(window.__pwned));
	})()`)
	if got != "1" {
		t.Errorf("control: the hostile text inserted as HTML did not run (window.__pwned = %s); the test proves nothing", got)
	}
	tb.mu.Lock()
	ran := len(tb.dialogs) > 0
	tb.errors, tb.requests, tb.dialogs = nil, nil, nil
	tb.mu.Unlock()
	if !ran {
		t.Error("control: the hostile text inserted as HTML opened no dialog; the dialog check proves nothing")
	}
}

// imagesSettled is a promise, in a page, of every image of the page
// loaded or failed: once it settles, their onload and onerror attributes
// have run (before the listeners it adds), and alert in one has opened
// its dialog. (The images of a hostile text are broken: src=x.)
const imagesSettled = `Promise.all(Array.from(document.images).filter(i => !i.complete).map(i => new Promise(r => {
	i.addEventListener("load", r);
	i.addEventListener("error", r);
})))`

// dataScript is a script the site writes from texts it was given (cells.js's
// prompt texts, a run's prompt template and the search's index), by its
// relative address.
var dataScript = regexp.MustCompile(`^(\.\./)*(prompts/(explicit|implicit)/q[0-9]+\.js|template\.js|data/pair-runs\.js|data/pairs/[a-z0-9._-]+\.js|data/search-index\.js)$`)

// checkDataScript requires a data script to be exactly
// window.NAME=<JSON>; so that a text in it can only ever be data.
func checkDataScript(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Error(err)
		return
	}
	// One assignment a line (a JSON value holds no raw line break), each
	// of one JSON value.
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	for i, line := range lines {
		m := regexp.MustCompile(`^window\.[A-Z_]+=`).Find(line)
		if m == nil {
			t.Errorf("%s:%d: not a window.NAME= assignment: %.60q", file, i+1, line)
			continue
		}
		rest, ok := bytes.CutSuffix(line[len(m):], []byte(";"))
		if !ok || !json.Valid(rest) {
			t.Errorf("%s:%d: what it assigns is not one JSON value", file, i+1)
		}
		if bytes.ContainsAny(rest, "<>\u2028\u2029") {
			t.Errorf("%s:%d: a raw <, > or U+2028 in a script", file, i+1)
		}
	}
}
