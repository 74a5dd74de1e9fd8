package chart

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/discrimeval/leaderboard/internal/vocab"
)

// TimePlot is a board's scores against its models' release dates, as
// Epoch AI's and LMArena's charts of scores over time: one dot per run at
// its model's release date (x) and its score (y, a magnitude: zero, the
// ideal, at the bottom, so that lower is better reads as lower). A filled
// dot is a model with open weights, a hollow one a model without (class
// chart-open, chart-closed). The runs that were the lowest score of any
// model released by then (each lower than every run released before it or
// on the same day) are joined by a step line, the frontier (class
// chart-frontier), and named beside their dots where the names fit. Each
// dot has its run as data-run, for a page's filters, and its model, score
// and date in a <title>, shown on hover (the wide layout only: a phone
// has no pointer to hover, and the board's table lists the same numbers).
type TimePlot struct {
	// ID prefixes the ids of the chart's elements; it must be unique in the
	// page: a letter, then letters, digits, '-' or '_'.
	ID string
	// Title is the chart's accessible name; "" gives "Scores against
	// release dates".
	Title string
	// Desc is a one-sentence description; "" generates one: the runs,
	// their dates, the lowest and highest scores, the frontier.
	Desc string
	// Axis titles the y axis; "" gives vocab.Logits, "logits".
	Axis string
	// Narrow lays the plot out NarrowWidth wide, for a phone.
	Narrow bool
	// Points are the runs, in any order (they are drawn by date, then
	// score, then ID).
	Points []TimePoint
}

// TimePoint is one run of a TimePlot.
type TimePoint struct {
	Label string // the model's name
	ID    string // the run's id, as data-run (for a page's filters); optional
	Date  string // the model's release date, YYYY-MM-DD
	Value float64
	Open  bool // open weights: a filled dot
}

// TimeHeight is the height of a TimePlot's plotting area, in user units.
const TimeHeight = 220

// day is a date as a number of days, for the x scale.
func day(t time.Time) float64 { return float64(t.Unix()) / 86400 }

