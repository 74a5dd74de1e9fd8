package sitedata

// A run's data file in two parts: what is computed from the run alone
// (its manifest and its result: MarshalRunOwn), which a cached build
// keeps by the run, and what depends on the other runs (its ranking on
// its board, its comparisons with other runs, where its files are:
// MarshalRunWith), made every build. Joined, they are MarshalRun's bytes.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// RunOthersKeys are the fields of a run's data file that depend on the
// other runs of the site or on where its files are: its Ranking, DefRank,
// CoefPHolm, InterventionDiff, VariantDiff, Files and Replicates. Every
// other field is the run's own.
var RunOthersKeys = map[string]bool{
	"board": true, "ranked": true, "unranked_reason": true, "intervention_of": true,
	"rank": true, "tied": true, "rank_set": true, "board_rank_set": true,
	"composite_rank_by_definition": true, "coefficient_p_holm": true,
	"intervention_difference": true, "variant_difference": true, "files": true, "replicates": true,
}

// runKeyOrder is each field's place in Run, by its JSON key (Ranking's
// fields where it is embedded): the order MarshalRun writes them in.
var runKeyOrder = sync.OnceValue(func() map[string]int {
	order := map[string]int{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			order[name] = len(order)
		}
	}
	walk(reflect.TypeFor[Run]())
	return order
})

// runField is one top-level field of a run's data file as MarshalRun
// writes it: a line break, the quoted key, a colon and the value (the
// questions' list a line a question).
type runField struct {
	key  string
	line []byte
}

// runFields are r's fields as MarshalRun writes them, in its order. The
// questions' list, most of a run's bytes, is encoded once, a question a
// line (WriteList), and put in its place among the rest, which are
// encoded without it (omitempty: its key is absent then, as it is for a
// run without questions).
func runFields(r Run) ([]runField, error) {
	questions := r.Questions
	r.Questions = nil
	data, err := marshalCompact(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("run %s: not an object: %v", r.ID, err)
	}
	var fields []runField
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		name, _ := json.Marshal(key)
		buf.WriteByte('\n')
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(v)
		fields = append(fields, runField{key, buf.Bytes()})
	}
	if len(questions) == 0 {
		return fields, nil
	}
	var buf bytes.Buffer
	if err := WriteList(&buf, "questions", len(questions), func(i int) any { return questions[i] }); err != nil {
		return nil, err
	}
	// Encoded in Run's field order (runKeyOrder's): the list goes before
	// the first field after it.
	order := runKeyOrder()
	at := len(fields)
	for i, f := range fields {
		if order[f.key] > order["questions"] {
			at = i
			break
		}
	}
	return slices.Insert(fields, at, runField{"questions", buf.Bytes()}), nil
}

// joinRun is the data file of these fields.
func joinRun(fields []runField) []byte {
	n := 3
	for _, f := range fields {
		n += len(f.line) + 1
	}
	buf := make([]byte, 0, n)
	buf = append(buf, '{')
	for i, f := range fields {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, f.line...)
	}
	return append(buf, "}\n"...)
}

// MarshalRunOwn is the run's own part of its data file: r's fields but
// RunOthersKeys, as MarshalRun writes them, each after its key and its
// length (what a cache keeps; MarshalRunWith reads it back).
func MarshalRunOwn(r Run) ([]byte, error) {
	fields, err := runFields(r)
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, f := range fields {
		if RunOthersKeys[f.key] {
			continue
		}
		out = binary.AppendUvarint(out, uint64(len(f.key)))
		out = append(out, f.key...)
		out = binary.AppendUvarint(out, uint64(len(f.line)))
		out = append(out, f.line...)
	}
	return out, nil
}

// MarshalRunWith is the run's data file from its own part (MarshalRunOwn)
// and r's RunOthersKeys fields (r's other fields are not read): the bytes
// MarshalRun gives of the whole record. An own part that is not a list
// of Run's own fields, each once, is an error.
func MarshalRunWith(own []byte, r Run) ([]byte, error) {
	all, err := runFields(r)
	if err != nil {
		return nil, err
	}
	var fields []runField
	for _, f := range all {
		if RunOthersKeys[f.key] {
			fields = append(fields, f)
		}
	}
	ownFields, err := parseOwn(own)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.ID, err)
	}
	fields = append(fields, ownFields...)
	// Each key once: the order is total.
	order := runKeyOrder()
	slices.SortFunc(fields, func(a, b runField) int { return cmp.Compare(order[a.key], order[b.key]) })
	return joinRun(fields), nil
}

// CheckRunOwn says whether own is a run's own part as MarshalRunOwn
// writes them: Run's own fields, each once.
func CheckRunOwn(own []byte) error {
	_, err := parseOwn(own)
	return err
}

func parseOwn(own []byte) ([]runField, error) {
	order := runKeyOrder()
	var fields []runField
	seen := map[string]bool{}
	for len(own) > 0 {
		var f runField
		for i := range 2 {
			n, k := binary.Uvarint(own)
			if k <= 0 || n > uint64(len(own)-k) {
				return nil, fmt.Errorf("a damaged own part")
			}
			if i == 0 {
				f.key = string(own[k : k+int(n)])
			} else {
				f.line = own[k : k+int(n)]
			}
			own = own[k+int(n):]
		}
		if _, ok := order[f.key]; !ok || RunOthersKeys[f.key] || seen[f.key] {
			return nil, fmt.Errorf("an own part with field %q", f.key)
		}
		seen[f.key] = true
		fields = append(fields, f)
	}
	return fields, nil
}
