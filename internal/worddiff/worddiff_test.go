package worddiff

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// check verifies the defining property: the segments rebuild both texts.
func check(t *testing.T, old, new string) []Segment {
	t.Helper()
	segs := Diff(old, new)
	var o, n strings.Builder
	for _, s := range segs {
		if s.Op != Insert {
			o.WriteString(s.Text)
		}
		if s.Op != Delete {
			n.WriteString(s.Text)
		}
	}
	if o.String() != old || n.String() != new {
		t.Fatalf("segments do not rebuild the texts:\nold %q\ngot %q\nnew %q\ngot %q", old, o.String(), new, n.String())
	}
	return segs
}

func TestDiffWords(t *testing.T) {
	segs := check(t, "a 60-year-old white male asks.", "a 20-year-old Black male asks.")
	var changed []string
	for _, s := range segs {
		if s.Op != Equal {
			changed = append(changed, string("=-+"[s.Op])+s.Text)
		}
	}
	if got := strings.Join(changed, " "); got != "-60-year-old +20-year-old -white +Black" {
		t.Errorf("changes %q", got)
	}
	check(t, "", "")
	check(t, "", "new words")
	check(t, "old words", "")
	check(t, "same", "same")
	check(t, "sessions.   However x", "sessions. However y")
}

func TestTokensKeepEveryByte(t *testing.T) {
	for _, s := range []string{"", " ", "a", "  two  spaces ", "line\nbreak</filled_template >", "curly ’quotes’ a(n)"} {
		if got := strings.Join(Tokens(s), ""); got != s {
			t.Errorf("Tokens(%q) joins to %q", s, got)
		}
	}
}

// TestRandomEdits checks minimality loosely and correctness strictly on
// random word edits.
func TestRandomEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", " ", "  ", "\n"}
	gen := func() string {
		var sb strings.Builder
		for i := rng.IntN(30); i > 0; i-- {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		return sb.String()
	}
	for i := 0; i < 2000; i++ {
		check(t, gen(), gen())
	}
}

// TestRealVariants diffs every real row of question 0 against the baseline
// row (60, male, white).
func TestRealVariants(t *testing.T) {
	f, err := os.Open("../../testdata/explicit-excerpt-q0.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type row struct {
		Text   string  `json:"filled_template"`
		Age    float64 `json:"age"`
		Gender string  `json:"gender"`
		Race   string  `json:"race"`
	}
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var base string
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
		if r.Age == 60 && r.Gender == "male" && r.Race == "white" {
			base = r.Text
		}
	}
	if base == "" {
		t.Fatal("no baseline row")
	}
	for _, r := range rows {
		segs := check(t, base, r.Text)
		if r.Text == base && len(segs) != 1 {
			t.Errorf("identical texts gave %d segments", len(segs))
		}
	}
}

func BenchmarkDiffRealSize(b *testing.B) {
	old := strings.Repeat("The patient is a 60-year-old white male suffering from severe kidney disease. ", 8)
	new := strings.Replace(strings.Replace(old, "60-year-old white male", "20-year-old Black female", -1), "kidney", "liver", 2)
	for i := 0; i < b.N; i++ {
		Diff(old, new)
	}
}
