package render

import (
	"fmt"
	"html/template"
	"reflect"

	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
)

// kind names a page kind: its template is templates/<kind>.html.
type Kind string

// kindInfo is one page kind (a row of pageKinds).
type KindInfo struct {
	Name Kind
	// data is *pageData[B], what the kind's template receives
	// (TestTemplatesTypeCheck checks every template against it).
	Data reflect.Type
	// body is B, the kind's data type.
	Body reflect.Type
	// frame puts a page of the kind into its template's data.
	frame func(site *layout.SiteInfo, p *layout.Page, nav template.HTML) any
	// For doc.go: the URLs, the file with the type and its builder, and
	// what the pages are made from.
	Url, File, Inputs string
	// golden is the fixture site's page of this kind whose golden the
	// tests keep.
	Golden string
	// Parts, for a kind whose pages are written from stencils (scenario
	// pages: scenarios/scenariowrite.go, stencil.go), are the templates
	// of its set that a stencil leaves a hole for, hole n for Parts[n]:
	// its writer fills them, rendering them on their own or from
	// stencils of their own.
	Parts []string
}

// StencilledBy marks a kind whose pages are written from stencils with
// holes for the given parts.
func (k KindInfo) StencilledBy(parts ...string) KindInfo {
	k.Parts = parts
	return k
}

func KindOf[B any](name Kind, url, file, inputs, golden string) KindInfo {
	return KindInfo{Name: name, Data: reflect.TypeFor[*layout.PageData[B]](), Body: reflect.TypeFor[B](),
		frame: func(site *layout.SiteInfo, p *layout.Page, nav template.HTML) any {
			return &layout.PageData[B]{Site: site, Page: p, Paths: &paths.Paths, Data: p.Body.(B), Nav: nav}
		},
		Url: url, File: file, Inputs: inputs, Golden: golden}
}

// kindsByBody indexes the page kinds by the type of their data.
func kindsByBody(kinds []KindInfo) map[reflect.Type]*KindInfo {
	m := map[reflect.Type]*KindInfo{}
	for i := range kinds {
		k := &kinds[i]
		if m[k.Body] != nil {
			panic(fmt.Sprintf("page kinds %s and %s have one data type, %s", m[k.Body].Name, k.Name, k.Body))
		}
		m[k.Body] = k
	}
	return m
}

// kindOfBody is the kind of a page with data b.
func (r *Renderer) kindOfBody(b any) (*KindInfo, error) {
	if k := r.kinds[reflect.TypeOf(b)]; k != nil {
		return k, nil
	}
	return nil, fmt.Errorf("%T is no page kind's data (pageKinds)", b)
}

// kindName is the name of the kind whose data type is B.
func KindName[B any](r *Renderer) Kind { return r.kinds[reflect.TypeFor[B]()].Name }
