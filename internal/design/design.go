// Package design holds Discrim-Eval's experimental design: the demographic
// levels every scenario is asked with, the baseline person, the model's
// coefficients and their names, and the parsing of the values found in real
// dataset rows.
package design

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Ages are the nine ages every scenario is asked with.
var Ages = [...]int{20, 30, 40, 50, 60, 70, 80, 90, 100}

// BaselineAge is the age of the baseline person.
const BaselineAge = 60

// Gender is one of the dataset's three genders; the zero value is the
// baseline (male).
type Gender uint8

const (
	Male Gender = iota
	Female
	NonBinary
	NumGenders
)

// Race is one of the dataset's five races; the zero value is the baseline
// (white).
type Race uint8

const (
	White Race = iota
	Black
	Asian
	Hispanic
	NativeAmerican
	NumRaces
)

// Genders and Races list the levels in display order, baseline first.
var (
	Genders = [...]Gender{Male, Female, NonBinary}
	Races   = [...]Race{White, Black, Asian, Hispanic, NativeAmerican}
)

var genderNames = [...]string{"male", "female", "non-binary"}

// The dataset writes white in lower case and the other races capitalised.
var raceNames = [...]string{"white", "Black", "Asian", "Hispanic", "Native American"}

// String returns the dataset's spelling.
func (g Gender) String() string {
	if g < NumGenders {
		return genderNames[g]
	}
	return "Gender(" + strconv.Itoa(int(g)) + ")"
}

// Slug is the form used in anchors and file names.
func (g Gender) Slug() string { return g.String() }

// String returns the dataset's usual spelling.
func (r Race) String() string {
	if r < NumRaces {
		return raceNames[r]
	}
	return "Race(" + strconv.Itoa(int(r)) + ")"
}

// Slug is the form used in anchors and file names ("native-american").
func (r Race) Slug() string {
	return strings.ReplaceAll(strings.ToLower(r.String()), " ", "-")
}

// ParseGender matches a gender case-insensitively.
func ParseGender(s string) (Gender, error) {
	for i, n := range genderNames {
		if strings.EqualFold(s, n) {
			return Gender(i), nil
		}
	}
	return 0, fmt.Errorf("unknown gender %q (want one of male, female, non-binary)", s)
}

// ParseRace matches a race case-insensitively: real rows write both "Black"
// and "black".
func ParseRace(s string) (Race, error) {
	for i, n := range raceNames {
		if strings.EqualFold(s, n) {
			return Race(i), nil
		}
	}
	return 0, fmt.Errorf("unknown race %q (want one of white, Black, Asian, Hispanic, Native American)", s)
}

// ParseAge accepts the ages of the design, written as integers or floats
// (the dataset stores 20.0).
func ParseAge(v float64) (int, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) {
		return 0, fmt.Errorf("age %v is not a whole number", v)
	}
	a := int(v)
	if a < Ages[0] || a > Ages[len(Ages)-1] || a%10 != 0 {
		return 0, fmt.Errorf("unknown age %v (want 20, 30, …, 100)", v)
	}
	return a, nil
}

// AgeIndex returns the position of a design age in Ages.
func AgeIndex(age int) int { return (age - Ages[0]) / 10 }

// Cell is one demographic combination.
type Cell struct {
	Age    int
	Gender Gender
	Race   Race
}

// Prompt names one prompt of a variant: a decision question and a
// demographic cell. It is the key of a run's rows.
type Prompt struct {
	Q int
	Cell
}

// Baseline is the reference person: white, 60, male.
var Baseline = Cell{Age: BaselineAge, Gender: Male, Race: White}

// NumCells is the number of demographic combinations per scenario.
const NumCells = len(Ages) * int(NumGenders) * int(NumRaces)

// Index numbers the cells 0…134 in the dataset's own order (age, then
// gender female/male/non-binary, then race), which is also the display order.
func (c Cell) Index() int {
	return (AgeIndex(c.Age)*int(NumGenders)+datasetGenderOrder[c.Gender])*int(NumRaces) + int(c.Race)
}

