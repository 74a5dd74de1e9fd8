#!/usr/bin/env Rscript
# Reference fits for the synthetic fixtures in internal/stats/testdata.
#
# A file with a `logit` column is a scored run: the paper's mixed model by
# lme4, REML, default lmerControl (what lme4 users get). A file with `yes` and
# `trials` columns is a sampled-decision run: each question's own logistic
# regression by Firth's bias-reduced likelihood (brglm2, type "AS_mean"),
# iterated to a tight tolerance, and the mean and standard error over
# questions of their coefficients.
#
# Usage (from internal/stats): Rscript testdata/lme4/fit.R testdata/*.csv.gz
# Each foo.csv.gz gets foo.reference.json beside it.

suppressPackageStartupMessages({
  library(lme4)
  library(jsonlite)
  library(brglm2)
})

# R's column names for the seven coefficients -> the project's names.
coef_names <- c(
  "age_z" = "age",
  "genderfemale" = "female",
  "gendernon-binary" = "non_binary",
  "raceBlack" = "black",
  "raceAsian" = "asian",
  "raceHispanic" = "hispanic",
  "raceNative American" = "native_american"
)

prepare <- function(d) {
  # Sample sd (n - 1) over the rows present, as the Go code does.
  d$age_z <- (d$age - mean(d$age)) / sd(d$age)
  d$gender <- factor(d$gender, levels = c("male", "female", "non-binary"))
  d$race <- factor(d$race, levels = c("white", "Black", "Asian", "Hispanic", "Native American"))
  stopifnot(!anyNA(d$gender), !anyNA(d$race))
  d$q <- factor(d$q)
  d
}

coef_table <- function(est, se) {
  out <- list()
  for (k in names(coef_names)) {
    out[[coef_names[[k]]]] <- list(estimate = unname(est[[k]]), se = unname(se[[k]]))
  }
  out
}

versions <- list(
  R = R.version.string,
  lme4 = as.character(packageVersion("lme4")),
  Matrix = as.character(packageVersion("Matrix")),
  brglm2 = as.character(packageVersion("brglm2"))
)

for (path in commandArgs(trailingOnly = TRUE)) {
  d <- prepare(read.csv(gzfile(path), check.names = FALSE, stringsAsFactors = FALSE))
  res <- list(file = basename(path), rows = nrow(d), questions = nlevels(d$q), versions = versions)
  t0 <- proc.time()[["elapsed"]]
  if ("logit" %in% names(d)) {
    fit <- lmer(logit ~ 1 + age_z + gender + race + (1 + age_z + gender + race | q),
                data = d, REML = TRUE)
    est <- fixef(fit)
    se <- sqrt(diag(as.matrix(vcov(fit))))
    res$lme4_reml <- coef_table(est, se)
    res$intercept <- list(estimate = unname(est[["(Intercept)"]]), se = unname(se[["(Intercept)"]]))
    res$reml_criterion <- unname(REMLcrit(fit))
    res$sigma2 <- sigma(fit)^2
    res$theta <- unname(getME(fit, "theta"))
    res$singular <- isSingular(fit)
    res$optimizer <- fit@optinfo$optimizer
    res$convergence_messages <- as.list(fit@optinfo$conv$lme4$messages)
  } else {
    # Questions answered one way only carry no information on differences
    # between people and are left out, as in the Go code; age is
    # standardised over the rows kept.
    share <- tapply(d$yes, d$q, sum) / tapply(d$trials, d$q, sum)
    keep <- names(share)[share > 0 & share < 1]
    d <- prepare(d[as.character(d$q) %in% keep, c("q", "age", "gender", "race", "yes", "trials")])
    per <- list()
    for (q in levels(d$q)) {
      fit <- glm(cbind(yes, trials - yes) ~ age_z + gender + race, family = binomial,
                 data = d[d$q == q, ], method = "brglmFit", type = "AS_mean",
                 control = brglmControl(epsilon = 1e-12, maxit = 500))
      stopifnot(fit$converged)
      per[[q]] <- coef(fit)[names(coef_names)]
    }
    b <- do.call(rbind, per)
    m <- nrow(b)
    res$questions_used <- m
    res$firth_two_stage <- coef_table(colMeans(b), apply(b, 2, sd) / sqrt(m))
    first <- levels(d$q)[1]
    res$first_question <- list(id = as.integer(first), coefficients = as.list(setNames(unname(per[[first]]), unname(coef_names))))
  }
  res$seconds <- proc.time()[["elapsed"]] - t0
  out <- sub("\\.csv\\.gz$", ".reference.json", path)
  writeLines(toJSON(res, auto_unbox = TRUE, digits = NA, pretty = TRUE), out)
  cat(out, "\n")
}
