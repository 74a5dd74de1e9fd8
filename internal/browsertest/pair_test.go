package browsertest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pairwiseCell is a cell of a pairwise page's matrix: the row run minus
// the column run, as the page shows it.
type pairwiseCell struct {
	Row   string `json:"row"`
	Col   string `json:"col"`
	Value string `json:"value"` // the row run's score, as shown beside it
	Text  string `json:"text"`  // mark, estimate and interval
	Words string `json:"words"` // the verdict
	Href  string `json:"href"`  // its link
}

// pairwiseCellsJS reads every cell of a pairwise page's matrices, the
// runs named by the ids in their links.
const pairwiseCellsJS = `(() => {
	const id = a => a.getAttribute("href").replace(/^.*runs\/([^/]+)\/index\.html$/, "$1");
	const out = [];
	document.querySelectorAll("table.pairwise:not(.neighbours)").forEach(t => {
		const cols = Array.from(t.tHead.rows[0].cells).slice(1).map(th => id(th.querySelector("a")));
		Array.from(t.tBodies[0].rows).forEach(tr => {
			const row = id(tr.cells[0].querySelector("a")), value = tr.cells[0].querySelector(".sub").textContent.split(" · ")[0];
			Array.from(tr.cells).slice(1).forEach((td, j) => {
				if (td.classList.contains("self")) return;
				const c = td.cloneNode(true);
				c.querySelectorAll(".vh").forEach(x => x.remove());
				const a = td.querySelector("a");
				out.push({row, col: cols[j], value, text: c.textContent.replace(/\s+/g, " ").trim(), words: td.title, href: a ? a.getAttribute("href") : ""});
			});
		});
	});
	return out;
})()`

// pairShownJS sets pair.html's address to two runs and waits for the page
// to show them (pair.js marks #pair-result with data-shown), then reads
// each view's row and the note above.
const pairShownJS = `new Promise(done => {
	const want = %q, hash = %q;
	// An error while the page shows the pair ends the wait, as a note
	// the test reports.
	const failed = e => done({note: "error: " + (e.message || (e.reason && e.reason.message) || e.reason), views: []});
	addEventListener("error", failed, {once: true});
	addEventListener("unhandledrejection", failed, {once: true});
	location.hash = hash;
	const read = () => {
		const r = document.getElementById("pair-result");
		if (r.dataset.shown !== want || r.hidden) { requestAnimationFrame(read); return; }
		const text = el => el.textContent.replace(/\s+/g, " ").trim();
		done({note: text(document.getElementById("pair-note")), views: Array.from(document.querySelectorAll("#pair-views tbody tr")).map(tr => ({
			title: text(tr.cells[0]),
			a: text(tr.cells[1].firstChild), b: text(tr.cells[2].firstChild),
			shown: text(tr.cells[3]),
			paired: Array.from(tr.cells[4].children).slice(0, 2).map(text).join(""),
			words: tr.cells[4].children[2] ? text(tr.cells[4].children[2]) : "",
		}))});
	};
	read();
})`

type pairShown struct {
	Note  string `json:"note"`
	Views []struct {
		Title  string `json:"title"`
		A      string `json:"a"`
		B      string `json:"b"`
		Shown  string `json:"shown"`
		Paired string `json:"paired"`
		Words  string `json:"words"`
	} `json:"views"`
}

func showPair(tb *tab, a, b string) pairShown {
	tb.t.Helper()
	return eval[pairShown](tb, fmt.Sprintf(pairShownJS, a+" "+b, "#a="+a+"&b="+b))
}

// hundredths reads a value as shown ("0.44", "+0.42", "−0.05").
func hundredths(t *testing.T, s string) int {
	t.Helper()
	f, err := strconv.ParseFloat(strings.Replace(strings.TrimPrefix(s, "+"), "−", "-", 1), 64)
	if err != nil {
		t.Fatalf("%q is not a value as shown: %v", s, err)
	}
	if f < 0 {
		return int(f*100 - 0.5)
	}
	return int(f*100 + 0.5)
}

// squeeze drops the spaces of a text.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// signedText is hundredths as the site writes a signed value.
func signedText(h int) string {
	switch {
	case h == 0:
		return "0.00"
	case h < 0:
		return fmt.Sprintf("−%d.%02d", -h/100, -h%100)
	}
	return fmt.Sprintf("+%d.%02d", h/100, h%100)
}