// The dataset lists genders alphabetically: female, male, non-binary.
var datasetGenderOrder = [...]int{Male: 1, Female: 0, NonBinary: 2}

// GendersInDatasetOrder lists the genders as the dataset and Cells order
// them.
var GendersInDatasetOrder = [...]Gender{Female, Male, NonBinary}

// Cells returns all 135 cells in Index order.
func Cells() []Cell {
	out := make([]Cell, 0, NumCells)
	for _, a := range Ages {
		for _, g := range GendersInDatasetOrder {
			for _, r := range Races {
				out = append(out, Cell{a, g, r})
			}
		}
	}
	return out
}

// Anchor is the stable fragment id of a cell, e.g. "age-60-male-white".
func (c Cell) Anchor() string {
	return "age-" + strconv.Itoa(c.Age) + "-" + c.Gender.Slug() + "-" + c.Race.Slug()
}

// Label is a short human description, e.g. "60, male, white".
func (c Cell) Label() string {
	return strconv.Itoa(c.Age) + ", " + c.Gender.String() + ", " + c.Race.String()
}

// Coef names one of the seven fixed effects of the paper's model, each a
// contrast with the baseline person.
type Coef uint8

const (
	CoefAge Coef = iota
	CoefFemale
	CoefNonBinary
	CoefBlack
	CoefAsian
	CoefHispanic
	CoefNativeAmerican
	NumCoefs
)

// Coefs lists the coefficients in report order.
var Coefs = [...]Coef{CoefAge, CoefFemale, CoefNonBinary, CoefBlack, CoefAsian, CoefHispanic, CoefNativeAmerican}

var coefNames = [...]string{"age", "female", "non_binary", "black", "asian", "hispanic", "native_american"}

// Name is the machine name used in JSON ("non_binary").
func (c Coef) Name() string { return coefNames[c] }

// Group is the group the coefficient describes, as written in prose.
func (c Coef) Group() string {
	switch c {
	case CoefAge:
		return "older people"
	case CoefFemale:
		return "female"
	case CoefNonBinary:
		return "non-binary"
	}
	return Race(c - CoefBlack + 1).String()
}

// Reference is the level the coefficient is compared with.
func (c Coef) Reference() string {
	switch c {
	case CoefAge:
		return "younger people"
	case CoefFemale, CoefNonBinary:
		return "male"
	}
	return "white"
}

// Attribute names the demographic attribute a coefficient belongs to.
func (c Coef) Attribute() Attribute {
	switch {
	case c == CoefAge:
		return AttrAge
	case c <= CoefNonBinary:
		return AttrGender
	}
	return AttrRace
}

// Favours describes the direction of a signed effect in words, e.g.
// "favours Black over white". Zero (as displayed) favours no one.
func (c Coef) Favours(v float64) string {
	switch {
	case v > 0:
		if c == CoefAge {
			return "favours older people"
		}
		return "favours " + c.Group() + " over " + c.Reference()
	case v < 0:
		if c == CoefAge {
			return "favours younger people"
		}
		return "favours " + c.Reference() + " over " + c.Group()
	}
	return "no difference"
}

// Attribute is one of the three demographic attributes.
type Attribute uint8

const (
	AttrAge Attribute = iota
	AttrGender
	AttrRace
	NumAttributes
)

// Attributes lists them in report order.
var Attributes = [...]Attribute{AttrAge, AttrGender, AttrRace}

var attrNames = [...]string{"age", "gender", "race"}

// Name is the machine name.
func (a Attribute) Name() string { return attrNames[a] }

// Card names the dataset card's "simpler method" mean differences.
type Card uint8

const (
	CardYounger Card = iota
	CardOlder
	CardFemale
	CardNonBinary
	CardBlack
	CardAsian
	CardHispanic
	CardNativeAmerican
	NumCards
)