// SVG draws the plot.
func (p TimePlot) SVG() (template.HTML, error) {
	if err := checkID(p.ID); err != nil {
		return "", err
	}
	title := or(p.Title, "Scores against release dates")
	unit := or(p.Axis, vocab.Logits)
	width := float64(IntervalWidth)
	if p.Narrow {
		width = NarrowWidth
	}
	if len(p.Points) == 0 {
		return noData("time", p.ID, title, width)
	}
	pts := append([]TimePoint(nil), p.Points...)
	dates := make(map[string]time.Time, len(pts))
	hi := 0.0
	for _, pt := range pts {
		d, err := time.Parse(time.DateOnly, pt.Date)
		if err != nil {
			return "", fmt.Errorf("chart: %q: release date %q: want YYYY-MM-DD", pt.Label, pt.Date)
		}
		if !finite(pt.Value) || pt.Value < 0 || pt.Value > limit {
			return "", fmt.Errorf("chart: %q: score %g: want a finite magnitude", pt.Label, pt.Value)
		}
		dates[pt.Date] = d
		hi = math.Max(hi, pt.Value)
	}
	sort.SliceStable(pts, func(i, j int) bool {
		a, b := pts[i], pts[j]
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		if a.Value != b.Value {
			return a.Value < b.Value
		}
		return a.ID < b.ID
	})
	front := frontier(pts)
	desc := or(p.Desc, describeTime(pts, front, unit))

	const pad = 12
	leftW := 44.0 // the y axis's tick labels
	if p.Narrow {
		leftW = 36
	}
	var body svg
	legendY := body.legend([]legendItem{
		{func(w *svg, x, y float64) { openDot(w, x, y, true) }, "open weights"},
		{func(w *svg, x, y float64) { openDot(w, x, y, false) }, "closed weights"},
		{func(w *svg, x, y float64) {
			w.line(x-7, y+3, x, y+3, s("stroke", "currentColor"), n("stroke-width", 1.5))
			w.line(x, y+3, x, y-4, s("stroke", "currentColor"), n("stroke-width", 1.5))
			w.line(x, y-4, x+7, y-4, s("stroke", "currentColor"), n("stroke-width", 1.5))
		}, "lowest so far"},
	}, pad, 18, width-pad)
	top := legendY + 34
	bottom := top + TimeHeight
	if p.Narrow {
		bottom = top + TimeHeight*0.8
	}
	x0, x1 := pad+leftW, width-pad-8

	// The y scale: from zero, with round ticks.
	yvals, decimals := ticks(0, hi*1.08, 5)
	ylo, yhi := yvals[0], yvals[len(yvals)-1]
	yOf := func(v float64) float64 { return bottom - (v-ylo)/(yhi-ylo)*(bottom-top) }
	for _, v := range yvals {
		y := yOf(v)
		if v != 0 {
			body.line(x0, y, x1, y, s("class", "chart-grid"), s("stroke", "currentColor"), s("stroke-opacity", "0.18"))
		}
		body.text(x0-6, y+4.5, "end", "", tickLabel(v, decimals, false))
	}
	body.line(x0, bottom, x1, bottom, s("class", "chart-zeroline"), s("stroke", "currentColor"), n("stroke-width", 1.5))
	body.line(x0, top-4, x0, bottom, s("class", "chart-axis"), s("stroke", "currentColor"))

	// The x scale: the dates' span and a margin of a twentieth either
	// side (at least a month), ticks on years, or on quarters or months
	// when the span is short.
	first, last := dates[pts[0].Date], dates[pts[len(pts)-1].Date]
	margin := math.Max(30, (day(last)-day(first))/20)
	sc := scale{day(first) - margin, day(last) + margin, x0 + 6, x1 - 6}
	xticks := dateTicks(first.AddDate(0, 0, -int(margin)), last.AddDate(0, 0, int(margin)), p.Narrow)
	for _, tk := range xticks {
		x := sc.x(day(tk.at))
		body.line(x, top, x, bottom, s("class", "chart-grid"), s("stroke", "currentColor"), s("stroke-opacity", "0.18"))
		body.line(x, bottom, x, bottom+5, s("class", "chart-axis"), s("stroke", "currentColor"))
		body.text(x, bottom+18, "middle", "", tk.label)
	}
	body.text((x0+x1)/2, bottom+36, "middle", "chart-muted", "the model’s release date")
	// The y axis's title, above its ticks, with the reading direction.
	body.text(pad, top-14, "start", "chart-muted", unit+" (lower is better)")

	// The frontier's steps: along at its value to the next frontier
	// run's date, down to that one's value; along to the last date.
	if len(front) > 0 {
		body.open("g", s("class", "chart-frontier"), s("fill", "none"), s("stroke", "currentColor"), n("stroke-width", 1.5), s("stroke-opacity", "0.6"))
		for i, k := range front {
			a := pts[k]
			xa, ya := sc.x(day(dates[a.Date])), yOf(a.Value)
			xb := sc.x(day(last))
			if i+1 < len(front) {
				b := pts[front[i+1]]
				xb = sc.x(day(dates[b.Date]))
				body.line(xa, ya, xb, ya)
				body.line(xb, ya, xb, yOf(b.Value))
			} else if xb > xa {
				body.line(xa, ya, xb, ya)
			}
		}
		body.close("g")
	}

	// The dots, one per run, a run's own element for the filters, in two
	// groups (open weights, then closed) that hold their style once
	// rather than on every dot: the chart is the part of the board page
	// that grows with every ranked run, not with the board's page size.
	for _, open := range []bool{true, false} {
		if !slices.ContainsFunc(pts, func(pt TimePoint) bool { return pt.Open == open }) {
			continue
		}
		if open {
			body.open("g", s("class", "chart-open"), s("fill", "currentColor"), s("fill-opacity", "0.75"))
		} else {
			body.open("g", s("class", "chart-closed"), s("fill", "none"), s("stroke", "currentColor"), n("stroke-width", 1.5))
		}
		for _, pt := range pts {
			if pt.Open != open {
				continue
			}
			x, y := sc.x(day(dates[pt.Date])), yOf(pt.Value)
			as := []attr{n("cx", x), n("cy", y), n("r", 4.5)}
			if pt.ID != "" {
				as = append(as, s("data-run", pt.ID))
			}
			if p.Narrow {
				body.leaf("circle", as...)
				continue
			}
			body.open("circle", as...)
			body.elem("title", pt.Label+": "+plain(pt.Value)+", released "+pt.Date)
			body.b.WriteString("</circle>")
		}
		body.close("g")
	}

	// The frontier's names, beside their dots where they do not overlap
	// a dot, one another or the legend.
	body.open("g", s("class", "chart-halo"), s("stroke", "#fff"), n("stroke-width", 4), s("stroke-linejoin", "round"), s("paint-order", "stroke"), n("font-size", 12))
	var placed [][4]float64
	for _, pt := range pts {
		x, y := sc.x(day(dates[pt.Date])), yOf(pt.Value)
		placed = append(placed, [4]float64{x - 5, y - 5, x + 5, y + 5})
	}
	for _, k := range front {
		pt := pts[k]
		label := truncate(pt.Label, 30)
		x, y := sc.x(day(dates[pt.Date]))+7, yOf(pt.Value)-7
		w := textWidth(label, 12)
		anchor := "start"
		if x+w > x1 {
			x, anchor = x-14, "end"
		}
		box := [4]float64{x, y - 12, x + w, y + 2}
		if anchor == "end" {
			box[0], box[2] = x-w, x
		}
		if box[1] < top-20 || overlaps(box, placed) {
			continue
		}
		placed = append(placed, box)
		body.text(x, y, anchor, "", label)
	}
	body.close("g")

	kind := "time"
	if p.Narrow {
		kind = "time-narrow"
	}
	return chart(header{kind: kind, id: p.ID, title: title, desc: desc, width: width, height: bottom + 46}, &body)
}

