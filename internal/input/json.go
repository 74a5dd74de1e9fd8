package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// DuplicateKey returns an error at the line of the first key that repeats
// a key of the same JSON object, or nil. encoding/json keeps the last of
// two equal keys without a word, and matches keys to fields without
// regard to case, so keys that differ only in case are duplicates too.
// Malformed JSON is left to the decoder that reads the file (nil here).
func DuplicateKey(label string, data []byte) error {
	type object struct {
		keys      map[string]int // folded key → line
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []*object
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *object
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &object{keys: map[string]int{}, expectKey: true})
			case '[':
				stack = append(stack, nil)
			default:
				stack = stack[:len(stack)-1]
				if n := len(stack); n > 0 && stack[n-1] != nil {
					stack[n-1].expectKey = true
				}
			}
			continue
		case string:
			if top != nil && top.expectKey {
				line := 1 + bytes.Count(data[:dec.InputOffset()], []byte("\n"))
				k := strings.ToLower(t)
				if prev, dup := top.keys[k]; dup {
					return fileerr.New(label, line, "key %q repeats a key of the same object on line %d (keys are matched without regard to case): the last would silently win; keep one", t, prev)
				}
				top.keys[k] = line
				top.expectKey = false
				continue
			}
		}
		if top != nil {
			top.expectKey = true // that was a value
		}
	}
}

// Date checks that s is a date that exists, written YYYY-MM-DD
// ("2026-02-30" does not).
func Date(s string) error {
	if len(s) != len("2006-01-02") {
		return fmt.Errorf("%q: want a date YYYY-MM-DD", s)
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		if strings.Contains(err.Error(), "out of range") {
			return fmt.Errorf("%q is not a date that exists (month 01–12, a day the month has)", s)
		}
		return fmt.Errorf("%q: want a date YYYY-MM-DD", s)
	}
	return nil
}

// FirstDate is the earliest day a run or a release of Discrim-Eval can
// carry: the dataset and its paper were published in December 2023
// (arXiv:2312.03689).
const FirstDate = "2023-12-01"

// BenchmarkDate is Date for the day of a run or a release, which cannot
// come before FirstDate either ("0000-01-01" is a placeholder, not the day
// a run was made).
func BenchmarkDate(s string) error {
	if err := Date(s); err != nil {
		return err
	}
	if s < FirstDate {
		return fmt.Errorf("%q is before Discrim-Eval was published (December 2023, arXiv:2312.03689), so no run or release has it: write the real day", s)
	}
	return nil
}