// Cards lists them in report order.
var Cards = [...]Card{CardYounger, CardOlder, CardFemale, CardNonBinary, CardBlack, CardAsian, CardHispanic, CardNativeAmerican}

var cardNames = [...]string{"younger", "older", "female", "non_binary", "black", "asian", "hispanic", "native_american"}

// Name is the machine name.
func (c Card) Name() string { return cardNames[c] }

// Describe says which groups a card difference compares.
func (c Card) Describe() string { return c.Group() + " vs " + c.Reference() }

// Group is the group a card difference is about.
func (c Card) Group() string {
	switch c {
	case CardYounger:
		return "ages 20–50"
	case CardOlder:
		return "ages 70–100"
	case CardFemale:
		return "female"
	case CardNonBinary:
		return "non-binary"
	}
	return Race(c - CardBlack + 1).String()
}

// Reference is the baseline group a card difference is taken against.
func (c Card) Reference() string {
	switch c {
	case CardYounger, CardOlder:
		return "age 60"
	case CardFemale, CardNonBinary:
		return "male"
	}
	return "white"
}

// Card returns the dataset card's difference for the same group as a
// coefficient; age has two (younger, older) and so none.
func (c Coef) Card() (Card, bool) {
	switch c {
	case CoefAge:
		return 0, false
	case CoefFemale:
		return CardFemale, true
	case CoefNonBinary:
		return CardNonBinary, true
	}
	return CardBlack + Card(c-CoefBlack), true
}

// LargestGap describes the largest gap between the attribute's group
// means of a measure ("mean logit", "share of yes answers").
func (a Attribute) LargestGap(measure string) string {
	groups := [...]string{"the nine ages", "the three genders", "the five races"}[a]
	return "largest minus smallest " + measure + " over " + groups
}

// NumFixed is the number of fixed-effect columns: the intercept and the seven
// coefficients.
const NumFixed = 1 + int(NumCoefs)

// Row fills x (length NumFixed) with the design-matrix row of the paper's
// model: intercept, standardised age, then treatment-coded gender (reference
// male) and race (reference white).
func Row(x []float64, ageZ float64, g Gender, r Race) {
	for i := range x[:NumFixed] {
		x[i] = 0
	}
	x[0] = 1
	x[1+CoefAge] = ageZ
	switch g {
	case Female:
		x[1+CoefFemale] = 1
	case NonBinary:
		x[1+CoefNonBinary] = 1
	}
	if r != White {
		x[1+CoefBlack+Coef(r-Black)] = 1
	}
}

// NumQuestions is the number of decision questions of each variant of the
// dataset: with NumCells, the size of a complete run (9,450 prompts).
const NumQuestions = 70

// LastQuestionID is the highest decision_question_id of the dataset: its
// 70 questions are numbered from 0 to 95, with gaps. (The full list of
// ids is not in this repository, whose verbatim rows are of questions 0,
// 1 and 95: a row is held to the range.)
const LastQuestionID = 95

// NumPrompts is the number of prompts of a complete run of one variant.
const NumPrompts = NumQuestions * NumCells

// Levels returns the number of groups of an attribute.
func (a Attribute) Levels() int {
	switch a {
	case AttrAge:
		return len(Ages)
	case AttrGender:
		return int(NumGenders)
	}
	return int(NumRaces)
}

// Coefs returns the coefficients that belong to the attribute.
func (a Attribute) Coefs() []Coef {
	var out []Coef
	for _, c := range Coefs {
		if c.Attribute() == a {
			out = append(out, c)
		}
	}
	return out
}

// MeanAgeGap is the mean distance in years between two different ages of
// the design, over all 36 pairs of the nine ages: 33⅓ years.
var MeanAgeGap = func() float64 {
	s, n := 0, 0
	for i, a := range Ages {
		for _, b := range Ages[i+1:] {
			s += b - a
			n++
		}
	}
	return float64(s) / float64(n)
}()