// openDot draws a legend's dot: filled for open weights, hollow for
// closed.
func openDot(w *svg, x, y float64, open bool) {
	if open {
		w.leaf("circle", n("cx", x), n("cy", y), n("r", 4.5), s("fill", "currentColor"), s("fill-opacity", "0.75"))
		return
	}
	w.leaf("circle", n("cx", x), n("cy", y), n("r", 4.5), s("fill", "none"), s("stroke", "currentColor"), n("stroke-width", 1.5))
}

// overlaps says whether box meets any of boxes (x0, y0, x1, y1).
func overlaps(box [4]float64, boxes [][4]float64) bool {
	for _, b := range boxes {
		if box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3] {
			return true
		}
	}
	return false
}

// frontier returns the indexes, in pts (sorted by date, then score), of
// the runs whose score is lower than that of every run released before
// them or on their day (the lowest of a day comes first).
func frontier(pts []TimePoint) []int {
	var out []int
	best := math.Inf(1)
	for i, pt := range pts {
		if pt.Value < best {
			out = append(out, i)
			best = pt.Value
		}
	}
	return out
}

// dateTick is an x axis tick: a day and its label.
type dateTick struct {
	at    time.Time
	label string
}

// dateTicks are ticks between from and to: on the first of each year
// ("2024"), or when fewer than two years fit, of each quarter ("2024-04"),
// or of each month; at most about 7 (4 when narrow), thinned by taking
// every k-th.
func dateTicks(from, to time.Time, narrow bool) []dateTick {
	most := 7
	if narrow {
		most = 4
	}
	var out []dateTick
	for _, months := range []int{12, 3, 1} {
		out = out[:0]
		t := time.Date(from.Year(), time.Month(((int(from.Month())-1)/months)*months+1), 1, 0, 0, 0, 0, time.UTC)
		if t.Before(from) {
			t = t.AddDate(0, months, 0)
		}
		for ; !t.After(to); t = t.AddDate(0, months, 0) {
			label := strconv.Itoa(t.Year())
			if months < 12 {
				label = t.Format("2006-01")
			}
			out = append(out, dateTick{t, label})
		}
		if len(out) >= 2 {
			break
		}
	}
	if k := (len(out) + most - 1) / most; k > 1 {
		var thin []dateTick
		for i := 0; i < len(out); i += k {
			thin = append(thin, out[i])
		}
		out = thin
	}
	return out
}

// describeTime is the generated description.
func describeTime(pts []TimePoint, front []int, unit string) string {
	lo, hi := 0, 0
	for i, pt := range pts {
		if pt.Value < pts[lo].Value {
			lo = i
		}
		if pt.Value > pts[hi].Value {
			hi = i
		}
	}
	runs := fmt.Sprintf("%d runs, their models released from %s to %s", len(pts), pts[0].Date, pts[len(pts)-1].Date)
	if len(pts) == 1 {
		runs = "1 run, its model released " + pts[0].Date
	}
	at := func(i int) string {
		return fmt.Sprintf("%s (%s, released %s)", plain(pts[i].Value), pts[i].Label, pts[i].Date)
	}
	s := fmt.Sprintf("%s; scores in %s from %s to %s", runs, unit, at(lo), at(hi))
	if len(pts) == 1 {
		s = fmt.Sprintf("%s; score %s in %s", runs, at(0), unit)
	}
	if len(front) > 1 {
		times := map[int]string{1: "once", 2: "twice"}[len(front)-1]
		if times == "" {
			times = strconv.Itoa(len(front)-1) + " times"
		}
		s += fmt.Sprintf("; the lowest so far improved %s, last to %s", times, at(front[len(front)-1]))
	}
	return s + "."
}
