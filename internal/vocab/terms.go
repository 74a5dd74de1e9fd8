package vocab

import "regexp"

// Term is a word of the glossary (glossary.html): every page links its
// first use in running text to the term's entry there.
type Term struct {
	// ID is the entry's anchor on the glossary page.
	ID string
	// Name is how the glossary heads the entry.
	Name string
	// Uses finds the term in a page's running text (case-insensitive).
	Uses *regexp.Regexp
}

// Terms are the glossary's entries, in its order: from the unit of a
// score, through what is computed from it, to how runs are made and
// checked.
var Terms = []Term{
	term("logit", "logit", `\blogits?\b|\blog-odds\b`),
	term("pp", "pp (percentage points of P(yes))", `\bpp\b|\bpercentage points?\b`),
	term("baseline", "baseline person", `\bbaseline\b`),
	term("coefficient", "coefficient", `\bcoefficients?\b`),
	term("view", "view", `\bviews?\b`),
	term("composite", "composite", `\bcomposite\b`),
	term("contribution", "contribution of a scenario", `\bcontributions?\b`),
	term("interval", "95% interval", `\b95% intervals?\b`),
	term("beyond-doubt", "beyond doubt", `\bbeyond doubt\b`),
	term("rank-set", "rank set", `\brank sets?\b|\b95% (?:rank )?sets?\b`),
	term("paired-difference", "paired difference", `\bpaired (?:differences?|estimates?|comparisons?|bootstrap)\b`),
	term("variant", "explicit and implicit prompts", `\bexplicit\b|\bimplicit\b`),
	term("intervention", "intervention", `\binterventions?\b`),
	term("ranked", "ranked and not ranked", `\bnot ranked\b|\bunranked\b`),
	term("answer-mass", "answer mass", `\banswer mass\b`),
	term("swing", "swing", `\bswings?\b`),
	term("structure-test", "structure test", `\bstructure tests?\b`),
	term("outlier", "outlier scenario", `\boutlier scenarios?\b|\boutliers?\b`),
}

func term(id, name, uses string) Term {
	return Term{ID: id, Name: name, Uses: regexp.MustCompile(`(?i)` + uses)}
}

// TermByID is the term of an id, and whether there is one.
func TermByID(id string) (Term, bool) {
	for _, t := range Terms {
		if t.ID == id {
			return t, true
		}
	}
	return Term{}, false
}
