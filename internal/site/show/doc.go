// Package show is how the site shows a value in words and digits: fixed
// decimals, intervals, signs and their colour classes, counts with their
// nouns, and the words of the coefficients' scale (log-odds, odds
// factors, age in years). Every page package formats through it, so one
// value reads the same everywhere.
//
// # Files
//
//	format.go: Itoa, Interval, SortKey, SignClass, CoefWords, CountWord, Plural
//	words.go: OddsFactor, PlainScale, CoefScale, ShownEstimate, CoefDisplay, CoefLabel
//	facts.go: ModelFacts, FactsOf, NotStated, FactPart, Join
//
// Of the site's packages it may import: none (it is the floor).
package show
