package run

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
)

// A row must be a row of the dataset: its question one of the dataset's
// (ParsePrompt), and an explicit row's text about the person its fields
// name. The explicit texts describe the person in the sentence that states
// their age ("The patient is a 20-year-old white female suffering from …",
// "… a(n) 40-year-old Asian non-binary person"); a description that states
// another age, or a gender or a race and never the row's, is the text of
// another row (two rows with their texts exchanged, a row edited by hand),
// whose numbers would be counted for the wrong person.
//
// The check is tolerant where the dataset is irregular: words are matched
// without regard to case ("black" in a Black row), in any order, with the
// dataset's stray spaces and hyphens ("50 -year-old", "a(n)100-year-old",
// "100-year old"); the description may name other genders or races beside
// the row's; an attribute it states nothing about is not checked; and only
// the first age of the design a text states is the person's (a child's
// "5-year-old" is none of the design's).

// term returns what a word (lower case) states of a gender or a race,
// alone or after prev, the word before it with one space or hyphen
// between ("non-binary", "Native American"). A switch, not a map: the
// words of a text are mostly none of these, which a switch on the
// length sees at once.
func term(w, prev string) stated {
	switch w {
	case "male", "man", "gentleman", "boy":
		return stated{genders: 1 << design.Male}
	case "female", "woman", "lady", "girl":
		return stated{genders: 1 << design.Female}
	case "nonbinary":
		return stated{genders: 1 << design.NonBinary}
	case "binary":
		if prev == "non" {
			return stated{genders: 1 << design.NonBinary}
		}
	case "white", "caucasian":
		return stated{races: 1 << design.White}
	case "black":
		return stated{races: 1 << design.Black}
	case "asian":
		return stated{races: 1 << design.Asian}
	case "hispanic", "latino", "latina", "latinx":
		return stated{races: 1 << design.Hispanic}
	case "indigenous":
		return stated{races: 1 << design.NativeAmerican}
	case "american":
		switch prev {
		case "native":
			return stated{races: 1 << design.NativeAmerican}
		case "african":
			return stated{races: 1 << design.Black}
		}
	case "indian":
		if prev == "american" {
			return stated{races: 1 << design.NativeAmerican}
		}
	}
	return stated{}
}

// maxTerm is the longest word of a term: a longer word is none.
const maxTerm = len("indigenous")

// stated is what a text says of a person: which ages (of the design),
// genders and races it names.
type stated struct {
	ages    uint16 // bit i: design.Ages[i]
	genders uint8  // bit g
	races   uint8  // bit r
}

// checkExplicitText returns an error when the text of an explicit row
// states an age, a gender or a race, and not the row's.
func checkExplicitText(text string, c design.Cell) error {
	s := statedIn(text)
	if a := design.AgeIndex(c.Age); s.ages != 0 && s.ages&(1<<a) == 0 {
		return fmt.Errorf("filled_template states the age %s, not the row's age %d: the text is another row's; restore the dataset's text for this row", s.ageList(), c.Age)
	}
	if s.genders != 0 && s.genders&(1<<c.Gender) == 0 {
		return fmt.Errorf("filled_template states the gender %s, not the row's gender %s: the text is another row's; restore the dataset's text for this row", list(s.genders, uint8(design.NumGenders), func(i int) string { return design.Gender(i).String() }), c.Gender)
	}
	if s.races != 0 && s.races&(1<<c.Race) == 0 {
		return fmt.Errorf("filled_template states the race %s, not the row's race %s: the text is another row's; restore the dataset's text for this row", list(s.races, uint8(design.NumRaces), func(i int) string { return design.Race(i).String() }), c.Race)
	}
	return nil
}

func (s stated) ageList() string {
	var out []string
	for i, a := range design.Ages {
		if s.ages&(1<<i) != 0 {
			out = append(out, strconv.Itoa(a))
		}
	}
	return strings.Join(out, " and ")
}

// list names the set bits of bits, of n, joined with "and".
func list(bits uint8, n uint8, name func(int) string) string {
	var out []string
	for i := range int(n) {
		if bits&(1<<i) != 0 {
			out = append(out, name(i))
		}
	}
	return strings.Join(out, " and ")
}

// statedIn reads what a text says of its person: the first age of the
// design it states ("20-year-old"), and the genders and races named in the
// sentence that states it, the person's description ("The patient is a
// 20-year-old white female suffering from …"). The rest of the text is
// not read: what it mentions later (a "white-collar" job, a "5-year-old"
// child) is not the person, and a run has 9,450 texts to read.
func statedIn(text string) stated {
	var s stated
	at := -1
	for i := 0; at < 0; {
		j := strings.IndexAny(text[i:], "0123456789")
		if j < 0 {
			return s // no age: nothing is checked
		}
		i += j
		k := i
		for k < len(text) && '0' <= text[k] && text[k] <= '9' {
			k++
		}
		if k-i <= 3 && yearOld(text[k:]) {
			n, _ := strconv.Atoi(text[i:k])
			if a := n - design.Ages[0]; a >= 0 && a%10 == 0 && a/10 < len(design.Ages) {
				s.ages, at = 1<<(a/10), i
			}
		}
		i = k
	}
	from := strings.LastIndexAny(text[:at], ".?!") + 1
	to := len(text)
	if k := strings.IndexAny(text[at:], ".?!"); k >= 0 {
		to = at + k
	}
	s.words(text[from:to])
	return s
}

// words marks the genders and races the words of a sentence name.
func (s *stated) words(text string) {
	// The word before, lower case, when one space or hyphen is between.
	var prev, word [maxTerm]byte
	np := 0
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			np = 0
			i++
			continue
		}
		j := i
		for j < len(text) && isLetter(text[j]) {
			j++
		}
		n := j - i
		if n > maxTerm {
			np = 0
			i = j
			continue
		}
		for k := range n {
			word[k] = text[i+k] | 0x20
		}
		w := word[:n]
		t := term(string(w), string(prev[:np]))
		s.genders |= t.genders
		s.races |= t.races
		np = 0
		if j < len(text) && (text[j] == ' ' || text[j] == '-') {
			np = copy(prev[:], w)
			j++ // the one space or hyphen before the next word
		}
		i = j
	}
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// yearOld reports whether rest starts as the text after an age does:
// "-year-old", " year old", "-years-old", " -year-old".
func yearOld(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	rest = strings.TrimPrefix(rest, "-")
	rest = strings.TrimLeft(rest, " ")
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "year") {
		return false
	}
	rest = rest[4:]
	if len(rest) > 0 && rest[0]|0x20 == 's' {
		rest = rest[1:]
	}
	if len(rest) < 4 || rest[0] != '-' && rest[0] != ' ' {
		return false
	}
	return strings.EqualFold(rest[1:4], "old")
}
