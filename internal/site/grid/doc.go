// Package grid holds a run's cells as the pages that span runs keep and
// show them: a difference from the baseline person in the digits shown
// (DeltaCell, KeptQuestion), its colour bin (BinClass, ColourLegend), the
// 135-cell grid's rows, cells and headings (GridRow, GridCell with its
// CellView and the shape of its stencil, GridHead), the per-question
// view cells (QuestionViewCells), the cells script's data (CellsData) and
// the rubric's worked example cell (WorkedExample).
//
// # Files
//
//	cells.go: DeltaCell, NewDeltaCell, KeptQuestion, KeepQuestion, GridCommon, FirstCell
//	bins.go: ColourClass, BinClass, ColourLegend, NewLegend, GridCell, GridRow, CellView, CellShape, Marks, RowProbe, GridHead, CoefCell, CoefClass
//	cellview.go: CellsData, NewCellsData, PromptDataPath, PromptDataJS, SwingCells
//	scenviews.go: ContribView, Contributions, QuestionViewCells
//	workedexample.go: Num, RubricExample, RubricCell, WorkedExample
//
// Of the site's packages it may import: layout, paths, show.
package grid
