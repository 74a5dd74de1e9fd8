// Package layout is what every page shares: the page value (Page: a
// path, a title, a section and the data of one page kind), the frame its
// template receives (PageData), the site-wide facts (SiteInfo: title,
// navigation, release, citation), a listing's pages (Paging, Pager), and
// the dataset's texts as runs commit them (DatasetTexts, PromptInfos).
//
// # Files
//
//	page.go: Page, Section, SiteInfo, NavItem, PageData, RunLink, QuestionLink, Article, NotFound
//	pager.go: Paging, Pager, PageOf, LinkLines
//	texts.go: DatasetTexts, NewDatasetTexts, PromptInfos, TextInfo, HashBytes64, TranscriptSize, ExpandTemplate
//	cite.go: Cite
//	benchmark.go: BenchmarkData
//	term.go: TermLink, PageData.Term, PageData.Said
//	ranked.go: IsRanked, LinkRun
//
// Of the site's packages it may import: paths, show.
package layout
