// Package scenarios builds a run's scenario pages: the index of its
// questions (ScenarioIndexData), one page per question with its 135-cell
// grid (ScenarioData, written by WriteScenario from its template's stencils),
// and the transcripts (TranscriptData).
//
// # Files
//
//	scenario.go: ScenarioData, ScenarioPage
//	scenariowrite.go: ScenarioParts, RunFields, ScenarioRun, WriteScenario
//	scenarios.go: ScenarioIndexData, ScenarioIndexPage
//	transcript.go: TranscriptData, TranscriptJob
//
// Of the site's packages it may import: grid, layout, outdir, paths, render, show, stage.
package scenarios
