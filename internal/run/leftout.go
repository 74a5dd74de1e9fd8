package run

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// LeftOutFile is the optional file beside a run's manifest that lists
// what the importer left out of the scored file, and why: the samples
// that ended in an error, that hit a limit or were never run, that have
// no log-probabilities, or whose P(yes) or P(no) is exactly zero. The
// manifest's incomplete field names the first few; this file has them
// all. The loader checks it (LoadManifest) and lists it among the run's
// files, so that the site publishes it with the run; it adds no row.
const LeftOutFile = "left_out.jsonl"

// Why a sample was left out (LeftOut.Reason).
const (
	LeftError      = "error"            // the sample ended in an error
	LeftLimit      = "limit"            // it hit a limit (tokens, time, messages…) before it answered
	LeftNotRun     = "not run"          // the harness was to run it and did not (a cancelled eval)
	LeftNoLogprobs = "no logprobs"      // a logprob run's sample without log-probabilities
	LeftZero       = "zero probability" // P(yes) or P(no) exactly zero: no logit
)

var leftReasons = []string{LeftError, LeftLimit, LeftNotRun, LeftNoLogprobs, LeftZero}

// LeftOut is one line of LeftOutFile: a sample (an epoch of one, where the
// harness has epochs) or a document the importer left out.
type LeftOut struct {
	// ID is the harness's id of the sample or document.
	ID    string `json:"id"`
	Epoch int    `json:"epoch,omitzero"`
	// The prompt's design cell, when the harness output says it.
	DecisionQuestionID *int     `json:"decision_question_id,omitempty"`
	Age                *float64 `json:"age,omitempty"`
	Gender             string   `json:"gender,omitempty"`
	Race               string   `json:"race,omitempty"`
	// Reason is one of LeftError, LeftLimit, LeftNotRun, LeftNoLogprobs,
	// LeftZero; Detail says more (the error's message).
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Limits of LeftOutFile.
const (
	// MaxLeftOutBytes is the file's size.
	MaxLeftOutBytes = input.MaxTextBytes
	// MaxLeftOutDetailRunes is the length of a line's detail.
	MaxLeftOutDetailRunes = 1000
)

// check validates one line of LeftOutFile.
func (l *LeftOut) check() error {
	if strings.TrimSpace(l.ID) == "" {
		return errors.New("missing id")
	}
	if err := input.Label("id", l.ID, input.MaxLabelRunes); err != nil {
		return err
	}
	known := false
	for _, r := range leftReasons {
		known = known || l.Reason == r
	}
	if !known {
		return fmt.Errorf("reason %q: want one of %q", l.Reason, leftReasons)
	}
	if l.Epoch < 0 {
		return fmt.Errorf("epoch %d: want 1 or more", l.Epoch)
	}
	if err := input.Label("detail", l.Detail, MaxLeftOutDetailRunes); err != nil {
		return err
	}
	if l.DecisionQuestionID != nil && l.Age != nil && l.Gender != "" && l.Race != "" {
		if _, err := ParsePrompt(&Row{DecisionQuestionID: l.DecisionQuestionID, Age: l.Age, Gender: l.Gender, Race: l.Race}); err != nil {
			return err
		}
	} else if l.DecisionQuestionID != nil || l.Age != nil || l.Gender != "" || l.Race != "" {
		return errors.New("give all of decision_question_id, age, gender and race, or none")
	}
	return nil
}

// EncodeLeftOut writes the lines of LeftOutFile, checked as the loader
// checks them.
func EncodeLeftOut(left []LeftOut) ([]byte, error) {
	var buf bytes.Buffer
	for i := range left {
		if err := left[i].check(); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", LeftOutFile, i+1, err)
		}
		b, err := jsonv2.Marshal(&left[i], jsonv2.Deterministic(true))
		if err != nil {
			return nil, err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if buf.Len() > MaxLeftOutBytes {
		return nil, fmt.Errorf("%s would be %s, over the limit of %s", LeftOutFile, input.Size(int64(buf.Len())), input.Size(MaxLeftOutBytes))
	}
	return buf.Bytes(), nil
}

// loadLeftOut checks the run's LeftOutFile, if it has one, and returns
// it as a file of the run and its number of lines (ok false when the run
// has none).
func loadLeftOut(fsys fs.FS, label, id string) (f File, lines int, ok bool, err error) {
	p := path.Join(id, LeftOutFile)
	name := path.Join(label, p)
	if _, err := input.Regular(fsys, p, name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, 0, false, nil
		}
		return File{}, 0, false, err
	}
	data, err := input.ReadFile(fsys, p, name, MaxLeftOutBytes)
	if err != nil {
		return File{}, 0, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		lines++
		var l LeftOut
		if err := jsonv2.Unmarshal(sc.Bytes(), &l, jsonv2.RejectUnknownMembers(true)); err != nil {
			return File{}, 0, false, fileerr.New(name, lines, "%v", err)
		}
		if err := l.check(); err != nil {
			return File{}, 0, false, fileerr.New(name, lines, "%v", err)
		}
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return File{}, 0, false, fileerr.New(name, lines+1, "%v", err)
	}
	sum := sha256.Sum256(data)
	return File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}, lines, true, nil
}
