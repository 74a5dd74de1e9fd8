package site

import (
	"fmt"
	"html/template"
	"reflect"
)

// kind names a page kind: its template is templates/<kind>.html.
type kind string

// kindInfo is one page kind (a row of pageKinds).
type kindInfo struct {
	name kind
	// data is *pageData[B], what the kind's template receives
	// (TestTemplatesTypeCheck checks every template against it).
	data reflect.Type
	// body is B, the kind's data type.
	body reflect.Type
	// frame puts a page of the kind into its template's data.
	frame func(site *siteInfo, p *page, nav template.HTML) any
	// For doc.go: the URLs, the file with the type and its builder, and
	// what the pages are made from.
	url, file, inputs string
	// golden is the fixture site's page of this kind whose golden the
	// tests keep.
	golden string
	// parts, for a kind whose pages are written in Go (scenario pages:
	// scenariowrite.go), are the templates of its set that the writer
	// renders on their own with the page's data; its template then
	// renders the layout around the body, once a run.
	parts []string
}

// writtenBy marks a kind whose pages Go writes from its templates' parts.
func (k kindInfo) writtenBy(parts ...string) kindInfo {
	k.parts = parts
	return k
}

func kindOf[B any](name kind, url, file, inputs, golden string) kindInfo {
	return kindInfo{name: name, data: reflect.TypeFor[*pageData[B]](), body: reflect.TypeFor[B](),
		frame: func(site *siteInfo, p *page, nav template.HTML) any {
			return &pageData[B]{Site: site, Page: p, Paths: &paths, Data: p.Body.(B), Nav: nav}
		},
		url: url, file: file, inputs: inputs, golden: golden}
}

// kindsByBody indexes the page kinds by the type of their data.
func kindsByBody(kinds []kindInfo) map[reflect.Type]*kindInfo {
	m := map[reflect.Type]*kindInfo{}
	for i := range kinds {
		k := &kinds[i]
		if m[k.body] != nil {
			panic(fmt.Sprintf("page kinds %s and %s have one data type, %s", m[k.body].name, k.name, k.body))
		}
		m[k.body] = k
	}
	return m
}

// kindOfBody is the kind of a page with data b.
func (r *renderer) kindOfBody(b any) (*kindInfo, error) {
	if k := r.kinds[reflect.TypeOf(b)]; k != nil {
		return k, nil
	}
	return nil, fmt.Errorf("%T is no page kind's data (pageKinds)", b)
}

// kindName is the name of the kind whose data type is B.
func kindName[B any](r *renderer) kind { return r.kinds[reflect.TypeFor[B]()].name }