// TestPairMatchesPairwise: for every two ranked runs of every board of the
// committed site, both ways round, the pairwise pages' cell links
// pair.html#a=<id>&b=<id>, which shows in each
// view the pairwise page's paired estimate, interval, mark and verdict,
// each run's score as the pairwise page shows it beside the run, and
// their difference; two runs of different boards, or one not ranked, say
// why there is no paired estimate; an unknown id says so.
func TestPairMatchesPairwise(t *testing.T) {
	t.Parallel()
	tb := newTab(t, 1280, 900, "light")
	views := []string{"composite", "age", "gender", "race"}
	type key struct{ a, b, view string }
	want := map[key]pairwiseCell{}
	var pairs [][2]string
	for _, variant := range []string{"explicit", "implicit"} {
		for _, view := range views {
			page := "board/" + variant + "-" + view + "-pairwise.html"
			tb.open(siteDir, page)
			cells := eval[[]pairwiseCell](tb, pairwiseCellsJS)
			tb.checkClean(page)
			for _, c := range cells {
				if want := "../pair.html#a=" + c.Row + "&b=" + c.Col; c.Href != want {
					t.Errorf("%s: the cell of %s minus %s links %q, want %q", page, c.Row, c.Col, c.Href, want)
				}
				if view == "composite" {
					pairs = append(pairs, [2]string{c.Row, c.Col})
				}
				want[key{c.Row, c.Col, view}] = c
			}
		}
	}
	if len(pairs) < 20 {
		t.Fatalf("the committed site's pairwise matrices have %d cells: the test needs the pairs of several runs", len(pairs))
	}
	tb.open(siteDir, "pair.html")
	for _, p := range pairs {
		got := showPair(tb, p[0], p[1])
		if len(got.Views) != len(views) {
			t.Fatalf("pair.html#a=%s&b=%s shows %d views (%s)", p[0], p[1], len(got.Views), got.Note)
		}
		if !strings.HasPrefix(got.Note, "Both runs are ranked on one board") {
			t.Errorf("pair.html#a=%s&b=%s: the note says %q", p[0], p[1], got.Note)
		}
		for i, view := range views {
			w, g := want[key{p[0], p[1], view}], got.Views[i]
			back := want[key{p[1], p[0], view}]
			if squeeze(g.Paired) != squeeze(w.Text) || g.Words != w.Words || g.A != w.Value || g.B != back.Value {
				t.Errorf("pair.html#a=%s&b=%s, %s: shows %s %q, %q (A %s, B %s); the pairwise page %q, %q (A %s, B %s)",
					p[0], p[1], view, g.Title, g.Paired, g.Words, g.A, g.B, w.Text, w.Words, w.Value, back.Value)
			}
			if diff := signedText(hundredths(t, g.A) - hundredths(t, g.B)); g.Shown != diff {
				t.Errorf("pair.html#a=%s&b=%s, %s: the difference of the shown scores is %q, want %q", p[0], p[1], view, g.Shown, diff)
			}
		}
	}
	// Pairs the build does not compare: of two boards, with a run not
	// ranked, the same run twice.
	for _, c := range []struct{ a, b, says string }{
		{"fair-7b-explicit", "fair-7b-implicit", "different prompt variants"},
		{"elder-3b-explicit", "fair-7b-implicit", "different prompt variants (explicit and implicit), and a board, with its paired comparisons, holds the runs of one. A is not ranked"},
		{"fair-7b-explicit", "fair-7b-explicit-sampled", "scored differently"},
		{"elder-3b-explicit", "fair-7b-explicit", "A is not ranked on its board: mean answer mass"},
		{"fair-7b-explicit", "skew-13b-explicit-ignore", "B is not ranked on its board: a prompt intervention (ignore"},
		{"fair-7b-explicit", "fair-7b-explicit", "the same run"},
	} {
		got := showPair(tb, c.a, c.b)
		if !strings.HasPrefix(got.Note, "No paired estimate") || !strings.Contains(got.Note, c.says) {
			t.Errorf("pair.html#a=%s&b=%s: the note says %q, want why there is no paired estimate (%q)", c.a, c.b, got.Note, c.says)
		}
		for _, v := range got.Views {
			if v.Paired != "—" || v.A == "" || v.B == "" {
				t.Errorf("pair.html#a=%s&b=%s, %s: shows %q, %q and a paired estimate %q", c.a, c.b, v.Title, v.A, v.B, v.Paired)
			}
		}
	}
	tb.checkClean("pair.html")
	// An unknown run, from a fresh load of the address.
	tb.open(siteDir, "pair.html#a=no-such-run&b=fair-7b-explicit")
	if s := eval[string](tb, `document.getElementById("pair-status").textContent`); !strings.Contains(s, "no-such-run") {
		t.Errorf("pair.html#a=no-such-run: the status says %q", s)
	}
	// The pickers keep the address: picking B writes it.
	tb.open(siteDir, "pair.html#a=tilt-34b-explicit")
	hash := eval[string](tb, `new Promise(done => { const b = document.getElementById("pair-b"); b.value = "ager-20b-explicit"; b.dispatchEvent(new Event("change")); done(location.hash); })`)
	if hash != "#a=tilt-34b-explicit&b=ager-20b-explicit" {
		t.Errorf("picking B on pair.html#a=tilt-34b-explicit: the address is %q", hash)
	}
	// Each group's coefficient of A and of B, with its interval, is the
	// groups page's.
	type coef struct{ Label, A, B string }
	showPair(tb, "skew-13b-explicit", "fair-7b-explicit")
	coefs := eval[[]coef](tb, `Array.from(document.querySelectorAll("#pair-coefs tbody tr")).map(tr => ({
		Label: tr.cells[0].textContent, A: tr.cells[1].textContent, B: tr.cells[2].textContent}))`)
	if len(coefs) == 0 {
		t.Error("pair.html#a=skew-13b-explicit&b=fair-7b-explicit shows no coefficient")
	}
	tb.open(siteDir, "board/explicit-groups.html")
	// Each run's cells by its id and the coefficient's column.
	groups := eval[map[string]map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("table.cards").forEach(t => {
			const heads = Array.from(t.tHead.rows[0].cells).map(th => th.textContent);
			Array.from(t.tBodies[0].rows).forEach(tr => {
				const id = tr.cells[0].querySelector("a").getAttribute("href").replace(/^.*runs\/([^/]+)\/index\.html$/, "$1");
				out[id] = {};
				Array.from(tr.cells).slice(1).forEach((td, i) => { out[id][heads[i + 1]] = td.textContent; });
			});
		});
		return out;
	})()`)
	for _, c := range coefs {
		if w := groups["skew-13b-explicit"][c.Label]; squeeze(c.A) != squeeze(w) {
			t.Errorf("pair.html: A's %s is %q, the groups page's %q", c.Label, c.A, w)
		}
		if w := groups["fair-7b-explicit"][c.Label]; squeeze(c.B) != squeeze(w) {
			t.Errorf("pair.html: B's %s is %q, the groups page's %q", c.Label, c.B, w)
		}
	}
	tb.open(siteDir, "pair.html")
	// A pair shown passes axe: its tables, links and notes.
	tb.open(siteDir, "pair.html")
	showPair(tb, "skew-13b-explicit", "fair-7b-explicit")
	checkAxe(t, tb, visit{page: "pair.html#a=skew-13b-explicit&b=fair-7b-explicit"})
	tb.checkClean("pair.html")
}

// TestPairWithoutScript: pair.html read without JavaScript says what it
// needs and links the pairwise pages, and shows no empty picker or table.
func TestPairWithoutScript(t *testing.T) {
	t.Parallel()
	tb := openTab(t, browser(t))
	defer tb.cancel()
	tb.emulate(375, 800, "light")
	tb.run("turning scripts off", func() error {
		_, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
	tb.open(siteDir, "pair.html#a=skew-13b-explicit&b=fair-7b-explicit")
	type reading struct {
		Text  string   `json:"text"`
		Links []string `json:"links"`
		Shown []string `json:"shown"`
	}
	got := eval[reading](tb, `(() => {
		const main = document.querySelector("main");
		return {
			text: main.innerText,
			links: Array.from(main.querySelectorAll("a")).filter(a => a.offsetParent !== null).map(a => a.getAttribute("href")),
			shown: ["pair-form", "pair-result"].filter(id => document.getElementById(id).offsetParent !== null),
		};
	})()`)
	if !strings.Contains(got.Text, "Picking two runs needs JavaScript") {
		t.Errorf("pair.html without JavaScript does not say what it needs:\n%s", got.Text)
	}
	for _, want := range []string{"board/explicit-composite-pairwise.html", "board/implicit-composite-pairwise.html"} {
		if !slices.Contains(got.Links, want) {
			t.Errorf("pair.html without JavaScript does not link %s (links: %v)", want, got.Links)
		}
	}
	if len(got.Shown) > 0 {
		t.Errorf("pair.html without JavaScript shows %v, which only the script fills", got.Shown)
	}
}