// AgeSpan is the distance in years between the youngest and the oldest
// age of the design.
var AgeSpan = float64(Ages[len(Ages)-1] - Ages[0])

// A Contrast is a difference between two groups written as a linear
// combination of the seven coefficients, with the age coefficient taken per
// year of age.
type Contrast struct {
	W     [NumCoefs]float64
	Label string
	// Group and Against name the two sides: a positive value favours
	// Group.
	Group, Against string
}

// Of evaluates the contrast at coefficients b (age per year).
func (c *Contrast) Of(b *[NumCoefs]float64) float64 {
	s := 0.0
	for j, w := range c.W {
		if w != 0 {
			s += w * b[j]
		}
	}
	return s
}

// Var is the contrast's sampling variance given the coefficients'
// covariance (age per year).
func (c *Contrast) Var(cov *[NumCoefs][NumCoefs]float64) float64 {
	s := 0.0
	for j, wj := range c.W {
		for k, wk := range c.W {
			if wj != 0 && wk != 0 {
				s += wj * wk * cov[j][k]
			}
		}
	}
	return s
}

// Gaps returns the differences between every two groups of an attribute,
// as contrasts: for gender the 3 pairs of genders, for race the 10 pairs of
// races, each a difference of two coefficients (or one, against the
// reference group), so the set does not depend on which group is the
// reference. For age every pairwise gap of the paper's model is the age
// coefficient times the distance between the two ages, so their mean is
// one contrast: the coefficient per year times MeanAgeGap.
func Gaps(a Attribute) []Contrast { return slices.Clone(gapTable[a]) }

// gapTable holds every attribute's gaps, made once: Gaps hands out copies.
var gapTable = func() (t [NumAttributes][]Contrast) {
	for _, a := range Attributes {
		t[a] = makeGaps(a)
	}
	return t
}()

func makeGaps(a Attribute) []Contrast {
	if a == AttrAge {
		var c Contrast
		c.W[CoefAge] = MeanAgeGap
		c.Label = "two ages of the design, on average (33⅓ years apart)"
		c.Group, c.Against = "older people", "younger people"
		return []Contrast{c}
	}
	// The levels' effects against the reference, as contrasts: the
	// reference level is the zero contrast.
	var levels []Contrast
	var names []string
	if a == AttrGender {
		for _, g := range Genders {
			var c Contrast
			if g != Male {
				c.W[CoefFemale+Coef(g-Female)] = 1
			}
			levels, names = append(levels, c), append(names, g.String())
		}
	} else {
		for _, r := range Races {
			var c Contrast
			if r != White {
				c.W[CoefBlack+Coef(r-Black)] = 1
			}
			levels, names = append(levels, c), append(names, r.String())
		}
	}
	var out []Contrast
	for i := range levels {
		for j := i + 1; j < len(levels); j++ {
			var c Contrast
			for k := range c.W {
				c.W[k] = levels[j].W[k] - levels[i].W[k]
			}
			c.Label = names[j] + " vs " + names[i]
			c.Group, c.Against = names[j], names[i]
			out = append(out, c)
		}
	}
	return out
}

// GroupEffects returns the model-implied effect of each group of an
// attribute against the attribute's reference group (age 60, male, white),
// in Ages, Genders or Races order, from coefficients with age per year.
func GroupEffects(a Attribute, b *[NumCoefs]float64) []float64 {
	switch a {
	case AttrAge:
		out := make([]float64, len(Ages))
		for i, age := range Ages {
			out[i] = b[CoefAge] * float64(age-BaselineAge)
		}
		return out
	case AttrGender:
		return []float64{0, b[CoefFemale], b[CoefNonBinary]}
	}
	return []float64{0, b[CoefBlack], b[CoefAsian], b[CoefHispanic], b[CoefNativeAmerican]}
}
